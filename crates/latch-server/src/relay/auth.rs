//! Who a relay client is: the token rules are `latch_core::relay_auth` (the
//! dapp client signs with the same code); what only the relay decides, whether
//! a token's audience names this relay, is here. The audience comes from
//! configuration only, never from the request (`Host` is the client's to forge).

use std::net::IpAddr;
use std::sync::RwLock;

pub use latch_core::relay_auth::*;

/// Hosts a relay answers to when no public URL is configured: this machine only.
const LOOPBACK_HOSTS: [&str; 3] = ["127.0.0.1", "localhost", "[::1]"];

/// The JWT audiences that name this relay.
#[derive(Debug)]
pub struct Audiences {
    /// Configured public URLs, without a trailing `/`; when any, the only ones accepted.
    urls: Vec<String>,
    /// Otherwise: hosts accepted in a `ws(s)://host:port…` audience…
    hosts: Vec<String>,
    /// …on these ports (the configured one and those actually served).
    ports: RwLock<Vec<u16>>,
}

fn trim(url: &str) -> &str {
    url.trim_end_matches('/')
}

impl Audiences {
    /// `configured` URLs, else the loopback hosts (and `host` when it names
    /// one address) on `port`.
    pub fn new(configured: &[String], host: IpAddr, port: u16) -> Self {
        let mut hosts: Vec<String> = LOOPBACK_HOSTS.map(String::from).to_vec();
        if !host.is_unspecified() {
            hosts.push(match host {
                IpAddr::V4(v4) => v4.to_string(),
                IpAddr::V6(v6) => format!("[{v6}]"),
            });
        }
        Self {
            urls: configured.iter().map(|u| trim(u).to_owned()).collect(),
            hosts,
            ports: RwLock::new(vec![port]),
        }
    }

    /// Adds a port actually served (`port = 0` binds a free one).
    pub fn serving_on(&self, port: u16) {
        let mut ports = self.ports.write().unwrap_or_else(|e| e.into_inner());
        if !ports.contains(&port) {
            ports.push(port);
        }
    }

    /// Whether `aud` names this relay.
    pub fn accepts(&self, aud: &str) -> bool {
        if !self.urls.is_empty() {
            return self.urls.iter().any(|u| u == trim(aud));
        }
        let Some((scheme, rest)) = aud.split_once("://") else {
            return false;
        };
        if !matches!(scheme, "ws" | "wss") {
            return false;
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let Some((host, port)) = authority.rsplit_once(':') else {
            return false;
        };
        let Ok(port) = port.parse::<u16>() else {
            return false;
        };
        let ports = self.ports.read().unwrap_or_else(|e| e.into_inner());
        ports.contains(&port) && self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configured_urls_are_the_only_audiences() {
        let audiences = Audiences::new(&["wss://relay.example/relay/".to_owned()], [0, 0, 0, 0].into(), 8787);
        assert!(audiences.accepts("wss://relay.example/relay"));
        assert!(audiences.accepts("wss://relay.example/relay/"));
        assert!(!audiences.accepts("wss://other.example/relay"));
        assert!(
            !audiences.accepts("ws://127.0.0.1:8787/relay"),
            "no loopback fallback once configured"
        );
    }

    #[test]
    fn unconfigured_accepts_loopback_on_the_served_ports() {
        let audiences = Audiences::new(&[], [0, 0, 0, 0].into(), 8787);
        assert!(audiences.accepts("ws://127.0.0.1:8787/relay"));
        assert!(audiences.accepts("ws://LOCALHOST:8787"));
        assert!(audiences.accepts("wss://[::1]:8787/relay"));
        assert!(!audiences.accepts("ws://127.0.0.1:9999/relay"));
        assert!(
            !audiences.accepts("ws://evil.example:8787/relay"),
            "a forged Host names nothing here"
        );
        assert!(!audiences.accepts("ws://user@127.0.0.1:8787/relay"));
        assert!(!audiences.accepts("ftp://127.0.0.1:8787"));
        assert!(!audiences.accepts("ws://127.0.0.1/relay"));
        assert!(!audiences.accepts("ws://127.0.0.1:99999999999/relay"));
        assert!(!audiences.accepts(""));
        audiences.serving_on(40000);
        assert!(audiences.accepts("ws://127.0.0.1:40000/relay"));
        let specific = Audiences::new(&[], [10, 0, 0, 7].into(), 8787);
        assert!(specific.accepts("ws://10.0.0.7:8787/relay"));
        assert!(!specific.accepts("ws://10.0.0.8:8787/relay"));
    }
}
