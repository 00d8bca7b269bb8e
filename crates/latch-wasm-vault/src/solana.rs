//! The embedded wallet's Solana sign methods (issue 28), kept apart from the rest of the façade:
//! the frame hands over an approval's `sign` (latch-core `embedded::solana`) and gets the
//! method's answer. Every rule is in latch-core and latch-vault; this only converts values.

use wasm_bindgen::prelude::*;

use crate::{json_argument, to_js, vault_error, Wallet};

#[wasm_bindgen]
impl Wallet {
    /// `solana_signMessage`, `solana_signTransaction`, `solana_signAllTransactions` or
    /// `solana_signAndSendTransaction` on `params_json` (the approval's `sign`, as JSON): the
    /// WalletConnect answer (`{signature}`, `{signature, transaction}`, `{transactions}`, or for
    /// sign-and-send `{signature, sendParams}`, the gateway's `sendTransaction` params).
    #[wasm_bindgen(js_name = solanaSignRequest)]
    pub fn solana_sign_request(&self, method: &str, params_json: &str) -> Result<JsValue, JsValue> {
        let params = json_argument(params_json, "params")?;
        self.0
            .solana_sign_request(method, &params)
            .map(|answer| to_js(&answer))
            .map_err(vault_error)
    }
}
