//! Solana sends (latch_core::solana_transfer): the unsigned transaction a
//! Wallet Standard wallet signs, the associated token account a token goes to,
//! and amounts in base units. In the `extra` module: only the Send view needs them.

use latch_core::solana_transfer::{self, SolanaTransferRequest};
use wasm_bindgen::prelude::*;

use crate::input::from_js;
use crate::js_error;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A SOL or SPL token send (`buildSolanaTransfer`). */
export interface SolanaTransferRequest {
  /** The sender's base58 address: fee payer and only signer. */
  from: string;
  /** The receiver's wallet address (for a token, the owner, not a token account). */
  to: string;
  /** Whole tokens as the user typed them, e.g. `"1.5"`. */
  amount: string;
  /** The token's decimals: required with `mint`; absent or 9 for SOL. */
  decimals?: number;
  /** The SPL mint (base58); absent for SOL. */
  mint?: string;
  /** The mint's program: Token (default) or Token-2022. */
  tokenProgram?: string;
  /**
   * Whether to create the receiver's associated token account first (idempotently: harmless when
   * it exists, but it costs compute). Default `true`; only with `mint`.
   */
  createReceiverAccount?: boolean;
  /** From `getLatestBlockhash`. */
  recentBlockhash: string;
}
"#;

/// The wire bytes of the unsigned legacy transaction for `request`, one empty
/// signature slot for the sender, as `solana:signAndSendTransaction` and
/// `solana:signTransaction` take them. Throws `Please enter a valid amount and
/// receiver address`, `Invalid amount: …`, `Invalid Solana address` or
/// `Invalid Solana transfer: …`.
#[wasm_bindgen(js_name = buildSolanaTransfer)]
pub fn build_solana_transfer(
    #[wasm_bindgen(unchecked_param_type = "SolanaTransferRequest")] request: JsValue,
) -> Result<Vec<u8>, JsValue> {
    let request: SolanaTransferRequest = from_js("Solana transfer", request)?;
    solana_transfer::build_transfer(&request).map_err(js_error)
}

/// The associated token account (base58) of `owner` for `mint`; `tokenProgram`
/// is Token (default) or Token-2022.
#[wasm_bindgen(js_name = solanaAssociatedTokenAddress)]
pub fn solana_associated_token_address(
    owner: &str,
    mint: &str,
    #[wasm_bindgen(js_name = "tokenProgram")] token_program: Option<String>,
) -> Result<String, JsValue> {
    solana_transfer::associated_token_address_text(owner, mint, token_program.as_deref()).map_err(js_error)
}

/// `amount` (whole tokens, e.g. `"1.5"`) in base units of a token with
/// `decimals` decimals, as decimal text (it may exceed 2^53); throws `Invalid
/// amount: …` when it is not positive, too precise or above 2^64 - 1.
#[wasm_bindgen(js_name = parseSolanaAmount)]
pub fn parse_solana_amount(amount: &str, decimals: f64) -> Result<String, JsValue> {
    let decimals = (decimals.fract() == 0.0 && (0.0..=255.0).contains(&decimals))
        .then_some(decimals as u8)
        .ok_or_else(|| {
            js_error(latch_core::Error::InvalidInput {
                what: "Solana amount",
                reason: "decimals must be an integer from 0 to 255".to_owned(),
            })
        })?;
    solana_transfer::parse_amount(amount, decimals)
        .map(|units| units.to_string())
        .map_err(js_error)
}
