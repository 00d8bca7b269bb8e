//! Outbound HTTP: which addresses a fetch chosen by someone else (an NFT's
//! token URI) may reach, the clients that enforce it on every resolution and
//! every redirect hop, and how upstream URLs (which carry API keys) are shown
//! in logs and errors.
//!
//! The address rule is one pure function, [`is_public`]; the resolver
//! ([`CheckedResolver`]) applies it to every address a name resolves to, and the
//! redirect policy applies it to every hop whose host is a literal address
//! (literals skip the resolver). No client here reads the environment's proxy
//! settings: a proxy would connect on our behalf to addresses we never checked.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::redirect;
use reqwest::Url;

/// Redirect hops a guarded fetch follows.
pub const MAX_REDIRECTS: usize = 3;

/// Whether `ip` is an address a public service may reach: not loopback,
/// private, shared, link-local, documentation, benchmarking, multicast,
/// reserved, nor a translation prefix (IPv4-mapped, NAT64, 6to4) whose
/// embedded IPv4 address is one of those.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

/// `addr` is inside `network/prefix`.
fn in_v4(addr: Ipv4Addr, network: [u8; 4], prefix: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
    u32::from(addr) & mask == u32::from(Ipv4Addr::from(network)) & mask
}

/// The IPv4 special-purpose ranges (RFC 6890 and its updates) that are not globally reachable.
const NON_PUBLIC_V4: [([u8; 4], u32); 15] = [
    ([0, 0, 0, 0], 8),       // "this network"
    ([10, 0, 0, 0], 8),      // private
    ([100, 64, 0, 0], 10),   // carrier-grade NAT (shared)
    ([127, 0, 0, 0], 8),     // loopback
    ([169, 254, 0, 0], 16),  // link-local (cloud metadata services live here)
    ([172, 16, 0, 0], 12),   // private
    ([192, 0, 0, 0], 24),    // IETF protocol assignments
    ([192, 0, 2, 0], 24),    // TEST-NET-1
    ([192, 88, 99, 0], 24),  // 6to4 relay anycast
    ([192, 168, 0, 0], 16),  // private
    ([198, 18, 0, 0], 15),   // benchmarking
    ([198, 51, 100, 0], 24), // TEST-NET-2
    ([203, 0, 113, 0], 24),  // TEST-NET-3
    ([224, 0, 0, 0], 4),     // multicast
    ([240, 0, 0, 0], 4),     // reserved, 255.255.255.255 (broadcast) included
];

fn is_public_v4(v4: Ipv4Addr) -> bool {
    !NON_PUBLIC_V4
        .iter()
        .any(|(network, prefix)| in_v4(v4, *network, *prefix))
}

/// `addr` is inside `network/prefix`.
fn in_v6(addr: Ipv6Addr, network: [u16; 8], prefix: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
    u128::from(addr) & mask == u128::from(Ipv6Addr::from(network)) & mask
}

/// IPv6 ranges that are never globally reachable, whatever they embed.
const NON_PUBLIC_V6: [([u16; 8], u32); 9] = [
    ([0, 0, 0, 0, 0, 0, 0, 0], 96), // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d
    ([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48), // NAT64 local-use prefix (RFC 8215): a private translator
    ([0x100, 0, 0, 0, 0, 0, 0, 0], 64), // discard-only
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23), // IETF protocol assignments (Teredo, ORCHID, …)
    ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32), // documentation
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7), // unique local
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10), // link-local
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10), // deprecated site-local
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8), // multicast
];

fn is_public_v6(v6: Ipv6Addr) -> bool {
    if NON_PUBLIC_V6
        .iter()
        .any(|(network, prefix)| in_v6(v6, *network, *prefix))
    {
        return false;
    }
    let bits = u128::from(v6);
    // Prefixes that carry an IPv4 address: the IPv4 rule decides.
    let low32 = Ipv4Addr::from((bits & 0xffff_ffff) as u32);
    if in_v6(v6, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96) || in_v6(v6, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96) {
        return is_public_v4(low32);
    }
    if in_v6(v6, [0x2002, 0, 0, 0, 0, 0, 0, 0], 16) {
        // 6to4: 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD.
        return is_public_v4(Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32));
    }
    true
}

/// Which addresses a guarded fetch may reach: [`is_public`] in the server.
pub type AddressRule = fn(IpAddr) -> bool;

/// Resolves a name once and hands reqwest only the checked addresses, so the
/// connection goes to an address that was classified (no second lookup an
/// attacker's DNS could answer differently). A name with any refused address
/// is refused whole: a public answer next to a private one is a rebinding
/// attempt, not a configuration to work around.
pub struct CheckedResolver(pub AddressRule);

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allowed = self.0;
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            if found.is_empty() || found.iter().any(|a| !allowed(a.ip())) {
                return Err(format!("{} resolves to a non-public address", name.as_str()).into());
            }
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}

/// Whether a fetch may go to `url` under `allowed`: http(s), and, when its
/// host is a literal address (which no resolver sees), an allowed one. Names
/// are left to [`CheckedResolver`].
pub fn may_fetch_with(url: &Url, allowed: AddressRule) -> bool {
    if !matches!(url.scheme(), "http" | "https") {
        return false;
    }
    match url.host() {
        Some(url::Host::Ipv4(v4)) => allowed(IpAddr::V4(v4)),
        Some(url::Host::Ipv6(v6)) => allowed(IpAddr::V6(v6)),
        Some(url::Host::Domain(_)) => true,
        None => false,
    }
}

/// [`may_fetch_with`] the server's rule, [`is_public`].
pub fn may_fetch(url: &Url) -> bool {
    may_fetch_with(url, is_public)
}

/// A client for fetches whose URLs others choose: every resolution and every
/// redirect hop is checked by [`is_public`] unless `private_hosts` (`--dev`);
/// never through an environment proxy; `timeout` per request.
pub fn guarded_client(private_hosts: bool, timeout: Duration) -> reqwest::Client {
    if private_hosts {
        let builder = reqwest::Client::builder()
            .timeout(timeout)
            .redirect(redirect::Policy::limited(MAX_REDIRECTS))
            .no_proxy();
        // Building fails only when the TLS backend cannot load; the default client has the same backend.
        return builder.build().unwrap_or_default();
    }
    guarded_client_with(is_public, timeout)
}

/// [`guarded_client`] under the address rule `allowed` (tests widen it by one
/// loopback address to stand for a public host that redirects inside).
pub fn guarded_client_with(allowed: AddressRule, timeout: Duration) -> reqwest::Client {
    let policy = redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error("too many redirects")
        } else if !may_fetch_with(attempt.url(), allowed) {
            attempt.error("redirect to a non-public address")
        } else {
            attempt.follow()
        }
    });
    reqwest::Client::builder()
        .timeout(timeout)
        .redirect(policy)
        .no_proxy()
        .dns_resolver(Arc::new(CheckedResolver(allowed)))
        .build()
        .unwrap_or_default()
}

/// A client for hosts the operator configured (swap aggregators, on-ramp provider APIs): their
/// keys travel in headers and queries, so never through an environment proxy, which would see
/// them; `timeout` per request, and at most 3 s of it to connect.
pub fn configured_client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(3)))
        .no_proxy()
        .build()
        // Building fails only when the TLS backend cannot load; the default client has the same backend.
        .unwrap_or_default()
}

/// The body of `response`, at most `max` bytes; `None` past that or on a read error. Outside
/// answers are read this way so a server that keeps sending cannot fill memory before a timeout.
pub async fn read_at_most(mut response: reqwest::Response, max: usize) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.ok()? {
        body.extend_from_slice(&chunk);
        if body.len() > max {
            return None;
        }
    }
    Some(body)
}

/// `scheme://host[:port]` of `url`, for logs and errors: upstream URLs carry
/// API keys in their path, query or user info, which must never be printed.
pub fn redact_url(url: &str) -> String {
    match Url::parse(url) {
        Ok(parsed) => {
            let host = parsed.host_str().unwrap_or("");
            match parsed.port() {
                Some(port) => format!("{}://{host}:{port}", parsed.scheme()),
                None => format!("{}://{host}", parsed.scheme()),
            }
        }
        Err(_) => "<unparsable URL>".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One address of each non-public range the issue names, and a few
    /// neighbours just outside them that are public.
    #[test]
    fn classifier_table() {
        for private in [
            "0.0.0.0",
            "0.255.255.255",
            "10.0.0.1",
            "10.255.255.255",
            "100.64.0.1",
            "100.127.255.255",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.255",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::127.0.0.1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::127.0.0.1",
            "64:ff9b::10.1.2.3",
            "64:ff9b:1::1",
            "64:ff9b:1:ffff::8.8.8.8",
            "100::1",
            "2001::1",
            "2001:1ff::1",
            "2001:db8::1",
            "2002:7f00:1::1",
            "2002:c0a8:101::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "ff02::1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private} must not be public");
        }
        for public in [
            "1.1.1.1",
            "8.8.8.8",
            "9.255.255.255",
            "11.0.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "172.15.255.255",
            "172.32.0.1",
            "192.0.1.1",
            "192.88.98.1",
            "198.17.255.255",
            "198.20.0.1",
            "223.255.255.255",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::8.8.8.8",
            "2002:808:808::1",
            "2001:200::1",
            "2a00:1450::1",
        ] {
            assert!(is_public(public.parse().unwrap()), "{public} must be public");
        }
    }

    #[test]
    fn fetchable_urls() {
        let may = |u: &str| may_fetch(&Url::parse(u).unwrap());
        assert!(may("https://nft.example/1.json"));
        assert!(may("http://8.8.8.8/x"));
        assert!(!may("http://127.0.0.1:8080/x"));
        assert!(!may("http://[::1]/x"));
        assert!(!may("http://[::ffff:7f00:1]/x"));
        assert!(!may("http://169.254.169.254/latest/meta-data"));
        assert!(!may("ftp://8.8.8.8/x"));
        assert!(!may("file:///etc/passwd"));
    }

    #[test]
    fn redacts_to_scheme_host_port() {
        assert_eq!(
            redact_url("https://eth.example/v2/SECRETKEY?apikey=SECRET"),
            "https://eth.example"
        );
        assert_eq!(redact_url("http://127.0.0.1:1/v2/SECRETKEY"), "http://127.0.0.1:1");
        assert_eq!(
            redact_url("wss://user:SECRET@ws.example:8546/k"),
            "wss://ws.example:8546"
        );
        assert_eq!(redact_url("not a url SECRET"), "<unparsable URL>");
    }

    proptest! {
        /// An IPv4 address and its IPv4-mapped and NAT64 forms are classified alike.
        #[test]
        fn embedded_v4_decides(bits in any::<u32>()) {
            let v4 = Ipv4Addr::from(bits);
            let public = is_public(IpAddr::V4(v4));
            prop_assert_eq!(is_public(IpAddr::V6(v4.to_ipv6_mapped())), public);
            let nat64 = Ipv6Addr::from((0x0064_ff9b_u128 << 96) | u128::from(bits));
            prop_assert_eq!(is_public(IpAddr::V6(nat64)), public);
            let sixto4 = Ipv6Addr::from((0x2002_u128 << 112) | (u128::from(bits) << 80) | 1);
            prop_assert_eq!(is_public(IpAddr::V6(sixto4)), public);
        }

        /// Every address of each listed IPv4 range is refused.
        #[test]
        fn whole_v4_ranges_refused(index in 0..NON_PUBLIC_V4.len(), host in any::<u32>()) {
            let (network, prefix) = NON_PUBLIC_V4[index];
            let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
            let addr = Ipv4Addr::from((u32::from(Ipv4Addr::from(network)) & mask) | (host & !mask));
            prop_assert!(!is_public(IpAddr::V4(addr)), "{}", addr);
        }

        /// Every address of each listed IPv6 range is refused.
        #[test]
        fn whole_v6_ranges_refused(index in 0..NON_PUBLIC_V6.len(), host in any::<u128>()) {
            let (network, prefix) = NON_PUBLIC_V6[index];
            let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
            let addr = Ipv6Addr::from((u128::from(Ipv6Addr::from(network)) & mask) | (host & !mask));
            prop_assert!(!is_public(IpAddr::V6(addr)), "{}", addr);
        }

        /// Redaction keeps nothing past the authority.
        #[test]
        fn redaction_drops_path_and_query(path in "[a-zA-Z0-9]{1,20}", key in "[a-zA-Z0-9]{8,20}") {
            let url = format!("https://rpc.example/{path}/{key}?key={key}");
            prop_assert_eq!(redact_url(&url), "https://rpc.example");
        }
    }
}
