//! `wallet_sendCalls` and `wallet_getCallsStatus` (EIP-5792) for the embedded wallet, an EOA:
//! the batch is shown once in ApproveTransaction, call by call, then sent as sequential
//! transactions (not atomically: a request that requires atomicity is refused). What each call
//! signs is what [`super::approval::summarize`] makes of an `eth_sendTransaction`, so a batch is
//! checked exactly as a single transaction is.

use crate::json::{Object, Value};

use super::approval::{invalid, quantity, quantity_hex, same_account, transaction, Summary};
use crate::Result;
use alloy_primitives::Address;

/// Most calls in one batch: each is a transaction the user pays for and waits on.
pub const MAX_CALLS: usize = 16;
/// Longest app-given batch id (EIP-5792 ids are at most 4096 bytes; Latch keeps them short).
pub const MAX_ID_BYTES: usize = 256;

/// EIP-5792 status codes of `wallet_getCallsStatus`.
pub mod status {
    /// Not all calls are on chain yet.
    pub const PENDING: u16 = 100;
    /// Every call is on chain and succeeded.
    pub const CONFIRMED: u16 = 200;
    /// Nothing reached the chain.
    pub const OFFCHAIN_FAILURE: u16 = 400;
    /// Every call that reached the chain reverted.
    pub const REVERTED: u16 = 500;
    /// Some calls succeeded, others reverted or were never sent.
    pub const PARTIALLY_REVERTED: u16 = 600;
}

/// Refuses capabilities the wallet lacks unless the app marked them optional (EIP-5792).
fn capabilities(value: Option<&Value>) -> Result<()> {
    match value {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Object(map)) => {
            for (name, capability) in map {
                let optional = capability.get("optional").and_then(Value::as_bool) == Some(true);
                if !optional {
                    return Err(invalid(
                        "capabilities",
                        format!("{name} is not supported by this wallet"),
                    ));
                }
            }
            Ok(())
        }
        Some(_) => Err(invalid("capabilities", "capabilities are an object")),
    }
}

/// Reads a `wallet_sendCalls` request for `account`: the summary (one transaction per call) and
/// `sign`: `{calls: [call…], id, chainId}`, each call an `eth_sendTransaction` object that
/// [`super::approval::prepare_transaction`] completes, carrying the batch's `chainId` when it
/// names one (so a batch for another chain is refused there).
pub(super) fn summarize_calls(batch: &Object, account: Address) -> Result<(Summary, Value)> {
    if let Some(from) = batch.get("from").filter(|v| !v.is_null()) {
        same_account(from, account).map_err(|_| invalid("calls", "from is not this account"))?;
    }
    if batch.get("atomicRequired").and_then(Value::as_bool) == Some(true) {
        return Err(invalid(
            "calls",
            "atomic execution is not supported: this wallet sends the calls one after another",
        ));
    }
    capabilities(batch.get("capabilities"))?;
    let chain_id = quantity(batch, "chainId").map_err(|_| invalid("calls", "chainId is a 0x quantity"))?;
    let id = match batch.get("id") {
        None | Some(Value::Null) => Value::Null,
        Some(Value::String(id)) if !id.is_empty() && id.len() <= MAX_ID_BYTES => Value::String(id.clone()),
        Some(_) => return Err(invalid("calls", format!("id is text of 1 to {MAX_ID_BYTES} bytes"))),
    };
    let Some(Value::Array(calls)) = batch.get("calls") else {
        return Err(invalid("calls", "calls is a list"));
    };
    if calls.is_empty() || calls.len() > MAX_CALLS {
        return Err(invalid("calls", format!("a batch has 1 to {MAX_CALLS} calls")));
    }
    let mut summaries = Vec::with_capacity(calls.len());
    let mut signs = Vec::with_capacity(calls.len());
    for call in calls {
        let Value::Object(call) = call else {
            return Err(invalid("calls", "each call is an object"));
        };
        capabilities(call.get("capabilities"))?;
        // Behaviour 5.17: a call's target starts with 0x (transaction() checks the whole address).
        if let Some(to) = call.get("to").and_then(Value::as_str) {
            if !to.starts_with("0x") {
                return Err(invalid("calls", "to: Invalid input"));
            }
        }
        // Only what EIP-5792 lets a call say: its target, value and data.
        let mut tx = Object::new();
        for key in ["to", "value", "data"] {
            if let Some(value) = call.get(key).filter(|v| !v.is_null()) {
                tx.insert(key.into(), value.clone());
            }
        }
        let (summary, Value::Object(mut sign)) = transaction(&tx, account)? else {
            return Err(invalid("calls", "a call is an object"));
        };
        if let Some(chain_id) = chain_id {
            sign.insert("chainId".into(), quantity_hex(chain_id).into());
        }
        summaries.push(summary);
        signs.push(Value::Object(sign));
    }
    let mut sign = Object::new();
    sign.insert("calls".into(), Value::Array(signs));
    sign.insert("id".into(), id);
    sign.insert(
        "chainId".into(),
        chain_id.map(|c| quantity_hex(c).into()).unwrap_or(Value::Null),
    );
    Ok((Summary::Calls { calls: summaries }, Value::Object(sign)))
}

/// The EIP-5792 status of a batch of `total` calls: `receipts` has one entry per transaction
/// sent so far, in order (`None` not mined yet, `Some(true)` succeeded, `Some(false)` reverted);
/// `finished` says the frame stopped sending (all sent, or a send failed and the rest were not).
pub fn calls_status(total: usize, receipts: &[Option<bool>], finished: bool) -> u16 {
    if !finished || receipts.iter().any(Option::is_none) {
        return status::PENDING;
    }
    if receipts.is_empty() {
        return status::OFFCHAIN_FAILURE;
    }
    let succeeded = receipts.iter().filter(|r| **r == Some(true)).count();
    if succeeded == 0 {
        status::REVERTED
    } else if succeeded == total && receipts.len() == total {
        status::CONFIRMED
    } else {
        status::PARTIALLY_REVERTED
    }
}

#[cfg(test)]
mod tests {
    use super::super::approval::summarize;
    use super::*;
    use crate::json;

    const ACCOUNT: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const BOB: &str = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    const TOKEN: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

    fn transfer_data() -> String {
        // transfer(BOB, 1_000_000)
        format!(
            "0xa9059cbb000000000000000000000000{}{:064x}",
            BOB[2..].to_ascii_lowercase(),
            1_000_000u64
        )
    }

    fn reason(result: Result<super::super::approval::Approval>) -> String {
        match result {
            Err(crate::Error::InvalidInput { what, reason }) => format!("{what}: {reason}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_batch_is_shown_call_by_call_with_transfers_decoded() {
        let params = json!([{
            "version": "2.0.0", "chainId": "0x7a69", "from": ACCOUNT, "atomicRequired": false,
            "calls": [
                {"to": BOB, "value": "0x16345785d8a0000"},
                {"to": TOKEN, "data": transfer_data()},
            ],
            "capabilities": {"paymasterService": {"url": "https://pay.example", "optional": true}},
        }]);
        let approval = summarize("wallet_sendCalls", &params, ACCOUNT).unwrap();
        let shown = approval.to_json();
        assert_eq!(shown["summary"]["kind"], "calls");
        let calls = shown["summary"]["calls"].as_array().unwrap();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0]["kind"], "transaction");
        assert_eq!(calls[0]["to"], BOB);
        assert_eq!(calls[0]["valueEther"], "0.1");
        assert_eq!(calls[0]["transfer"], Value::Null);
        assert_eq!(calls[1]["to"], TOKEN);
        assert_eq!(calls[1]["transfer"], json!({"to": BOB, "amount": "1000000"}));
        let sign = &approval.sign;
        assert_eq!(sign["id"], Value::Null);
        assert_eq!(sign["chainId"], "0x7a69");
        assert_eq!(
            sign["calls"][0],
            json!({"from": ACCOUNT, "to": BOB, "value": "0x16345785d8a0000", "data": "0x", "chainId": "0x7a69"})
        );
        assert_eq!(sign["calls"][1]["data"], transfer_data());
        assert_eq!(sign["calls"][1]["value"], "0x0");
    }

    #[test]
    fn what_an_eoa_cannot_do_is_refused_clearly() {
        let batch = |extra: Value| {
            let mut batch = json!({"version": "2.0.0", "calls": [{"to": BOB}]});
            let fields = batch.as_object_mut().unwrap();
            for (key, value) in extra.as_object().unwrap() {
                fields.insert(key.clone(), value.clone());
            }
            json!([batch])
        };
        let refused = |extra: Value| reason(summarize("wallet_sendCalls", &batch(extra), ACCOUNT));
        assert!(refused(json!({"atomicRequired": true})).contains("atomic"));
        assert_eq!(
            refused(json!({"capabilities": {"paymasterService": {"url": "https://pay.example"}}})),
            "capabilities: paymasterService is not supported by this wallet"
        );
        assert_eq!(refused(json!({"from": BOB})), "calls: from is not this account");
        assert_eq!(refused(json!({"calls": []})), "calls: a batch has 1 to 16 calls");
        let many: Vec<Value> = (0..=MAX_CALLS).map(|_| json!({"to": BOB})).collect();
        assert_eq!(refused(json!({"calls": many})), "calls: a batch has 1 to 16 calls");
        assert_eq!(refused(json!({"calls": "nope"})), "calls: calls is a list");
        assert_eq!(refused(json!({"calls": [7]})), "calls: each call is an object");
        assert_eq!(
            refused(json!({"calls": [{"to": "bob.eth"}]})),
            "calls: to: Invalid input"
        );
        assert_eq!(refused(json!({"chainId": "31337"})), "calls: chainId is a 0x quantity");
        assert_eq!(refused(json!({"id": ""})), "calls: id is text of 1 to 256 bytes");
        assert_eq!(
            refused(json!({"calls": [{"to": BOB, "capabilities": {"x": {}}}]})),
            "capabilities: x is not supported by this wallet"
        );
        assert_eq!(
            reason(summarize("wallet_sendCalls", &json!([]), ACCOUNT)),
            "calls: wallet_sendCalls's parameter is an object"
        );
        // A call may not smuggle fields a batch cannot set (its own nonce, gas, sender).
        let approval = summarize(
            "wallet_sendCalls",
            &json!([{"calls": [{"to": BOB, "nonce": "0x5", "gas": "0x1", "from": BOB}], "id": "app-1"}]),
            ACCOUNT,
        )
        .unwrap();
        assert_eq!(
            approval.sign["calls"][0],
            json!({"from": ACCOUNT, "to": BOB, "value": "0x0", "data": "0x"})
        );
        assert_eq!(approval.sign["id"], "app-1");
    }

    #[test]
    fn a_batch_for_another_chain_is_refused_when_prepared() {
        let approval = summarize(
            "wallet_sendCalls",
            &json!([{"chainId": "0x1", "calls": [{"to": BOB}]}]),
            ACCOUNT,
        )
        .unwrap();
        let chain = super::super::approval::ChainState {
            chain_id: "eip155:31337",
            nonce: "0x0",
            gas: "0x5208",
            base_fee: "0x1",
            priority_fee: "0x1",
        };
        assert!(super::super::approval::prepare_transaction(&approval.sign["calls"][0], &chain).is_err());
    }

    #[test]
    fn statuses_follow_eip_5792() {
        use status::*;
        assert_eq!(calls_status(2, &[Some(true)], false), PENDING);
        assert_eq!(calls_status(2, &[Some(true), None], true), PENDING);
        assert_eq!(calls_status(2, &[Some(true), Some(true)], true), CONFIRMED);
        assert_eq!(calls_status(2, &[], true), OFFCHAIN_FAILURE);
        assert_eq!(calls_status(2, &[Some(false), Some(false)], true), REVERTED);
        assert_eq!(calls_status(2, &[Some(false)], true), REVERTED);
        assert_eq!(calls_status(2, &[Some(true), Some(false)], true), PARTIALLY_REVERTED);
        assert_eq!(calls_status(2, &[Some(true)], true), PARTIALLY_REVERTED);
        assert_eq!(calls_status(1, &[Some(true)], true), CONFIRMED);
    }
}
