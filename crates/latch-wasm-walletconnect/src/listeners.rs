//! The JS listeners of a `WalletConnectClient` or `WalletConnectProvider`, and
//! the pump that feeds them the engine's events.

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

use js_sys::Function;
use latch_walletconnect::json;
use latch_walletconnect::json::Value;
use latch_walletconnect::task::Receiver;
use wasm_bindgen::JsValue;

use crate::client::to_js;
use crate::spawn;

/// Listeners by event name, shared with the tasks that call them.
#[derive(Clone, Default)]
pub(crate) struct Listeners(Rc<RefCell<Vec<(String, Function)>>>);

impl Listeners {
    pub(crate) fn add(&self, event: String, listener: Function) {
        self.0.borrow_mut().push((event, listener));
    }

    pub(crate) fn remove(&self, event: &str, listener: &Function) {
        let listener: &JsValue = listener.as_ref();
        self.0
            .borrow_mut()
            .retain(|(name, f)| !(name == event && AsRef::<JsValue>::as_ref(f) == listener));
    }

    /// Calls every listener of `name` with `payload`; a throwing listener does not stop the others.
    pub(crate) fn dispatch(&self, name: &str, payload: &Value) {
        // A copy, so listeners may call on()/off() while being called.
        let called: Vec<Function> = self
            .0
            .borrow()
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, f)| f.clone())
            .collect();
        let Ok(payload) = to_js(payload) else { return };
        for listener in called {
            let _ = listener.call1(&JsValue::NULL, &payload);
        }
    }

    /// Runs the engine's connection loop `run` (its end with an error is a
    /// `relay_error`) and forwards each of `events`, named and shaped by `to_js`.
    pub(crate) fn pump<E: 'static>(
        &self,
        run: impl Future<Output = latch_walletconnect::Result<()>> + 'static,
        mut events: Receiver<E>,
        to_js: fn(E) -> (&'static str, Value),
    ) {
        let on_error = self.clone();
        spawn(async move {
            if let Err(error) = run.await {
                let payload = json!({ "message": error.to_string(), "code": error.code() });
                on_error.dispatch("relay_error", &payload);
            }
        });
        let on_event = self.clone();
        spawn(async move {
            while let Some(event) = events.recv().await {
                let (name, payload) = to_js(event);
                on_event.dispatch(name, &payload);
            }
        });
    }
}
