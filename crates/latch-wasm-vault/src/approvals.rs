//! Approval summaries and what is signed (feature `keys`): needed only at the first approval,
//! so they come with the keys module that signs, rather than with the frame page or the login (BENCHMARKS.md "The wallet
//! frame").

use crate::{json_argument, to_js};
use wasm_bindgen::prelude::*;

/// A refused request as a JS `Error` named `RequestError`. Only the variants the approval rules
/// give are spelled out: `Error`'s whole `Display` would add kilobytes to the frame's module.
fn core_error(error: latch_core::Error) -> JsValue {
    use latch_core::Error;
    let message = match error {
        Error::RpcMethodNotAllowed { .. } => "Requested RPC call is not allowed".to_owned(),
        Error::InvalidInput { what, reason } => format!("{what}: {reason}"),
        Error::InvalidEvmAddress { input } => format!("Invalid address: {input}"),
        _ => "Invalid input".to_owned(),
    };
    let js = js_sys::Error::new(&message);
    js.set_name("RequestError");
    js.into()
}

/// What ApproveTransaction shows for a not-safe request and what the key signs:
/// `{ method, summary: { kind, … }, sign }` (latch-core `embedded::approval`).
#[wasm_bindgen(js_name = approvalSummary)]
pub fn approval_summary(method: &str, params_json: &str, account: &str) -> Result<JsValue, JsValue> {
    let params = json_argument(params_json, "params")?;
    let approval = latch_core::embedded::approval::summarize(method, &params, account).map_err(core_error)?;
    Ok(to_js(&approval.to_json()))
}

/// The `eth_sendTransaction` object to sign (for `signTransaction`, as JSON): `call_json` (an
/// approval's `sign`) with the nonce, gas and EIP-1559 fees read from the gateway.
#[wasm_bindgen(js_name = prepareTransaction)]
pub fn prepare_transaction(
    call_json: &str,
    chain_id: &str,
    nonce: &str,
    gas: &str,
    base_fee: &str,
    priority_fee: &str,
) -> Result<JsValue, JsValue> {
    let call = json_argument(call_json, "call")?;
    let chain = latch_core::embedded::approval::ChainState {
        chain_id,
        nonce,
        gas,
        base_fee,
        priority_fee,
    };
    latch_core::embedded::approval::prepare_transaction(&call, &chain)
        .map(|tx| to_js(&tx))
        .map_err(core_error)
}

/// `wallet_getCallsStatus`'s EIP-5792 status code for a batch of `total` calls: `receipts` one
/// per transaction sent so far (`null` not mined, `true` succeeded, `false` reverted), `finished`
/// whether the frame stopped sending (latch-core `embedded::calls::calls_status`).
#[wasm_bindgen(js_name = callsStatus)]
pub fn calls_status(total: usize, receipts: Vec<JsValue>, finished: bool) -> u16 {
    let receipts: Vec<Option<bool>> = receipts.iter().map(JsValue::as_bool).collect();
    latch_core::embedded::calls::calls_status(total, &receipts, finished)
}
