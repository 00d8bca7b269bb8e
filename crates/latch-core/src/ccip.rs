//! The CCIP-Read gateway's rules (EIP-3668, in the ENS offchain-resolver scheme): what an
//! offchain resolver asks (`resolve(bytes name, bytes data)` with a DNS-encoded name and one
//! resolver call inside), what a name's records answer, and the signed response the resolver's
//! callback verifies.
//!
//! The resolver's callback (`devnet/contracts/OffchainResolver.sol`) takes
//! `abi.encode(bytes result, uint64 expires, bytes sig)` and recovers the signer of
//! `keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(callData) ‖ keccak256(result))`, the
//! EIP-191 version-0 ("data with intended validator") form. Pure: the clock (`expires`) and the
//! signing key are passed in; k256 signs deterministically (RFC 6979).

use std::collections::BTreeMap;

use alloy_primitives::{keccak256, Address, Bytes, Signature, B256, U256};
use alloy_sol_types::{SolCall, SolValue};
use k256::ecdsa::SigningKey;

use crate::ens::namehash;
use crate::validate::{coin_type_to_evm_chain_id, ETHEREUM_COIN_TYPE};
use crate::{Error, Result};

// Private: the module's functions are the interface, not the generated call types.
#[allow(unreachable_pub)]
mod sol {
    alloy_sol_types::sol! {
        function resolve(bytes name, bytes data) returns (bytes);
        function addr(bytes32 node) returns (address);
        function addr(bytes32 node, uint256 coinType) returns (bytes);
        function text(bytes32 node, string key) returns (string);
    }
}

/// `resolve(bytes,bytes)` of the gateway's interface (`IResolverService`).
pub const RESOLVE_SELECTOR: [u8; 4] = sol::resolveCall::SELECTOR;
/// `addr(bytes32)`: the Ethereum address (coin type 60).
pub const ADDR_SELECTOR: [u8; 4] = sol::addr_0Call::SELECTOR;
/// `addr(bytes32,uint256)`: the address of an ENSIP-9/11 coin type, as bytes.
pub const ADDR_COIN_SELECTOR: [u8; 4] = sol::addr_1Call::SELECTOR;
/// `text(bytes32,string)`: a text record (`avatar`, …).
pub const TEXT_SELECTOR: [u8; 4] = sol::textCall::SELECTOR;
/// Longest DNS-encoded name (RFC 1035: 255 octets).
pub const MAX_DNS_NAME: usize = 255;

/// The resolver call inside a `resolve(name, data)` request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolverQuery {
    /// `addr(node)`.
    Addr,
    /// `addr(node, coinType)`.
    AddrCoin(U256),
    /// `text(node, key)`.
    Text(String),
}

/// A parsed gateway request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolveRequest {
    /// The queried name, as DNS carried it (lower-cased ASCII; other bytes refused).
    pub name: String,
    /// What is asked of it.
    pub query: ResolverQuery,
}

/// A name's records as the gateway answers them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameRecords {
    /// Addresses by ENSIP-9/11 coin type.
    pub addresses: BTreeMap<u64, Address>,
    /// Text records (`avatar`, `bio`).
    pub texts: BTreeMap<String, String>,
}

fn bad(reason: impl Into<String>) -> Error {
    Error::InvalidInput {
        what: "CCIP-Read request",
        reason: reason.into(),
    }
}

/// Reads a DNS wire-format name (RFC 1035 §3.1: length-prefixed labels, a zero octet last) as
/// dotted text. Labels must be 1–63 printable ASCII octets other than `.`; the root alone is `""`.
pub fn decode_dns_name(bytes: &[u8]) -> Result<String> {
    if bytes.len() > MAX_DNS_NAME {
        return Err(bad("the name is longer than 255 octets"));
    }
    let mut labels = Vec::new();
    let mut at = 0;
    loop {
        let len = *bytes
            .get(at)
            .ok_or_else(|| bad("the name has no terminating zero octet"))? as usize;
        at += 1;
        if len == 0 {
            break;
        }
        if len > 63 {
            return Err(bad("a label is longer than 63 octets"));
        }
        let label = bytes
            .get(at..at + len)
            .ok_or_else(|| bad("a label runs past the name"))?;
        if !label.iter().all(|b| b.is_ascii_graphic() && *b != b'.') {
            return Err(bad("a label holds a byte other than printable ASCII"));
        }
        labels.push(String::from_utf8_lossy(label).to_ascii_lowercase());
        at += len;
    }
    if at != bytes.len() {
        return Err(bad("bytes follow the name's terminating zero octet"));
    }
    Ok(labels.join("."))
}

/// The DNS wire format of a dotted name (the inverse of [`decode_dns_name`]).
pub fn encode_dns_name(name: &str) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len() + 2);
    if !name.is_empty() {
        for label in name.split('.') {
            if label.is_empty() || label.len() > 63 {
                return Err(bad("a label is empty or longer than 63 octets"));
            }
            out.push(label.len() as u8);
            out.extend_from_slice(label.as_bytes());
        }
    }
    out.push(0);
    if out.len() > MAX_DNS_NAME {
        return Err(bad("the name is longer than 255 octets"));
    }
    Ok(out)
}

/// One 32-byte ABI word at `word` (counted in words) of `data`.
fn word(data: &[u8], word: usize) -> Result<&[u8]> {
    let start = word.checked_mul(32).ok_or_else(|| bad("an offset overflows"))?;
    let end = start.checked_add(32).ok_or_else(|| bad("an offset overflows"))?;
    data.get(start..end)
        .ok_or_else(|| bad("the call data is shorter than its head"))
}

/// A word that must hold a small number (an offset or a length).
fn small(data: &[u8], at: usize) -> Result<usize> {
    let w = word(data, at)?;
    if w[..24].iter().any(|b| *b != 0) {
        return Err(bad("an offset or length is out of range"));
    }
    // `try_from`, not `as`: on a 32-bit target (wasm) a cast would wrap a huge value to a small one.
    usize::try_from(u64::from_be_bytes(w[24..].try_into().expect("8 bytes")))
        .map_err(|_| bad("an offset or length is out of range"))
}

/// The dynamic `bytes`/`string` whose head word is `head` in the tuple `data`.
fn dynamic(data: &[u8], head: usize) -> Result<&[u8]> {
    let offset = small(data, head)?;
    if offset % 32 != 0 {
        return Err(bad("an offset is not word-aligned"));
    }
    let len = small(data, offset / 32)?;
    let start = offset.checked_add(32).ok_or_else(|| bad("an offset overflows"))?;
    let end = start.checked_add(len).ok_or_else(|| bad("a length overflows"))?;
    data.get(start..end)
        .ok_or_else(|| bad("a value runs past the call data"))
}

/// Reads the gateway's `data`: `resolve(bytes name, bytes data)` whose inner call is `addr`,
/// `addr` with a coin type or `text`, about the node of `name` itself.
pub fn parse_resolve_request(call_data: &[u8]) -> Result<ResolveRequest> {
    let args = call_data
        .strip_prefix(&RESOLVE_SELECTOR)
        .ok_or_else(|| bad("the call is not resolve(bytes,bytes)"))?;
    let name = decode_dns_name(dynamic(args, 0)?)?;
    let inner = dynamic(args, 1)?;
    let (selector, inner_args) = inner
        .split_at_checked(4)
        .ok_or_else(|| bad("the resolver call has no selector"))?;
    let node = word(inner_args, 0)?;
    if node != namehash(&name) {
        return Err(bad("the resolver call's node is not the name's namehash"));
    }
    let query = match <[u8; 4]>::try_from(selector).expect("4 bytes") {
        ADDR_SELECTOR => ResolverQuery::Addr,
        ADDR_COIN_SELECTOR => ResolverQuery::AddrCoin(U256::from_be_slice(word(inner_args, 1)?)),
        TEXT_SELECTOR => {
            let key = std::str::from_utf8(dynamic(inner_args, 1)?).map_err(|_| bad("the text key is not UTF-8"))?;
            ResolverQuery::Text(key.to_owned())
        }
        _ => return Err(bad("the resolver call is not addr or text")),
    };
    Ok(ResolveRequest { name, query })
}

/// The EVM address of a name for `coin_type`: its own record, else (ENSIP-19) any EVM record,
/// as an EVM account is the same on every EVM chain; Ethereum's 60 counts as EVM.
fn evm_address(records: &NameRecords, coin_type: u64) -> Option<Address> {
    // ENSIP-11's rule (`0x80000000 | chainId`, and `0x80000000` itself, ENSIP-19's default).
    let is_evm = |c: u64| u32::try_from(c).is_ok_and(|c| coin_type_to_evm_chain_id(c).is_ok());
    records.addresses.get(&coin_type).copied().or_else(|| {
        is_evm(coin_type)
            .then(|| records.addresses.iter().find(|(c, _)| is_evm(**c)).map(|(_, a)| *a))
            .flatten()
    })
}

/// The ABI-encoded return value of the query for a name with `records` (`None`: unknown
/// name): what the public resolver answers for a name without records — the zero address,
/// empty bytes, the empty string.
pub fn query_result(query: &ResolverQuery, records: Option<&NameRecords>) -> Vec<u8> {
    match query {
        ResolverQuery::Addr => {
            let address = records
                .and_then(|r| evm_address(r, u64::from(ETHEREUM_COIN_TYPE)))
                .unwrap_or(Address::ZERO);
            sol::addr_0Call::abi_encode_returns(&address)
        }
        ResolverQuery::AddrCoin(coin_type) => {
            let address = u64::try_from(*coin_type)
                .ok()
                .and_then(|c| records.and_then(|r| evm_address(r, c)));
            let bytes = address.map(|a| a.to_vec()).unwrap_or_default();
            sol::addr_1Call::abi_encode_returns(&bytes.into())
        }
        ResolverQuery::Text(key) => {
            let text = records.and_then(|r| r.texts.get(key)).cloned().unwrap_or_default();
            sol::textCall::abi_encode_returns(&text)
        }
    }
}

/// The digest the resolver's callback recovers the signer from.
pub fn signature_hash(resolver: Address, expires: u64, call_data: &[u8], result: &[u8]) -> B256 {
    let mut packed = Vec::with_capacity(2 + 20 + 8 + 64);
    packed.extend_from_slice(&[0x19, 0x00]);
    packed.extend_from_slice(resolver.as_slice());
    packed.extend_from_slice(&expires.to_be_bytes());
    packed.extend_from_slice(keccak256(call_data).as_slice());
    packed.extend_from_slice(keccak256(result).as_slice());
    keccak256(packed)
}

/// The gateway's answer: `abi.encode(result, expires, sig)`, `sig` the 65-byte `r ‖ s ‖ v`
/// signature of [`signature_hash`] by `key` (a secp256k1 secret key).
pub fn sign_response(
    key: &[u8; 32],
    resolver: Address,
    expires: u64,
    call_data: &[u8],
    result: &[u8],
) -> Result<Vec<u8>> {
    let key = SigningKey::from_bytes(key.into()).map_err(|_| bad("the signing key is not a secp256k1 secret key"))?;
    let digest = signature_hash(resolver, expires, call_data, result);
    let (signature, recovery) = key
        .sign_prehash_recoverable(digest.as_slice())
        .map_err(|_| bad("the digest could not be signed"))?;
    let signature: Signature = (signature, recovery).into();
    let sig = signature.as_bytes();
    Ok((Bytes::copy_from_slice(result), expires, Bytes::copy_from_slice(&sig)).abi_encode_params())
}

/// The address of a secp256k1 secret key (the signer the resolver contract trusts).
pub fn signer_address(key: &[u8; 32]) -> Result<Address> {
    let key = SigningKey::from_bytes(key.into()).map_err(|_| bad("the signing key is not a secp256k1 secret key"))?;
    Ok(Address::from_public_key(key.verifying_key()))
}

/// Reads a gateway answer back: (result, expires, signer). What the resolver contract does,
/// for tests and for checking a gateway from the outside.
pub fn verify_response(resolver: Address, call_data: &[u8], response: &[u8]) -> Result<(Vec<u8>, u64, Address)> {
    let result = dynamic(response, 0)?.to_vec();
    let expires_word = word(response, 1)?;
    if expires_word[..24].iter().any(|b| *b != 0) {
        return Err(bad("expires is not a uint64"));
    }
    let expires = u64::from_be_bytes(expires_word[24..].try_into().expect("8 bytes"));
    let sig = Signature::try_from(dynamic(response, 2)?).map_err(|_| bad("the signature is not 65 bytes"))?;
    let signer = sig
        .recover_address_from_prehash(&signature_hash(resolver, expires, call_data, &result))
        .map_err(|_| bad("no signer recovers from the signature"))?;
    Ok((result, expires, signer))
}

/// The `resolve(name, data)` call data for `name` and an inner resolver call (tests, devnet).
pub fn encode_resolve_request(name: &str, query: &ResolverQuery) -> Result<Vec<u8>> {
    let node = B256::from(namehash(name));
    let inner = match query {
        ResolverQuery::Addr => sol::addr_0Call { node }.abi_encode(),
        ResolverQuery::AddrCoin(coin) => sol::addr_1Call { node, coinType: *coin }.abi_encode(),
        ResolverQuery::Text(key) => sol::textCall { node, key: key.clone() }.abi_encode(),
    };
    let name = encode_dns_name(name)?;
    Ok(sol::resolveCall {
        name: name.into(),
        data: inner.into(),
    }
    .abi_encode())
}

#[cfg(test)]
mod tests;
