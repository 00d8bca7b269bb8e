//! `[onramp]` settings: which providers buy crypto for the modal, with their
//! keys (secrets print as `<redacted>`), and the built-in sandbox.

use serde::{Deserialize, Serialize};

use crate::config::{Secret, DEV_CHAIN};

/// Anvil's account #9 (the published test mnemonic): funded on the devnet and
/// used by no e2e test, so the `--dev` sandbox can pay from it (the `--dev` CCIP-Read
/// gateway signs with the same published key).
pub const DEV_SANDBOX_KEY: &str = crate::config::DEV_CCIP_SIGNING_KEY;

/// The on-ramp providers and their keys.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct OnrampConfig {
    /// Coinbase Onramp (a CDP secret API key, Ed25519).
    pub coinbase: Option<CoinbaseConfig>,
    /// MoonPay (publishable and secret key; URLs are signed).
    pub moonpay: Option<MoonPayConfig>,
    /// Transak (partner API key).
    pub transak: Option<TransakConfig>,
    /// The built-in test provider (on by default in `--dev`).
    pub sandbox: SandboxConfig,
    /// Seconds provider options are cached.
    pub options_ttl_secs: Option<u64>,
}

/// Coinbase Onramp.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CoinbaseConfig {
    /// The CDP API key's name (`organizations/…/apiKeys/…` or its id): the JWT's `kid` and `sub`.
    pub key_name: String,
    /// The key's Ed25519 secret, base64 (as the CDP portal shows it).
    pub key_secret: Secret,
    /// The Onramp session token API (the documented one unless overridden, e.g. by a test).
    #[serde(default = "coinbase_session_url")]
    pub session_url: String,
    /// Use Coinbase's sandbox checkout.
    #[serde(default)]
    pub sandbox: bool,
}

/// The documented Onramp session token endpoint.
pub fn coinbase_session_url() -> String {
    "https://api.developer.coinbase.com/onramp/v1/token".into()
}

/// MoonPay.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MoonPayConfig {
    /// Publishable key (`pk_…`).
    pub api_key: String,
    /// Secret key (`sk_…`), signs the widget URLs.
    pub secret_key: Secret,
    /// MoonPay's API (quotes), the documented one unless overridden.
    #[serde(default = "moonpay_api_url")]
    pub api_url: String,
    /// Use MoonPay's sandbox widget.
    #[serde(default)]
    pub sandbox: bool,
}

/// The documented MoonPay API base.
pub fn moonpay_api_url() -> String {
    "https://api.moonpay.com".into()
}

/// Transak.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TransakConfig {
    /// Partner API key (public: it travels in the widget URL).
    pub api_key: String,
    /// Use Transak's staging widget.
    #[serde(default)]
    pub sandbox: bool,
}

/// The built-in sandbox: a checkout page served by `latch` that pays test
/// funds from `private_key` on `chains`. Off unless enabled or `--dev`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct SandboxConfig {
    /// Unset: on in `--dev` only.
    pub enabled: Option<bool>,
    /// The paying account's key (0x…); `--dev` uses [`DEV_SANDBOX_KEY`].
    pub private_key: Option<Secret>,
    /// EVM gateway chains it delivers on (`--dev`: the devnet).
    pub chains: Vec<String>,
    /// Seconds a checkout session stays valid.
    pub session_ttl_secs: u64,
    /// Fee it charges, in basis points.
    pub fee_bps: u32,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self {
            enabled: None,
            private_key: None,
            chains: Vec::new(),
            session_ttl_secs: 600,
            fee_bps: 100,
        }
    }
}

impl OnrampConfig {
    /// Applies `--dev` defaults and checks the settings; the message says what is wrong.
    pub fn validate(&mut self, dev: bool, gateway_chains: &[String]) -> Result<(), String> {
        let sandbox = &mut self.sandbox;
        if sandbox.enabled.unwrap_or(dev) {
            sandbox.enabled = Some(true);
            if sandbox.private_key.is_none() && dev {
                sandbox.private_key = Some(Secret(DEV_SANDBOX_KEY.into()));
            }
            if sandbox.chains.is_empty() && dev {
                sandbox.chains.push(DEV_CHAIN.into());
            }
            let key = sandbox
                .private_key
                .as_ref()
                .ok_or("onramp.sandbox: enabled without a private_key")?;
            let digits = key.0.trim_start_matches("0x");
            if digits.len() != 64 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err("onramp.sandbox.private_key: expected 32 bytes of hex".into());
            }
            // Compared as digits: `0x` or upper case must not let the published key through.
            if !dev && digits.eq_ignore_ascii_case(DEV_SANDBOX_KEY.trim_start_matches("0x")) {
                return Err("onramp.sandbox.private_key is a published test key: choose another outside --dev".into());
            }
            for chain in &sandbox.chains {
                if !chain.starts_with("eip155:") || !gateway_chains.contains(chain) {
                    return Err(format!("onramp.sandbox.chains: {chain} is not an eip155 gateway chain"));
                }
            }
            if sandbox.session_ttl_secs == 0 || sandbox.fee_bps > 1_000 {
                return Err("onramp.sandbox: session_ttl_secs must be positive and fee_bps at most 1000".into());
            }
        }
        // Left unset when off: validation runs again once `--dev` is known.
        for (name, url) in [
            ("coinbase.session_url", self.coinbase.as_ref().map(|c| &c.session_url)),
            ("moonpay.api_url", self.moonpay.as_ref().map(|m| &m.api_url)),
        ] {
            if let Some(url) = url {
                if !(url.starts_with("https://") || url.starts_with("http://")) {
                    return Err(format!("onramp.{name}: {url} is not an http(s) URL"));
                }
            }
        }
        Ok(())
    }

    /// Whether the sandbox provider is on (after [`Self::validate`], which sets it in `--dev`).
    pub fn sandbox_enabled(&self) -> bool {
        self.sandbox.enabled == Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dev_key_is_anvil_account_9() {
        let key = k256::ecdsa::SigningKey::from_slice(&hex::decode(&DEV_SANDBOX_KEY[2..]).unwrap()).unwrap();
        assert_eq!(
            alloy_primitives::Address::from_private_key(&key).to_string(),
            "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720"
        );
    }

    #[test]
    fn secrets_are_redacted_and_dev_turns_the_sandbox_on() {
        let mut config = OnrampConfig {
            moonpay: Some(MoonPayConfig {
                api_key: "pk_test_1".into(),
                secret_key: Secret("sk_test_very_secret".into()),
                api_url: moonpay_api_url(),
                sandbox: true,
            }),
            ..Default::default()
        };
        config.validate(true, &[DEV_CHAIN.into()]).unwrap();
        let debug = format!("{config:?}");
        assert!(
            !debug.contains("sk_test_very_secret") && !debug.contains(&DEV_SANDBOX_KEY[2..]),
            "{debug}"
        );
        assert!(config.sandbox_enabled());
        assert_eq!(config.sandbox.chains, [DEV_CHAIN]);

        let mut off = OnrampConfig::default();
        off.validate(false, &[]).unwrap();
        assert!(!off.sandbox_enabled());
        // Validated again once `--dev` is known (the CLI flag comes after the file): on.
        off.validate(true, &[DEV_CHAIN.into()]).unwrap();
        assert!(off.sandbox_enabled());
        let mut published = OnrampConfig {
            sandbox: SandboxConfig {
                enabled: Some(true),
                private_key: Some(Secret(DEV_SANDBOX_KEY.into())),
                chains: vec![DEV_CHAIN.into()],
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(published
            .validate(false, &[DEV_CHAIN.into()])
            .unwrap_err()
            .contains("published"));
        for disguised in [
            DEV_SANDBOX_KEY.trim_start_matches("0x").to_owned(),
            DEV_SANDBOX_KEY.to_ascii_uppercase().replacen("0X", "0x", 1),
        ] {
            published.sandbox.private_key = Some(Secret(disguised.clone()));
            assert!(
                published
                    .validate(false, &[DEV_CHAIN.into()])
                    .unwrap_err()
                    .contains("published"),
                "{disguised}"
            );
        }
        let mut keyless = OnrampConfig {
            sandbox: SandboxConfig {
                enabled: Some(true),
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(keyless.validate(false, &[]).unwrap_err().contains("private_key"));
    }
}
