//! Module `keys`: the `Wallet` that signs (k256, curve25519, EIP-712 hashing, transaction
//! encoding, Solana requests), loaded at the first approval; a login needs only `login`'s
//! addresses.

use crate::{json_argument, set, share, to_js, vault_error};
use js_sys::Object;
use wasm_bindgen::prelude::*;

/// Both accounts' keys, rebuilt from two shares. `free()` wipes them.
#[wasm_bindgen]
pub struct Wallet(latch_vault::Wallet);

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * bytes.len());
    out.push_str("0x");
    for byte in bytes {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

#[wasm_bindgen]
impl Wallet {
    /// The wallet two different shares give.
    #[wasm_bindgen(js_name = fromShares)]
    pub fn from_shares(a: &str, b: &str) -> Result<Wallet, JsValue> {
        latch_vault::Wallet::from_shares(&share(a)?, &share(b)?)
            .map(Wallet)
            .map_err(vault_error)
    }

    /// The EVM address, checksummed.
    #[wasm_bindgen(getter, js_name = evmAddress)]
    pub fn evm_address(&self) -> String {
        self.0.evm_address().to_checksum(None)
    }

    /// The Solana address, base58.
    #[wasm_bindgen(getter, js_name = solanaAddress)]
    pub fn solana_address(&self) -> String {
        self.0.solana_address()
    }

    /// `personal_sign`'s signature (`0x` + 130 hex digits) of its first
    /// parameter (`0x`-hex bytes or text).
    #[wasm_bindgen(js_name = personalSign)]
    pub fn personal_sign(&self, message: &str) -> Result<String, JsValue> {
        self.0.personal_sign(message).map(|s| hex(&s)).map_err(vault_error)
    }

    /// `eth_signTypedData_v4`'s signature of the typed data JSON.
    #[wasm_bindgen(js_name = signTypedData)]
    pub fn sign_typed_data(&self, json: &str) -> Result<String, JsValue> {
        self.0.sign_typed_data(json).map(|s| hex(&s)).map_err(vault_error)
    }

    /// The raw signed transaction (`0x`…) for `eth_sendTransaction`'s object
    /// with nonce, gas and fees filled in (JSON).
    #[wasm_bindgen(js_name = signTransaction)]
    pub fn sign_transaction(&self, json: &str) -> Result<String, JsValue> {
        self.0.sign_transaction(json).map(|raw| hex(&raw)).map_err(vault_error)
    }

    /// `solana:signMessage`: the 64-byte signature.
    #[wasm_bindgen(js_name = solanaSignMessage)]
    pub fn solana_sign_message(&self, message: &[u8]) -> Vec<u8> {
        self.0.solana_sign_message(message).to_vec()
    }

    /// `solana:signTransaction`: the wire transaction with this account's signature.
    #[wasm_bindgen(js_name = solanaSignTransaction)]
    pub fn solana_sign_transaction(&self, wire: &[u8]) -> Result<Vec<u8>, JsValue> {
        self.0.solana_sign_transaction(wire).map_err(vault_error)
    }

    /// `{ evm, solana }` private keys. The frame calls this only after the
    /// user confirms the export explicitly.
    #[wasm_bindgen(js_name = exportPrivateKeys)]
    pub fn export_private_keys(&self) -> Object {
        let keys = self.0.export();
        let out = Object::new();
        set(&out, "evm", &keys.evm.as_str().into());
        set(&out, "solana", &keys.solana.as_str().into());
        out
    }
}

// The Solana sign methods (issue 28): the frame hands over an approval's `sign` (latch-core
// `embedded::solana`) and gets the method's answer.
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
