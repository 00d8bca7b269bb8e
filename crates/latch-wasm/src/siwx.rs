//! Sign-in messages and their signatures (latch_core::siwx).

use latch_core::siwx::{self, SignInMessage, SiweMessage, SiwxMessage};
use serde::de::{DeserializeOwned, IgnoredAny};
use wasm_bindgen::prelude::*;

use crate::input::from_js_or;
use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/**
 * An EIP-4361 (Sign-In with Ethereum) message. Fields are kept exactly as
 * written, times included (RFC 3339 strings), so build and parse are inverses.
 */
export interface SiweMessage {
  /** Scheme of the requesting origin when the header names one (`https://example.com wants you…`). */
  scheme?: string;
  /** RFC 3986 authority: host and optional port. */
  domain: string;
  /** EIP-55 checksummed. */
  address: string;
  /** One line of letters, digits, spaces and RFC 3986 reserved/unreserved characters. */
  statement?: string;
  uri: string;
  version: '1';
  chainId: number;
  /** At least 8 letters or digits. */
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  /** Absent: no `Resources:` section. Empty: the heading alone. */
  resources?: string[];
}
/**
 * The same message for any namespace with a sign-in format (CAIP-122):
 * `eip155` (an EIP-4361 message) or `solana` (`… with your Solana account:`,
 * base58 address). `chainId` is the CAIP-2 id, e.g. `eip155:1` or
 * `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`; the message text carries its reference.
 */
export interface SiwxMessage extends Omit<SiweMessage, 'chainId'> {
  chainId: string;
}
"#;

/// A message object from JS. Shape errors (a missing field, a misspelt one, a
/// fractional chain id) become `Invalid sign-in message: …` like field errors.
fn message_from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, JsValue> {
    from_js_or(value, |reason| latch_core::Error::InvalidSignInMessage { reason })
}

/// The EIP-4361 text of `message`; throws `Invalid sign-in message: …`.
#[wasm_bindgen(js_name = buildSiweMessage)]
pub fn build_siwe_message(
    #[wasm_bindgen(unchecked_param_type = "SiweMessage")] message: JsValue,
) -> Result<String, JsValue> {
    message_from_js::<SiweMessage>(message)?.build().map_err(js_error)
}

/// Parses EIP-4361 text strictly; throws `Invalid sign-in message: …`.
#[wasm_bindgen(js_name = parseSiweMessage, unchecked_return_type = "SiweMessage")]
pub fn parse_siwe_message(text: &str) -> Result<JsValue, JsValue> {
    to_js(&SiweMessage::parse(text).map_err(js_error)?)
}

/// The sign-in text of `message` for its namespace; throws `Invalid sign-in message: …`.
#[wasm_bindgen(js_name = buildSiwxMessage)]
pub fn build_siwx_message(
    #[wasm_bindgen(unchecked_param_type = "SiwxMessage")] message: JsValue,
) -> Result<String, JsValue> {
    message_from_js::<SiwxMessage>(message)?.build().map_err(js_error)
}

/// Parses Ethereum or Solana sign-in text strictly; throws `Invalid sign-in message: …`.
#[wasm_bindgen(js_name = parseSiwxMessage, unchecked_return_type = "SiwxMessage")]
pub fn parse_siwx_message(text: &str) -> Result<JsValue, JsValue> {
    to_js(&SiwxMessage::parse(text).map_err(js_error)?)
}

/// Throws `Session Expired` from `expirationTime` on and `Session not yet
/// valid: check the clock and reconnect` before `notBefore`; `nowMs` is Unix
/// milliseconds (e.g. `Date.now()`).
#[wasm_bindgen(js_name = checkSiweTimes)]
pub fn check_siwe_times(
    #[wasm_bindgen(unchecked_param_type = "SiweMessage | SiwxMessage")] message: JsValue,
    #[wasm_bindgen(js_name = "nowMs")] now_ms: f64,
) -> Result<(), JsValue> {
    // The chain id plays no part in the time window, so either form is taken.
    let message: SignInMessage<IgnoredAny> = message_from_js(message)?;
    // Float to integer saturates; fractions of a millisecond do not matter here.
    message.check_times(now_ms as i64).map_err(js_error)
}

/// The EIP-55 address whose key signed `message` with `personal_sign`
/// (EIP-191); throws `Invalid signature: …` when it is malformed.
#[wasm_bindgen(js_name = recoverPersonalSignAddress)]
pub fn recover_personal_sign_address(message: &str, signature: &str) -> Result<String, JsValue> {
    siwx::recover_personal_sign_address(message, signature).map_err(js_error)
}

/// Whether `signatureBase58` is `publicKeyBase58`'s ed25519 signature over the
/// UTF-8 `message`; throws for a malformed key or signature.
#[wasm_bindgen(js_name = verifySolanaSignature)]
pub fn verify_solana_signature(
    message: &str,
    #[wasm_bindgen(js_name = "signatureBase58")] signature_base58: &str,
    #[wasm_bindgen(js_name = "publicKeyBase58")] public_key_base58: &str,
) -> Result<bool, JsValue> {
    siwx::verify_solana_signature(message, signature_base58, public_key_base58).map_err(js_error)
}

/// A Solana wallet's `signMessage` signature (64 bytes) as base58, the text
/// `verifySolanaSignature` and the Latch server take; throws for another length.
#[wasm_bindgen(js_name = solanaSignatureText)]
pub fn solana_signature_text(signature: &[u8]) -> Result<String, JsValue> {
    siwx::solana_signature_text(signature).map_err(js_error)
}

/// Bytes as base58 (the embedded wallet's Solana messages, in the WalletConnect shape).
#[wasm_bindgen(js_name = solanaBase58Encode)]
pub fn solana_base58_encode(bytes: &[u8]) -> String {
    bs58::encode(bytes).into_string()
}

/// Base58 text as bytes (a Solana public key or signature); throws `Invalid base58`.
#[wasm_bindgen(js_name = solanaBase58Decode)]
pub fn solana_base58_decode(text: &str) -> Result<Vec<u8>, JsValue> {
    bs58::decode(text)
        .into_vec()
        .map_err(|_| js_sys::Error::new("Invalid base58").into())
}
