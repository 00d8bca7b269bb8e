//! Module `login`: shares split and combined, and the accounts two shares give, without the
//! signing rules (EIP-712, transactions, Solana requests, approval summaries), which come with
//! `keys` at the first approval: a login needs only the addresses (BENCHMARKS.md "The wallet
//! frame").

use crate::{argument, array, set, share, vault_error};
use js_sys::Object;
use latch_vault::{Share, ShareKind};
use wasm_bindgen::prelude::*;

/// Splits a new seed: `seed` and `coefficients` are 32 random bytes each.
/// Returns the device, auth and recovery shares' text.
#[wasm_bindgen(js_name = splitSeed)]
pub fn split_seed(seed: &[u8], coefficients: &[u8]) -> Result<Vec<String>, JsValue> {
    let seed = latch_vault::Seed::new(array(seed, "seed")?);
    // The slopes are as secret as the seed: any share plus them gives it.
    let coefficients = zeroize::Zeroizing::new(array::<32>(coefficients, "coefficients")?);
    Ok(latch_vault::split(&seed, &coefficients)
        .iter()
        .map(Share::to_text)
        .collect())
}

/// Share `index` (1 device, 2 auth, 3 recovery) from two others: a new
/// device rebuilds its device share from auth + recovery.
#[wasm_bindgen(js_name = deriveShare)]
pub fn derive_share(a: &str, b: &str, index: u8) -> Result<String, JsValue> {
    latch_vault::derive_share(&share(a)?, &share(b)?, kind(index)?)
        .map(|share| share.to_text())
        .map_err(vault_error)
}

/// The index (1, 2 or 3) of a well-formed share; throws otherwise.
#[wasm_bindgen(js_name = shareIndex)]
pub fn share_index(text: &str) -> Result<u8, JsValue> {
    Ok(share(text)?.kind().index())
}

fn kind(index: u8) -> Result<ShareKind, JsValue> {
    ShareKind::ALL
        .into_iter()
        .find(|kind| kind.index() == index)
        .ok_or_else(|| argument("a share index is 1, 2 or 3"))
}

/// `{ evm, solana }`: the addresses two different shares give (EVM checksummed, Solana base58).
/// The keys are rebuilt and wiped before this returns.
#[wasm_bindgen(js_name = walletAccounts)]
pub fn wallet_accounts(a: &str, b: &str) -> Result<Object, JsValue> {
    let wallet = latch_vault::Wallet::from_shares(&share(a)?, &share(b)?).map_err(vault_error)?;
    let out = Object::new();
    set(&out, "evm", &wallet.evm_address().to_checksum(None).into());
    set(&out, "solana", &wallet.solana_address().into());
    Ok(out)
}
