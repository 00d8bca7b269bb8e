//! Embedded-wallet keys (issue 28). Pure like latch-core: no IO, clock or
//! randomness; the frame passes random bytes in. Builds native (the server
//! validates shares with [`Share::parse`]) and for wasm32 (the frame, through
//! latch-wasm-vault).
//!
//! # The scheme
//!
//! - **One seed per user**: 32 random bytes drawn in the frame.
//! - **Accounts**: the EVM key is BIP-32 m/44'/60'/0'/0/0 from the seed (as
//!   the BIP-32 master seed); the Solana key is SLIP-0010 ed25519
//!   m/44'/501'/0'/0'. Same accounts as MetaMask / Phantom for that seed.
//! - **2-of-3 split** ([`shamir`]): Shamir over GF(2^8), byte-wise, degree 1.
//!   Share 1 (device) stays in the frame origin's storage; share 2 (auth) is
//!   kept by the server and released only to an authenticated session;
//!   share 3 (recovery) is kept by the server only inside an [`Envelope`].
//!   Any two shares rebuild the seed and every other share, so a new device
//!   (auth + recovery) recomputes its device share.
//! - **Recovery envelope** ([`envelope`]): AES-256-GCM of the recovery share
//!   under Argon2id(password) or HKDF-SHA256(WebAuthn PRF output); the
//!   associated data names the user id and the share index.
//! - **Recovery flow** (the frame, `apps/vault`): at sign-up the frame asks
//!   the user for a recovery password in its own panel, seals the recovery
//!   share with [`Envelope::seal_with_password`] at [`Argon2Cost::default`]
//!   and stores the envelope on the server (`POST /v1/embedded/wallet/envelope`),
//!   then forgets the plain share. A new device fetches the auth share and
//!   the envelope, opens it with [`Envelope::open_with_password`] (a wrong
//!   password is [`Error::DecryptionFailed`]; the frame bounds the tries),
//!   rebuilds the [`Wallet`] from auth + recovery, checks its addresses
//!   against the stored accounts and keeps [`derive_share`]'s device share.
//! - **The server alone cannot sign**: it holds the auth share (one point of
//!   a random line: every seed fits it) and the envelopes (no key without the
//!   password or the passkey). The test `the_server_alone_cannot_rebuild_a_key`
//!   shows it on exactly what the server stores.
//! - **Signing** ([`Wallet`]): EIP-191, EIP-712 v4, legacy and EIP-1559
//!   transactions, Solana messages and transactions; [`Wallet::export`]
//!   gives the private keys (the frame asks for an explicit confirmation).
//! - Seeds, shares and keys are wiped on drop (`zeroize`).

pub mod envelope;
pub mod evm;
pub mod hd;
pub mod shamir;
pub mod solana;

use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

pub use envelope::{Argon2Cost, Envelope, EnvelopeKind};
pub use shamir::{combine, derive_share, split, Share, ShareKind};

/// Seed length, bytes.
pub const SEED_LEN: usize = 32;

/// Why a key operation was refused. Messages are for the developer reading
/// the frame's logs; none carries secret material.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Share text not in the `0x` + index + 64 hex digits form.
    #[error("Invalid share: {0}")]
    InvalidShare(&'static str),
    /// A share of another kind than the one asked for.
    #[error("Expected share {expected:02}, got share {found:02}")]
    WrongShare {
        /// Index wanted.
        expected: u8,
        /// Index given.
        found: u8,
    },
    /// Two copies of one share rebuild nothing.
    #[error("Two different shares are needed")]
    SameShareTwice,
    /// The BIP-32 "invalid key" case (odds about 2^-127 per step).
    #[error("This seed derives an invalid key")]
    InvalidDerivedKey,
    /// SLIP-0010 ed25519 has hardened children only.
    #[error("ed25519 derivation needs hardened indexes")]
    UnhardenedEd25519,
    /// Envelope text that is not a valid envelope.
    #[error("Invalid recovery envelope: {0}")]
    InvalidEnvelope(&'static str),
    /// An Argon2 cost outside the bounds in [`envelope`].
    #[error("Invalid recovery envelope: Argon2 cost out of bounds")]
    Argon2CostOutOfBounds,
    /// A password envelope opened with a passkey, or the reverse.
    #[error("This recovery envelope needs the other method")]
    WrongEnvelopeKind,
    /// Wrong password or passkey, another user's envelope, or tampering.
    #[error("Could not decrypt the recovery envelope")]
    DecryptionFailed,
    /// Envelopes are bound to a user id of 1 to 256 bytes.
    #[error("Invalid user id")]
    InvalidUserId,
    /// Sealing with an empty password.
    #[error("The password is empty")]
    EmptyPassword,
    /// `eth_signTypedData_v4` input that EIP-712 cannot hash (the text is
    /// latch-core's, which already starts "Invalid typed data").
    #[error("{0}")]
    InvalidTypedData(String),
    /// `eth_sendTransaction` input that cannot be signed as given.
    #[error("Invalid transaction: {0}")]
    InvalidTransaction(String),
    /// `solana:signTransaction` input that cannot be signed.
    #[error("Invalid Solana transaction: {0}")]
    InvalidSolanaTransaction(String),
    /// A Solana sign request (`solana_sign*` params) that latch-core refuses; the text is
    /// latch-core's.
    #[error("{0}")]
    InvalidSolanaRequest(String),
    /// The signer refused (never seen with a valid key).
    #[error("Signing failed")]
    SigningFailed,
}

impl Error {
    /// A stable code for the frame to branch on (and localize) without
    /// matching message text.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidShare(_) => "INVALID_SHARE",
            Error::WrongShare { .. } => "WRONG_SHARE",
            Error::SameShareTwice => "SAME_SHARE_TWICE",
            Error::InvalidDerivedKey => "INVALID_DERIVED_KEY",
            Error::UnhardenedEd25519 => "UNHARDENED_ED25519",
            Error::InvalidEnvelope(_) => "INVALID_ENVELOPE",
            Error::Argon2CostOutOfBounds => "ARGON2_COST_OUT_OF_BOUNDS",
            Error::WrongEnvelopeKind => "WRONG_ENVELOPE_KIND",
            Error::DecryptionFailed => "DECRYPTION_FAILED",
            Error::InvalidUserId => "INVALID_USER_ID",
            Error::EmptyPassword => "EMPTY_PASSWORD",
            Error::InvalidTypedData(_) => "INVALID_TYPED_DATA",
            Error::InvalidTransaction(_) => "INVALID_TRANSACTION",
            Error::InvalidSolanaTransaction(_) => "INVALID_SOLANA_TRANSACTION",
            Error::InvalidSolanaRequest(_) => "INVALID_SOLANA_REQUEST",
            Error::SigningFailed => "SIGNING_FAILED",
        }
    }
}

/// The user's seed, wiped on drop.
#[derive(Clone, PartialEq, Eq, Zeroize, ZeroizeOnDrop)]
pub struct Seed([u8; SEED_LEN]);

impl Seed {
    /// A seed from 32 bytes (random, from the caller).
    pub fn new(bytes: [u8; SEED_LEN]) -> Self {
        Seed(bytes)
    }

    /// The bytes (secret).
    pub fn as_bytes(&self) -> &[u8; SEED_LEN] {
        &self.0
    }
}

impl core::fmt::Debug for Seed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Seed(..)")
    }
}

/// A new user's seed split into its three shares.
pub struct Created {
    /// The wallet the seed gives.
    pub wallet: Wallet,
    /// Device, auth and recovery shares, in that order.
    pub shares: [Share; 3],
}

/// Both accounts' keys. k256 and ed25519-dalek wipe their keys on drop.
pub struct Wallet {
    evm: k256::ecdsa::SigningKey,
    solana: ed25519_dalek::SigningKey,
}

/// The private keys, for export.
pub struct ExportedKeys {
    /// `0x` + 64 hex digits, as MetaMask imports it.
    pub evm: Zeroizing<String>,
    /// Base58 of the 64-byte secret ‖ public key, as Phantom and
    /// `solana-keygen` files hold it.
    pub solana: Zeroizing<String>,
}

impl Wallet {
    /// A new user: `seed` and `coefficients` are 32 random bytes each.
    pub fn create(seed: [u8; SEED_LEN], coefficients: [u8; SEED_LEN]) -> Result<Created, Error> {
        let seed = Seed::new(seed);
        let shares = split(&seed, &coefficients);
        Ok(Created {
            wallet: Wallet::from_seed(&seed)?,
            shares,
        })
    }

    /// The wallet a seed gives.
    pub fn from_seed(seed: &Seed) -> Result<Wallet, Error> {
        let evm = hd::bip32(seed.as_bytes(), &hd::EVM_PATH)?;
        let solana = hd::slip10_ed25519(seed.as_bytes(), &hd::SOLANA_PATH)?;
        Ok(Wallet {
            evm: k256::ecdsa::SigningKey::from_bytes(&(*evm.key).into()).map_err(|_| Error::InvalidDerivedKey)?,
            solana: ed25519_dalek::SigningKey::from_bytes(&solana.key),
        })
    }

    /// The wallet two different shares give.
    pub fn from_shares(a: &Share, b: &Share) -> Result<Wallet, Error> {
        Wallet::from_seed(&combine(a, b)?)
    }

    /// The EVM address.
    pub fn evm_address(&self) -> alloy_primitives::Address {
        evm::address(&self.evm)
    }

    /// The Solana address (base58).
    pub fn solana_address(&self) -> String {
        solana::address(&self.solana)
    }

    /// `personal_sign`: `message` as the method's first parameter
    /// (`0x`-hex bytes or text).
    pub fn personal_sign(&self, message: &str) -> Result<[u8; 65], Error> {
        evm::personal_sign(&self.evm, &evm::personal_message_bytes(message))
    }

    /// `eth_signTypedData_v4`: the typed data JSON.
    pub fn sign_typed_data(&self, json: &str) -> Result<[u8; 65], Error> {
        evm::sign_typed_data(&self.evm, json)
    }

    /// `eth_sendTransaction`, filled in: the raw signed transaction.
    pub fn sign_transaction(&self, json: &str) -> Result<Vec<u8>, Error> {
        let tx = evm::Transaction::parse(json, self.evm_address())?;
        evm::sign_transaction(&self.evm, &tx)
    }

    /// `solana:signMessage`.
    pub fn solana_sign_message(&self, message: &[u8]) -> [u8; 64] {
        solana::sign_message(&self.solana, message)
    }

    /// `solana:signTransaction`: the wire transaction with our signature.
    pub fn solana_sign_transaction(&self, wire: &[u8]) -> Result<Vec<u8>, Error> {
        solana::sign_transaction(&self.solana, wire)
    }

    /// One of the embedded wallet's Solana sign methods (`solana_signMessage`,
    /// `solana_signTransaction`, `solana_signAllTransactions`, `solana_signAndSendTransaction`)
    /// on its params as latch-core `embedded::solana` reads them (the approval's `sign`): the
    /// answer in the method's WalletConnect shape, for `solana_signAndSendTransaction` with the
    /// gateway's `sendTransaction` params (latch-core `embedded::solana::answer`).
    pub fn solana_sign_request(
        &self,
        method: &str,
        params: &latch_core::json::Value,
    ) -> Result<latch_core::json::Value, Error> {
        solana::sign_request(&self.solana, method, params)
    }

    /// Both private keys. The frame shows them only after an explicit
    /// confirmation; nothing else calls this.
    pub fn export(&self) -> ExportedKeys {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut key = Zeroizing::new([0u8; 32]);
        key.copy_from_slice(&self.evm.to_bytes());
        let mut evm = Zeroizing::new(String::with_capacity(66));
        evm.push_str("0x");
        for byte in key.iter() {
            evm.push(char::from(HEX[usize::from(byte >> 4)]));
            evm.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
        let keypair = Zeroizing::new(self.solana.to_keypair_bytes());
        ExportedKeys {
            evm,
            solana: Zeroizing::new(bs58::encode(&keypair[..]).into_string()),
        }
    }
}
