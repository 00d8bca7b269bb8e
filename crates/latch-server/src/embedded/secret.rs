//! The key one-time codes are stored under. A code has six digits: stored as a plain hash, a
//! copy of the database would give every pending code after a million hashes each. Keyed with
//! a secret the database never holds (`embedded.code_secret`, or a file in the data directory),
//! the stored value is useless without that secret too.

use std::fmt;
use std::io::Write;
use std::path::Path;

use anyhow::Context;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::config::Secret;

/// The file under `data_dir` a generated key is kept in.
pub const FILE: &str = "embedded-code-secret";
/// Fewest key bytes accepted (HMAC-SHA256's own block of strength).
const MIN_BYTES: usize = 32;

/// `text` as a key: hex, at least 32 bytes; the error names the setting, never the value.
pub fn parse(text: &str) -> Result<Vec<u8>, String> {
    let bytes =
        hex::decode(text.trim()).map_err(|_| "embedded.code_secret must be hex (64 or more digits)".to_owned())?;
    if bytes.len() < MIN_BYTES {
        return Err("embedded.code_secret must be at least 32 bytes (64 hex digits)".into());
    }
    Ok(bytes)
}

/// The HMAC-SHA256 key of one-time codes. `Debug` never shows it.
#[derive(Clone)]
pub struct CodeKey(Vec<u8>);

impl fmt::Debug for CodeKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CodeKey(<redacted>)")
    }
}

impl CodeKey {
    /// The configured key, else the one in `data_dir`, made (32 random bytes, owner-only) the
    /// first time so codes still verify after a restart.
    pub fn load(configured: Option<&Secret>, data_dir: &Path) -> anyhow::Result<Self> {
        if let Some(secret) = configured {
            return parse(&secret.0).map(Self).map_err(anyhow::Error::msg);
        }
        let path = data_dir.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                return parse(&text)
                    .map(Self)
                    .map_err(|_| anyhow::anyhow!("{} is not a key of 64 or more hex digits", path.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
        std::fs::create_dir_all(data_dir).with_context(|| format!("creating {}", data_dir.display()))?;
        let mut key = vec![0u8; MIN_BYTES];
        getrandom::getrandom(&mut key).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(&path) {
            Ok(mut file) => {
                file.write_all(hex::encode(&key).as_bytes())
                    .and_then(|()| file.sync_all())
                    .with_context(|| format!("writing {}", path.display()))?;
                Ok(Self(key))
            }
            // Another process sharing the directory made it first: use that one.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Self::load(None, data_dir),
            Err(e) => Err(e).with_context(|| format!("creating {}", path.display())),
        }
    }

    /// HMAC-SHA256 of `code` in its context, hex: the same digits for another project, address
    /// or purpose give another value, so rows cannot be matched against each other.
    pub fn code_hash(&self, project_id: &str, email_key: &str, purpose: &str, code: &str) -> String {
        // Any key length is accepted by HMAC.
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(format!("{project_id}\n{email_key}\n{purpose}\n{code}").as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;

    #[test]
    fn made_once_then_read_back_and_never_shown() {
        let dir = tempfile::tempdir().unwrap();
        let first = CodeKey::load(None, dir.path()).unwrap();
        let again = CodeKey::load(None, dir.path()).unwrap();
        assert_eq!(first.0, again.0);
        assert_eq!(first.0.len(), 32);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(format!("{first:?}"), "CodeKey(<redacted>)");
        let hash = first.code_hash("p", "a@b.co", "login", "123456");
        assert_ne!(hash, hex::encode(sha2::Sha256::digest("p\na@b.co\nlogin\n123456")));
        assert_ne!(hash, hex::encode(sha2::Sha256::digest("123456")));
        assert_eq!(hash, again.code_hash("p", "a@b.co", "login", "123456"));
        assert_ne!(hash, first.code_hash("p", "a@b.co", "device", "123456"));
        let other = tempfile::tempdir().unwrap();
        assert_ne!(
            hash,
            CodeKey::load(None, other.path())
                .unwrap()
                .code_hash("p", "a@b.co", "login", "123456")
        );
    }

    #[test]
    fn a_configured_key_wins_and_bad_ones_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let configured = Secret("07".repeat(32));
        let key = CodeKey::load(Some(&configured), dir.path()).unwrap();
        assert_eq!(key.0, vec![7u8; 32]);
        assert!(!dir.path().join(FILE).exists(), "nothing written when configured");
        assert!(CodeKey::load(Some(&Secret("07".repeat(16))), dir.path()).is_err());
        std::fs::write(dir.path().join(FILE), "not hex").unwrap();
        let error = CodeKey::load(None, dir.path()).unwrap_err().to_string();
        assert!(error.contains(FILE) && !error.contains("not hex"), "{error}");
    }
}
