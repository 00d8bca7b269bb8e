//! Typed keys for client addresses: a bucket per IPv4 address or per IPv6
//! /64, and the CIDR ranges of trusted proxies.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Whom a per-IP bucket belongs to. An IPv6 host is handed a whole /64 (one
/// customer, one LAN), so its addresses share one bucket: otherwise a client
/// could rotate through 2^64 addresses for fresh budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IpKey {
    /// One IPv4 address.
    V4(Ipv4Addr),
    /// The first 64 bits of an IPv6 address.
    V6Prefix(u64),
}

impl IpKey {
    /// The key of `ip` (an IPv4-mapped IPv6 address counts as its IPv4 address).
    pub fn of(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => IpKey::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpKey::V4(v4),
                None => IpKey::V6Prefix((v6.to_bits() >> 64) as u64),
            },
        }
    }
}

impl fmt::Display for IpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IpKey::V4(v4) => write!(f, "{v4}"),
            IpKey::V6Prefix(prefix) => write!(f, "{}/64", Ipv6Addr::from_bits(u128::from(*prefix) << 64)),
        }
    }
}

/// An address range, `10.0.0.0/8` or `2001:db8::/32` (a bare address is its /32 or /128).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

/// Why a CIDR range was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CidrError {
    /// The address part is not an IP address.
    #[error("{0:?} is not an IP address or CIDR range (e.g. 10.0.0.0/8, 2001:db8::/32)")]
    Address(String),
    /// The prefix length is not a number within the address's bits.
    #[error("{0:?}: the prefix length must be 0-32 (IPv4) or 0-128 (IPv6)")]
    Prefix(String),
    /// Bits are set past the prefix, so the range is probably not what was meant.
    #[error("{0:?}: the address has bits set past the prefix length")]
    HostBits(String),
}

impl Cidr {
    /// Whether `ip` is in the range (an IPv4-mapped IPv6 address as its IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.network, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.prefix)).unwrap_or(0);
                ip.to_bits() & mask == net.to_bits()
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.prefix)).unwrap_or(0);
                ip.to_bits() & mask == net.to_bits()
            }
            _ => false,
        }
    }
}

impl FromStr for Cidr {
    type Err = CidrError;

    fn from_str(text: &str) -> Result<Self, CidrError> {
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let network: IpAddr = address.parse().map_err(|_| CidrError::Address(text.to_owned()))?;
        let bits: u8 = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            // Digits only: `u8::from_str` would also take a leading `+`.
            Some(p) if !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()) => {
                p.parse().map_err(|_| CidrError::Prefix(text.to_owned()))?
            }
            Some(_) => return Err(CidrError::Prefix(text.to_owned())),
        };
        if prefix > bits {
            return Err(CidrError::Prefix(text.to_owned()));
        }
        let cidr = Cidr { network, prefix };
        if !cidr.contains(network) {
            return Err(CidrError::HostBits(text.to_owned()));
        }
        Ok(cidr)
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

impl Serialize for Cidr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cidr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn cidr(text: &str) -> Cidr {
        text.parse().unwrap()
    }

    #[test]
    fn ranges() {
        assert!(cidr("10.0.0.0/8").contains("10.200.3.4".parse().unwrap()));
        assert!(!cidr("10.0.0.0/8").contains("11.0.0.1".parse().unwrap()));
        assert!(cidr("10.0.0.0/8").contains("::ffff:10.1.2.3".parse().unwrap()));
        assert!(cidr("127.0.0.1").contains("127.0.0.1".parse().unwrap()));
        assert!(!cidr("127.0.0.1").contains("127.0.0.2".parse().unwrap()));
        assert!(cidr("0.0.0.0/0").contains("8.8.8.8".parse().unwrap()));
        assert!(!cidr("0.0.0.0/0").contains("2001:db8::1".parse().unwrap()));
        assert!(cidr("2001:db8::/32").contains("2001:db8:ffff::1".parse().unwrap()));
        assert!(cidr("::/0").contains("::1".parse().unwrap()));
        assert_eq!(cidr("2001:db8::/32").to_string(), "2001:db8::/32");
        for bad in [
            "",
            "10.0.0.0/33",
            "10.0.0.1/8",
            "10.0.0.0/",
            "10.0.0.0/+8",
            "x/8",
            "::/129",
            "10.0.0.0/8/8",
        ] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ipv6_keys_are_per_64() {
        let key = |s: &str| IpKey::of(s.parse().unwrap());
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff:ffff:ffff:ffff"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:192.0.2.1"), key("192.0.2.1"));
        assert_eq!(key("2001:db8:1:2::1").to_string(), "2001:db8:1:2::/64");
        assert_eq!(key("192.0.2.1").to_string(), "192.0.2.1");
    }

    proptest! {
        #[test]
        fn parsing_never_panics_and_round_trips(text in "[0-9a-f:./+]{0,50}") {
            if let Ok(cidr) = text.parse::<Cidr>() {
                prop_assert_eq!(cidr.to_string().parse::<Cidr>(), Ok(cidr));
                prop_assert!(cidr.contains(cidr.network));
            }
        }

        #[test]
        fn v4_ranges_match_the_prefix(net in any::<u32>(), prefix in 0u8..=32, ip in any::<u32>()) {
            let mask = if prefix == 0 { 0 } else { u32::MAX << (32 - prefix) };
            let cidr: Cidr = format!("{}/{prefix}", Ipv4Addr::from_bits(net & mask)).parse().unwrap();
            prop_assert_eq!(cidr.contains(IpAddr::V4(Ipv4Addr::from_bits(ip))), ip & mask == net & mask);
        }
    }
}
