//! Settings of embedded-wallet login: `[embedded]` in `latch.toml`, or
//! `LATCH_EMBEDDED='{vault_origin="https://vault.example.com", smtp_url="smtps://user:pass@mail.example.com"}'`.

use std::net::SocketAddr;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Secret};

/// `[embedded]`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct EmbeddedConfig {
    /// The origin the wallet frame is served from (`https://vault.example.com`). It may call
    /// `/v1/embedded/*` for every project besides the project's own allowed origins.
    /// `--dev` without it: `http://127.0.0.1:<port + 2>`.
    pub vault_origin: Option<String>,
    /// Where latch serves the frame itself (`apps/vault`'s build, `vault_dir`) and, on the
    /// same origin, the `/v1/embedded/*` routes it calls. `--dev`: the port of the default
    /// `vault_origin` (`127.0.0.1:<port + 2>`). Unset: the frame is served by something else.
    pub vault_listen: Option<SocketAddr>,
    /// The built frame (`apps/vault/dist`; `--dev` uses it when it is built).
    pub vault_dir: Option<PathBuf>,
    /// Where one-time codes are sent: `smtp://host:25` (plain, local relays only),
    /// `smtp://user:pass@host:587?tls=required` (STARTTLS) or `smtps://user:pass@host:465`.
    /// Unset: `--dev` keeps mails in an outbox at `GET /v1/embedded/dev/outbox`; otherwise
    /// e-mail login answers 503 `EMAIL_NOT_CONFIGURED`.
    pub smtp_url: Option<Secret>,
    /// The key one-time codes are stored under (HMAC-SHA256, see `super::secret`): 64 or
    /// more hex digits. Unset: generated once into `<data_dir>/embedded-code-secret`. Nodes that
    /// share one database must share it too (set it here), or a code sent by one fails on another.
    pub code_secret: Option<Secret>,
    /// The mails' sender, e.g. `Latch <login@example.com>`.
    pub mail_from: String,
    /// A session's idle lifetime in seconds; each use pushes its end this far ahead.
    pub session_secs: u64,
    /// A session's longest life in seconds, however often it is used.
    pub session_max_secs: u64,
    /// Codes and links sent to one address per day, all purposes together.
    pub daily_per_email: i64,
    /// Codes and links requested by one client address per day.
    pub daily_per_ip: i64,
    /// Mails the `--dev` outbox keeps (the oldest go first).
    pub outbox_size: usize,
    /// Social login providers (`[[embedded.social]]`), see [`super::social`].
    pub social: Vec<super::social::SocialProvider>,
}

impl Default for EmbeddedConfig {
    fn default() -> Self {
        Self {
            vault_origin: None,
            vault_listen: None,
            vault_dir: None,
            smtp_url: None,
            code_secret: None,
            mail_from: "Latch <login@localhost>".into(),
            session_secs: 7 * 86_400,
            session_max_secs: 30 * 86_400,
            daily_per_email: 20,
            daily_per_ip: 100,
            outbox_size: 100,
            social: Vec::new(),
        }
    }
}

impl EmbeddedConfig {
    /// Applies the `--dev` defaults and checks the rules.
    pub fn validate(&mut self, dev: bool, port: u16) -> Result<(), ConfigError> {
        if dev && self.vault_origin.is_none() {
            let vault_port = port.saturating_add(2);
            self.vault_origin = Some(format!("http://127.0.0.1:{vault_port}"));
            // Port 0 (any free port) has no "port + 2": the frame then needs its own settings.
            if self.vault_listen.is_none() && port != 0 {
                self.vault_listen = Some(SocketAddr::from(([127, 0, 0, 1], vault_port)));
            }
        }
        if !dev && self.vault_listen.is_some() && self.vault_dir.is_none() {
            return Err(ConfigError::Invalid(
                "embedded: vault_listen needs vault_dir (the built frame, apps/vault/dist)".into(),
            ));
        }
        if let Some(origin) = &self.vault_origin {
            if !is_plain_origin(origin) {
                return Err(ConfigError::Invalid(format!(
                    "embedded: vault_origin {origin:?} must be an origin such as https://vault.example.com (no path, no wildcard)"
                )));
            }
            if !dev && origin.starts_with("http://") {
                return Err(ConfigError::Invalid(
                    "embedded: vault_origin must be https outside --dev (the frame holds a key share)".into(),
                ));
            }
        }
        if let Some(url) = &self.smtp_url {
            if !(url.0.starts_with("smtp://") || url.0.starts_with("smtps://")) {
                return Err(ConfigError::Invalid(
                    "embedded: smtp_url must start with smtp:// or smtps://".into(),
                ));
            }
        }
        if let Some(secret) = &self.code_secret {
            super::secret::parse(&secret.0).map_err(ConfigError::Invalid)?;
        }
        if self.mail_from.parse::<lettre::message::Mailbox>().is_err() {
            return Err(ConfigError::Invalid(format!(
                "embedded: mail_from {:?} is not an address such as \"Latch <login@example.com>\"",
                self.mail_from
            )));
        }
        if !(300..=self.session_max_secs).contains(&self.session_secs) || self.session_max_secs > 365 * 86_400 {
            return Err(ConfigError::Invalid(
                "embedded: session_secs must be 300 to session_max_secs, and session_max_secs at most a year".into(),
            ));
        }
        if self.daily_per_email < 1 || self.daily_per_ip < 1 || !(1..=10_000).contains(&self.outbox_size) {
            return Err(ConfigError::Invalid(
                "embedded: daily_per_email and daily_per_ip must be positive, outbox_size 1 to 10000".into(),
            ));
        }
        for provider in &mut self.social {
            provider.validate()?;
        }
        let mut ids: Vec<&str> = self.social.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        if ids.windows(2).any(|w| w[0] == w[1]) {
            return Err(ConfigError::Invalid("embedded.social: each id once".into()));
        }
        if !self.social.is_empty() && self.vault_origin.is_none() {
            return Err(ConfigError::Invalid(
                "embedded.social needs embedded.vault_origin (the login ends on the frame)".into(),
            ));
        }
        Ok(())
    }
}

/// `http(s)://host[:port]` and nothing else.
pub(crate) fn is_plain_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
    else {
        return false;
    };
    !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_gets_a_vault_origin_and_rules_hold() {
        let mut config = EmbeddedConfig::default();
        config.validate(true, 8787).unwrap();
        assert_eq!(config.vault_origin.as_deref(), Some("http://127.0.0.1:8789"));
        assert_eq!(config.vault_listen, Some("127.0.0.1:8789".parse().unwrap()));
        let mut config = EmbeddedConfig {
            vault_listen: Some("127.0.0.1:9000".parse().unwrap()),
            ..Default::default()
        };
        assert!(
            config.validate(false, 8787).is_err(),
            "a listener without the frame's files"
        );
        let mut config = EmbeddedConfig::default();
        config.validate(false, 8787).unwrap();
        assert_eq!(config.vault_origin, None);
        for bad in [
            "http://vault.example.com",
            "https://vault.example.com/path",
            "https://*.example.com",
            "vault",
        ] {
            let mut config = EmbeddedConfig {
                vault_origin: Some(bad.into()),
                ..Default::default()
            };
            assert!(config.validate(false, 8787).is_err(), "{bad}");
        }
        let mut config = EmbeddedConfig {
            smtp_url: Some(Secret("http://mail".into())),
            ..Default::default()
        };
        assert!(config.validate(true, 8787).is_err());
        for (secret, good) in [
            ("ab".repeat(32), true),
            ("ab".repeat(31), false),
            ("zz".repeat(32), false),
        ] {
            let mut config = EmbeddedConfig {
                code_secret: Some(Secret(secret.clone())),
                ..Default::default()
            };
            assert_eq!(config.validate(true, 8787).is_ok(), good, "{secret}");
        }
        let mut config = EmbeddedConfig {
            mail_from: "not an address".into(),
            ..Default::default()
        };
        assert!(config.validate(true, 8787).is_err());
    }
}
