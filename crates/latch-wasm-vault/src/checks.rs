//! Module `checks`: what the frame does with the host's messages before any key exists: requests
//! checked against latch-core's frame schemas, RPC methods classified, approval summaries,
//! transactions prepared, EIP-5792 statuses.

use crate::{json_argument, set, to_js};
use js_sys::Object;
use wasm_bindgen::prelude::*;

/// Checks a request from the host page against latch-core's frame schemas (behaviour 5.17, 5.15) and
/// answers it normalized: `{ id, type, payload }`. Refused: an `Error` named `SchemaError`
/// whose message is `<field>: Required` or `<field>: Invalid input`.
#[wasm_bindgen(js_name = parseFrameRequest)]
pub fn parse_frame_request(json: &str) -> Result<Object, JsValue> {
    let request = latch_core::embedded::frame::parse_request_json(json).map_err(|error| {
        let js = js_sys::Error::new(&error.to_string());
        js.set_name("SchemaError");
        JsValue::from(js)
    })?;
    let object = Object::new();
    set(&object, "id", &request.id.as_str().into());
    set(&object, "type", &request.kind.into());
    set(&object, "payload", &to_js(&request.payload));
    Ok(object)
}

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

/// Behaviour 5.18: `"safe"` (straight to the gateway), `"approval"` (ApproveTransaction first)
/// or `"notAllowed"` ("Requested RPC call is not allowed").
#[wasm_bindgen(js_name = classifyRpcMethod)]
pub fn classify_rpc_method(method: &str) -> String {
    latch_core::policy::classify_rpc_method(method).as_str().to_owned()
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
