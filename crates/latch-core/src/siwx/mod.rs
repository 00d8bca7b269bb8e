//! Sign-in messages (behaviour 4.3 "Sign-in session", behaviour 4.5 "Sign-in", behaviour 4.7 sign-in):
//! EIP-4361 (Sign-In with Ethereum) and its chain-agnostic form CAIP-122,
//! here for Solana accounts, built and parsed by one grammar.
//!
//! The two differ only in the account line of the header (`… with your
//! Ethereum account:` / `… with your Solana account:`), the address rule
//! (EIP-55 checksummed hex / base58 of 32 bytes) and the chain id: EIP-4361's
//! `Chain ID:` line is the EIP-155 number, and CAIP-122 puts the CAIP-2
//! *reference* on the same line (its own examples: `Chain ID: 1`, and a
//! genesis-hash reference for Solana), so the namespace comes from the header.
//!
//! [`SignInMessage`] keeps every field as written, times included, so that
//! parsing and building are exact inverses: `parse(build(m)) == m` for every
//! valid message and `build(parse(t)) == t` for every valid text. Where the
//! grammar has two spellings of "nothing" they stay distinct: no `Request ID`
//! line vs `Request ID: ` (empty), no `Resources:` section vs the heading with
//! no items (viem writes the latter for `resources: []`). An empty statement
//! has no spelling of its own (it would read as one more blank line), so it is
//! refused rather than silently dropped.

mod rfc3339;
mod signature;

use serde::{Deserialize, Serialize};

use crate::address::{is_solana_address, parse_evm_address};
use crate::caip::CaipNetworkId;
use crate::{Error, Result};

pub use signature::{recover_personal_sign_address, solana_signature_text, verify_solana_signature};

/// Unix milliseconds of an RFC 3339 date-time as sign-in messages write them; `None` when it is not one.
pub fn rfc3339_unix_ms(time: &str) -> Option<i64> {
    rfc3339::unix_ms(time)
}

/// Unix milliseconds as an RFC 3339 date-time in UTC, to the millisecond (`2026-11-21T09:30:00.000Z`).
pub fn unix_ms_rfc3339(unix_ms: i64) -> String {
    rfc3339::format(unix_ms)
}

/// A sign-in message's fields, in message order. `C` is how the chain is named:
/// see [`SiweMessage`] and [`SiwxMessage`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SignInMessage<C> {
    /// URI scheme of the requesting origin when the header names one (`https://example.com wants you…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
    /// RFC 3986 authority (host and optional port) asking for the signature.
    pub domain: String,
    /// The signing account: EIP-55 checksummed for Ethereum, base58 for Solana.
    pub address: String,
    /// One line of human-readable text, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    /// RFC 3986 URI of the resource the sign-in is for.
    pub uri: String,
    /// Always `1`.
    pub version: String,
    /// The chain the session is bound to.
    pub chain_id: C,
    /// At least 8 letters or digits, chosen by the relying party against replay.
    pub nonce: String,
    /// RFC 3339 date-time the message was made.
    pub issued_at: String,
    /// RFC 3339 date-time from which the signature no longer counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiration_time: Option<String>,
    /// RFC 3339 date-time before which the signature does not count yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_before: Option<String>,
    /// The relying party's id for this request (RFC 3986 path characters, may be empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// RFC 3986 URIs the user asks the relying party to resolve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<String>>,
}

/// An EIP-4361 message: the chain is the EIP-155 chain id.
pub type SiweMessage = SignInMessage<u64>;

/// A message for any namespace with a sign-in format here (`eip155`, `solana`):
/// the chain is the full CAIP-2 id, e.g. `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`.
pub type SiwxMessage = SignInMessage<String>;

/// How a [`SignInMessage`] names its chain.
pub trait SignInChainId: Sized {
    /// The CAIP-2 network this names.
    fn to_network(&self) -> Result<CaipNetworkId>;
    /// The chain id of a message's (already validated) network.
    fn from_network(network: CaipNetworkId) -> Result<Self>;
}

impl SignInChainId for u64 {
    fn to_network(&self) -> Result<CaipNetworkId> {
        Ok(CaipNetworkId {
            namespace: Account::Ethereum.namespace().into(),
            reference: self.to_string(),
        })
    }

    fn from_network(network: CaipNetworkId) -> Result<Self> {
        if network.namespace != Account::Ethereum.namespace() {
            return Err(invalid(
                "not a Sign-In with Ethereum message: the account is not an Ethereum one",
            ));
        }
        network.reference.parse().map_err(|_| invalid(EIP155_CHAIN_ID_RULE))
    }
}

impl SignInChainId for String {
    fn to_network(&self) -> Result<CaipNetworkId> {
        CaipNetworkId::parse(self).map_err(|_| invalid("chainId must be a CAIP-2 network id"))
    }

    fn from_network(network: CaipNetworkId) -> Result<Self> {
        Ok(network.to_string())
    }
}

/// The account kinds with a sign-in format: one per namespace.
#[derive(Clone, Copy)]
enum Account {
    Ethereum,
    Solana,
}

impl Account {
    fn from_namespace(namespace: &str) -> Option<Self> {
        match namespace {
            "eip155" => Some(Self::Ethereum),
            "solana" => Some(Self::Solana),
            _ => None,
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        [Self::Ethereum, Self::Solana].into_iter().find(|a| a.name() == name)
    }

    fn namespace(self) -> &'static str {
        match self {
            Self::Ethereum => "eip155",
            Self::Solana => "solana",
        }
    }

    /// The name in the header, `… sign in with your {name} account:`.
    fn name(self) -> &'static str {
        match self {
            Self::Ethereum => "Ethereum",
            Self::Solana => "Solana",
        }
    }

    fn check_address(self, address: &str) -> Result<()> {
        match self {
            // EIP-4361: "Must also conform to capitalization checksum encoding specified in EIP-55".
            Self::Ethereum => parse_evm_address(address)
                .ok()
                .filter(|parsed| parsed.to_checksum(None) == address)
                .map(drop)
                .ok_or_else(|| invalid("address must be an EIP-55 checksummed Ethereum address")),
            Self::Solana => is_solana_address(address)
                .then_some(())
                .ok_or_else(|| invalid("address must be a base58 Solana address")),
        }
    }

    fn check_reference(self, reference: &str) -> Result<()> {
        match self {
            // EIP-4361 `chain-id = 1*DIGIT`, without a leading zero (which would
            // give one number two spellings) and within u64 in both views.
            Self::Ethereum => (reference.bytes().all(|b| b.is_ascii_digit())
                && (reference == "0" || !reference.starts_with('0'))
                && reference.parse::<u64>().is_ok())
            .then_some(())
            .ok_or_else(|| invalid(EIP155_CHAIN_ID_RULE)),
            // CAIP-30: the first 32 characters of the genesis hash, or any other
            // CAIP-2 reference a wallet uses (e.g. `mainnet`).
            Self::Solana => CaipNetworkId::parse(&format!("solana:{reference}"))
                .map(drop)
                .map_err(|_| invalid("Chain ID must be a CAIP-2 reference")),
        }
    }
}

fn invalid(reason: impl Into<String>) -> Error {
    Error::InvalidSignInMessage { reason: reason.into() }
}

const EIP155_CHAIN_ID_RULE: &str = "Chain ID must be an EIP-155 chain id: decimal, no leading zero, below 2^64";
const HEADER_MIDDLE: &str = " wants you to sign in with your ";
const HEADER_END: &str = " account:";

impl<C: SignInChainId> SignInMessage<C> {
    /// The message text to sign, after checking every field.
    pub fn build(&self) -> Result<String> {
        let (account, network) = self.validate()?;
        let mut text = String::new();
        if let Some(scheme) = &self.scheme {
            text += scheme;
            text += "://";
        }
        text += &format!(
            "{}{HEADER_MIDDLE}{}{HEADER_END}\n{}\n\n",
            self.domain,
            account.name(),
            self.address
        );
        if let Some(statement) = &self.statement {
            text += statement;
            text += "\n";
        }
        text += &format!(
            "\nURI: {}\nVersion: {}\nChain ID: {}\nNonce: {}\nIssued At: {}",
            self.uri, self.version, network.reference, self.nonce, self.issued_at
        );
        let optional = [
            ("Expiration Time", &self.expiration_time),
            ("Not Before", &self.not_before),
            ("Request ID", &self.request_id),
        ];
        for (label, value) in optional {
            if let Some(value) = value {
                text += &format!("\n{label}: {value}");
            }
        }
        if let Some(resources) = &self.resources {
            text += "\nResources:";
            for resource in resources {
                text += "\n- ";
                text += resource;
            }
        }
        Ok(text)
    }

    /// Parses message text, strictly: the exact EIP-4361 line structure (LF
    /// line ends, no trailing newline) and every field rule of [`Self::build`].
    pub fn parse(text: &str) -> Result<Self> {
        let mut lines = text.split('\n');
        let mut next = |what: &str| {
            lines
                .next()
                .ok_or_else(|| invalid(format!("the message ends before {what}")))
        };

        let header = next("the header")?;
        let (origin, name) = header
            .strip_suffix(HEADER_END)
            .and_then(|rest| rest.split_once(HEADER_MIDDLE))
            .ok_or_else(|| {
                invalid("the first line must be `<domain> wants you to sign in with your <chain> account:`")
            })?;
        let account = Account::from_name(name).ok_or_else(|| {
            invalid(format!(
                "no sign-in format for {name:?} accounts; expected Ethereum or Solana"
            ))
        })?;
        let (scheme, domain) = match origin.split_once("://") {
            Some((scheme, domain)) => (Some(scheme), domain),
            None => (None, origin),
        };
        let address = next("the address")?;
        expect_blank(next("the statement")?)?;
        let statement = match next("the statement")? {
            "" => None,
            statement => {
                expect_blank(next("the URI")?)?;
                Some(statement)
            }
        };
        let uri = field(next("the URI")?, "URI")?;
        let version = field(next("the version")?, "Version")?;
        let reference = field(next("the chain id")?, "Chain ID")?;
        let nonce = field(next("the nonce")?, "Nonce")?;
        let issued_at = field(next("the issue time")?, "Issued At")?;

        // The optional lines, each at most once and in this order.
        let mut line = lines.next();
        let mut optional = |label: &str| {
            let value = line.and_then(|l| l.strip_prefix(label)?.strip_prefix(": "));
            if value.is_some() {
                line = lines.next();
            }
            value.map(str::to_owned)
        };
        let expiration_time = optional("Expiration Time");
        let not_before = optional("Not Before");
        let request_id = optional("Request ID");
        let resources = match line {
            Some("Resources:") => Some(
                lines
                    .by_ref()
                    .map(|item| {
                        item.strip_prefix("- ")
                            .map(str::to_owned)
                            .ok_or_else(|| invalid(format!("expected `- <uri>` in Resources, found {item:?}")))
                    })
                    .collect::<Result<Vec<_>>>()?,
            ),
            Some(other) => return Err(invalid(format!("unexpected line {other:?}"))),
            None => None,
        };

        account.check_reference(reference)?;
        let chain_id = C::from_network(CaipNetworkId {
            namespace: account.namespace().into(),
            reference: reference.into(),
        })?;
        let message = Self {
            scheme: scheme.map(str::to_owned),
            domain: domain.into(),
            address: address.into(),
            statement: statement.map(str::to_owned),
            uri: uri.into(),
            version: version.into(),
            chain_id,
            nonce: nonce.into(),
            issued_at: issued_at.into(),
            expiration_time,
            not_before,
            request_id,
            resources,
        };
        message.validate()?;
        Ok(message)
    }

    /// Checks every field, returning the account kind and network they imply.
    fn validate(&self) -> Result<(Account, CaipNetworkId)> {
        let network = self.chain_id.to_network()?;
        let account = Account::from_namespace(&network.namespace)
            .ok_or_else(|| invalid(format!("no sign-in format for namespace {:?}", network.namespace)))?;
        account.check_reference(&network.reference)?;
        if self.scheme.as_deref().is_some_and(|scheme| !is_scheme(scheme)) {
            return Err(invalid("scheme must be an RFC 3986 scheme"));
        }
        if !is_authority(&self.domain) {
            return Err(invalid("domain must be an RFC 3986 authority (host and optional port)"));
        }
        account.check_address(&self.address)?;
        if self.statement.as_deref().is_some_and(|s| !is_statement(s)) {
            return Err(invalid(
                "statement must be one non-empty line of letters, digits, spaces and RFC 3986 reserved or unreserved characters",
            ));
        }
        if !is_uri(&self.uri) {
            return Err(invalid("URI must be an RFC 3986 URI"));
        }
        if self.version != "1" {
            return Err(invalid("Version must be 1"));
        }
        if self.nonce.len() < 8 || !self.nonce.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(invalid("Nonce must be at least 8 letters or digits"));
        }
        let times = [
            ("Issued At", Some(&self.issued_at)),
            ("Expiration Time", self.expiration_time.as_ref()),
            ("Not Before", self.not_before.as_ref()),
        ];
        for (label, time) in times {
            if time.is_some_and(|time| rfc3339::unix_ms(time).is_none()) {
                return Err(invalid(format!("{label} must be an RFC 3339 date-time")));
            }
        }
        // EIP-4361 `request-id = *pchar`.
        if self.request_id.as_deref().is_some_and(|id| !is_encoded(id, b":@")) {
            return Err(invalid("Request ID may only hold RFC 3986 path characters"));
        }
        if self.resources.iter().flatten().any(|resource| !is_uri(resource)) {
            return Err(invalid("each resource must be an RFC 3986 URI"));
        }
        Ok((account, network))
    }
}

impl<C> SignInMessage<C> {
    /// Whether the message counts at `now_ms` (Unix milliseconds): from
    /// `notBefore` (inclusive) until `expirationTime` (exclusive), as EIP-4361
    /// libraries read them. `issuedAt` is not compared with the clock: a
    /// message made a little in the future by a skewed clock still counts.
    ///
    /// Behaviour 4.8 lists "Session Expired (token not yet valid; check the clock and
    /// reconnect)". The two cases get distinct errors so a client can say which:
    /// an expired message is `Session Expired` (the documented alert title, which
    /// clients match on), one not yet valid is `Session not yet valid: check
    /// the clock and reconnect`.
    pub fn check_times(&self, now_ms: i64) -> Result<()> {
        let unix_ms = |label: &str, time: &str| {
            rfc3339::unix_ms(time).ok_or_else(|| invalid(format!("{label} must be an RFC 3339 date-time")))
        };
        if let Some(expiration_time) = &self.expiration_time {
            if now_ms >= unix_ms("Expiration Time", expiration_time)? {
                return Err(Error::SignInExpired {
                    expiration_time: expiration_time.clone(),
                });
            }
        }
        if let Some(not_before) = &self.not_before {
            if now_ms < unix_ms("Not Before", not_before)? {
                return Err(Error::SignInNotYetValid {
                    not_before: not_before.clone(),
                });
            }
        }
        Ok(())
    }
}

impl<C> SignInMessage<C> {
    /// Whether `Issued At` is within `window_ms` of `now_ms` (Unix
    /// milliseconds), either side: a signature made long ago (or "in the
    /// future" by a forged or badly skewed clock) is not turned into a session.
    /// [`Self::check_times`] deliberately ignores `Issued At`; a verifier that
    /// bounds the age of signatures calls this too.
    pub fn check_issued_at(&self, now_ms: i64, window_ms: i64) -> Result<()> {
        let issued_at =
            rfc3339::unix_ms(&self.issued_at).ok_or_else(|| invalid("Issued At must be an RFC 3339 date-time"))?;
        if issued_at.abs_diff(now_ms) > window_ms.unsigned_abs() {
            return Err(Error::SignInIssuedAtOutOfWindow {
                issued_at: self.issued_at.clone(),
                window_ms,
            });
        }
        Ok(())
    }

    /// Whether the message's `URI` is on the origin its header names: the
    /// URI's authority is the message's `domain` (hosts compared without case),
    /// and its scheme is the header's scheme when the header names one. A
    /// signature a wallet gave another site (whose URI is that site) is
    /// refused even when its domain line was forged to match.
    pub fn check_uri_origin(&self) -> Result<()> {
        let mismatch = || Error::SignInUriMismatch {
            uri: self.uri.clone(),
            domain: self.domain.clone(),
        };
        let (scheme, rest) = self.uri.split_once("://").ok_or_else(mismatch)?;
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let scheme_ok = self
            .scheme
            .as_deref()
            .is_none_or(|expected| expected.eq_ignore_ascii_case(scheme));
        if scheme_ok && authority.eq_ignore_ascii_case(&self.domain) {
            Ok(())
        } else {
            Err(mismatch())
        }
    }
}

/// The schemes a sign-in domain is tried under against a project's origin patterns.
const DOMAIN_SCHEMES: [&str; 2] = ["https", "http"];

/// Whether a nonce may be issued for `domain` (an RFC 3986 authority) under a
/// project's allowed origin `patterns` (see [`crate::origin`]): some pattern
/// allows `https://{domain}` or `http://{domain}`. No patterns allow nothing,
/// as a browser `Origin` is refused for such a project.
pub fn domain_allowed<S: AsRef<str>>(patterns: &[S], domain: &str) -> bool {
    DOMAIN_SCHEMES
        .iter()
        .any(|scheme| crate::origin::origin_allowed(patterns, &format!("{scheme}://{domain}")))
}

/// The text an account signs to end one of its sign-in sessions, so that
/// revoking is as strongly authenticated as signing in: the modal builds it,
/// the server checks the signature over it.
pub fn revoke_message(domain: &str, session_id: &str) -> String {
    format!(
        "{domain} asks you to end sign-in session {session_id}.\n\nSigning this ends that session; it costs nothing."
    )
}

fn expect_blank(line: &str) -> Result<()> {
    if line.is_empty() {
        Ok(())
    } else {
        Err(invalid(format!("expected a blank line, found {line:?}")))
    }
}

/// The value of a `{label}: {value}` line.
fn field<'t>(line: &'t str, label: &str) -> Result<&'t str> {
    line.strip_prefix(label)
        .and_then(|rest| rest.strip_prefix(": "))
        .ok_or_else(|| invalid(format!("expected `{label}: …`, found {line:?}")))
}

// RFC 3986 character classes.

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

fn is_gen_delim(b: u8) -> bool {
    matches!(b, b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@')
}

/// `*( unreserved / pct-encoded / sub-delims / also )`.
fn is_encoded(text: &str, also: &[u8]) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            if !bytes
                .get(i + 1..i + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
            {
                return false;
            }
            i += 3;
        } else if is_unreserved(b) || is_sub_delim(b) || also.contains(&b) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn is_scheme(text: &str) -> bool {
    text.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// `authority = [ userinfo "@" ] host [ ":" port ]` with a non-empty host: a
/// registered name or IPv4 address, or an IPv6 literal in brackets.
fn is_authority(text: &str) -> bool {
    let (userinfo, host_port) = match text.split_once('@') {
        Some((userinfo, rest)) => (Some(userinfo), rest),
        None => (None, text),
    };
    if userinfo.is_some_and(|userinfo| !is_encoded(userinfo, b":")) {
        return false;
    }
    let (host_ok, port) = match host_port.strip_prefix('[') {
        Some(literal) => {
            let Some((address, rest)) = literal.split_once(']') else {
                return false;
            };
            let address_ok =
                !address.is_empty() && address.bytes().all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
            match rest {
                "" => (address_ok, None),
                _ => match rest.strip_prefix(':') {
                    Some(port) => (address_ok, Some(port)),
                    None => return false,
                },
            }
        }
        None => match host_port.split_once(':') {
            Some((host, port)) => (!host.is_empty() && is_encoded(host, b""), Some(port)),
            None => (!host_port.is_empty() && is_encoded(host_port, b""), None),
        },
    };
    host_ok && port.is_none_or(|port| (1..=5).contains(&port.len()) && port.bytes().all(|b| b.is_ascii_digit()))
}

/// `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]`. The authority,
/// when present, may be empty (`file:///…`).
fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let (rest, fragment) = match rest.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (rest, None),
    };
    let (hier_part, query) = match rest.split_once('?') {
        Some((hier_part, query)) => (hier_part, Some(query)),
        None => (rest, None),
    };
    let path = match hier_part.strip_prefix("//") {
        Some(after) => {
            let (authority, path) = after.split_at(after.find('/').unwrap_or(after.len()));
            if !authority.is_empty() && !is_authority(authority) {
                return false;
            }
            path
        }
        None => hier_part,
    };
    is_scheme(scheme)
        && is_encoded(path, b":@/")
        && [query, fragment]
            .into_iter()
            .flatten()
            .all(|part| is_encoded(part, b":@/?"))
}

/// EIP-4361 `statement = *( reserved / unreserved / " " )`, non-empty.
fn is_statement(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| is_unreserved(b) || is_sub_delim(b) || is_gen_delim(b) || b == b' ')
}

#[cfg(test)]
mod tests;
