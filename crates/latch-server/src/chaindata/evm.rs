//! Reading EVM contracts through the gateway: `eth_call`, Multicall3 batches,
//! and the ABI of the few functions chain data needs.

use alloy_primitives::{Address, U256};
use alloy_sol_types::{sol, SolCall};
use axum::body::Bytes;
use latch_core::swap::abi;
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};
use crate::gateway::Gateway;

/// The canonical Multicall3 address (the same on every chain that has it; the devnet places it there).
pub const MULTICALL3: Address = alloy_primitives::address!("cA11bde05977b3631167028862bE2a173976CA11");

sol! {
    function getEthBalance(address addr) returns (uint256 balance);
    function balanceOf(address owner) returns (uint256 balance);
    function getPair(address tokenA, address tokenB) returns (address pair);
    function getReserves() returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function token0() returns (address token);
    function resolver(bytes32 node) returns (address resolverAddress);
    function name(bytes32 node) returns (string resolvedName);
    function addr(bytes32 node) returns (address resolvedAddress);
    function text(bytes32 node, string key) returns (string value);
}

/// The upstream's answer was not what the contract's ABI promises.
fn malformed(what: &str, detail: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{what}: {detail}"))
}

/// `eth_call` of `data` on `to` at the latest block of `chain`; the returned bytes.
pub async fn eth_call(gateway: &Gateway, chain: &str, to: Address, data: Vec<u8>) -> ApiResult<Vec<u8>> {
    call(
        gateway,
        chain,
        json!({"to": to.to_string(), "data": format!("0x{}", hex::encode(data))}),
    )
    .await
}

/// A "deployless" `eth_call` at the latest block of `chain`: `code` (creation
/// code and constructor arguments) runs as if deployed, nothing is; the bytes
/// its constructor returns.
pub async fn deployless_call(gateway: &Gateway, chain: &str, code: Vec<u8>) -> ApiResult<Vec<u8>> {
    call(gateway, chain, json!({"data": format!("0x{}", hex::encode(code))})).await
}

async fn call(gateway: &Gateway, chain: &str, transaction: Value) -> ApiResult<Vec<u8>> {
    hex_result(gateway, chain, "eth_call", json!([transaction, "latest"])).await
}

/// One JSON-RPC call to the chain's upstreams (the server's own read, past the public
/// method policy) whose result is a hex string; its bytes.
pub async fn hex_result(gateway: &Gateway, chain: &str, method: &str, params: Value) -> ApiResult<Vec<u8>> {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let reply = gateway.call_internal(chain, Bytes::from(request.to_string())).await?;
    let reply: Value = serde_json::from_slice(&reply.0).map_err(|e| malformed(method, e))?;
    if let Some(error) = reply.get("error") {
        return Err(malformed(method, error));
    }
    let result = reply
        .get("result")
        .and_then(Value::as_str)
        .ok_or_else(|| malformed(method, "no result"))?;
    let digits = result.trim_start_matches("0x");
    // Quantities (`eth_getBalance`) drop leading zeros, so they may have an odd length.
    let padded = if digits.len() % 2 == 1 {
        format!("0{digits}")
    } else {
        digits.to_owned()
    };
    hex::decode(padded).map_err(|e| malformed(method, e))
}

/// One call of a Multicall3 batch; failures are allowed (a missing contract must not fail the batch).
pub struct Call {
    /// The contract.
    pub target: Address,
    /// ABI-encoded call data.
    pub data: Vec<u8>,
}

/// Runs `calls` in one `aggregate3` through Multicall3; each result is `None` when that call reverted.
pub async fn multicall(gateway: &Gateway, chain: &str, calls: Vec<Call>) -> ApiResult<Vec<Option<Vec<u8>>>> {
    let count = calls.len();
    // One encoder for every batch: latch-core's (swap quotes and chain data alike).
    let batch: Vec<abi::Call3> = calls
        .iter()
        .map(|c| abi::Call3 {
            target: c.target,
            data: c.data.clone(),
        })
        .collect();
    let encoded = abi::aggregate3_data(&batch);
    let reply = eth_call(gateway, chain, MULTICALL3, encoded).await?;
    if reply.is_empty() {
        // No code at the Multicall3 address: this chain lacks it (a bare devnet, a young L2).
        return Ok(one_by_one(gateway, chain, calls).await);
    }
    let results = abi::decode_aggregate3(&reply).ok_or_else(|| malformed("aggregate3", "undecodable answer"))?;
    if results.len() != count {
        return Err(malformed(
            "aggregate3",
            format!("{} results for {count} calls", results.len()),
        ));
    }
    Ok(results)
}

/// The same answers as [`multicall`] on a chain without Multicall3, one call each (concurrently):
/// Multicall3's own `getEthBalance` becomes `eth_getBalance`; a call that fails or returns
/// nothing (no contract) is `None`, as a reverted call in a batch would be.
async fn one_by_one(gateway: &Gateway, chain: &str, calls: Vec<Call>) -> Vec<Option<Vec<u8>>> {
    let reads = calls.into_iter().map(|call| async move {
        if call.target == MULTICALL3 {
            let get = getEthBalanceCall::abi_decode(&call.data).ok()?;
            let raw = hex_result(
                gateway,
                chain,
                "eth_getBalance",
                json!([get.addr.to_string(), "latest"]),
            )
            .await
            .ok()?;
            let balance = U256::try_from_be_slice(&raw)?;
            return Some(getEthBalanceCall::abi_encode_returns(&balance));
        }
        eth_call(gateway, chain, call.target, call.data)
            .await
            .ok()
            .filter(|data| !data.is_empty())
    });
    futures_util::future::join_all(reads).await
}

/// Decodes the return of `C` from a multicall result; `None` when it reverted or is malformed.
pub fn decode<C: SolCall>(result: &Option<Vec<u8>>) -> Option<C::Return> {
    result.as_deref().and_then(|data| C::abi_decode_returns(data).ok())
}

/// The chain's latest block: its number and hash (a reorganised block of the same
/// number has another hash, so caches keyed by both never serve a block that is gone).
pub async fn head(gateway: &Gateway, chain: &str) -> ApiResult<(u64, String)> {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByNumber", "params": ["latest", false]});
    let reply = gateway.call_internal(chain, Bytes::from(request.to_string())).await?;
    let reply: Value = serde_json::from_slice(&reply.0).map_err(|e| malformed("eth_getBlockByNumber", e))?;
    let block = reply
        .get("result")
        .ok_or_else(|| malformed("eth_getBlockByNumber", "no result"))?;
    let number = block
        .get("number")
        .and_then(Value::as_str)
        .and_then(|n| u64::from_str_radix(n.trim_start_matches("0x"), 16).ok());
    let hash = block.get("hash").and_then(Value::as_str);
    match (number, hash) {
        (Some(number), Some(hash)) => Ok((number, hash.to_owned())),
        _ => Err(malformed("eth_getBlockByNumber", "no number or hash")),
    }
}

/// A quantity-valued JSON-RPC call (`eth_gasPrice`, `eth_estimateGas`).
pub async fn quantity(gateway: &Gateway, chain: &str, method: &str, params: Value) -> ApiResult<U256> {
    let raw = hex_result(gateway, chain, method, params).await?;
    U256::try_from_be_slice(&raw).ok_or_else(|| malformed(method, "not a quantity"))
}

/// `amount` of a token with `decimals` as a float (for prices and values, not balances).
pub fn to_f64(amount: U256, decimals: u8) -> f64 {
    let value: f64 = amount.to_string().parse().unwrap_or(0.0);
    value / 10f64.powi(i32::from(decimals))
}
