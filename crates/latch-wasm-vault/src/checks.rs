//! Module `checks`: what the frame does with the host's messages before any key exists: requests
//! checked against latch-core's frame schemas, RPC methods classified.

use crate::{set, to_js};
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

/// Behaviour 5.18: `"safe"` (straight to the gateway), `"approval"` (ApproveTransaction first)
/// or `"notAllowed"` ("Requested RPC call is not allowed").
#[wasm_bindgen(js_name = classifyRpcMethod)]
pub fn classify_rpc_method(method: &str) -> String {
    latch_core::policy::classify_rpc_method(method).as_str().to_owned()
}
