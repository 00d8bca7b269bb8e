//! `vectors/solana_transfer.json` (generated from @solana/web3.js and @solana/spl-token by
//! `vectors/solana_transfer.gen.mjs`) against latch-core: the same transaction bytes,
//! associated token addresses and base units.

mod common;

use common::{opt_text, text};
use latch_core::solana_transfer::{self, SolanaTransferRequest};
use latch_core::validate::deserialize_input;
use serde_json::json;

#[test]
fn solana_transfer_vectors() {
    common::check_file(
        include_str!("../vectors/solana_transfer.json"),
        &[
            ("buildSolanaTransfer", |a| {
                let request: SolanaTransferRequest = deserialize_input("Solana transfer", a[0].clone())?;
                Ok(json!(solana_transfer::build_transfer(&request)?))
            }),
            ("solanaAssociatedTokenAddress", |a| {
                Ok(json!(solana_transfer::associated_token_address_text(
                    text(a, 0),
                    text(a, 1),
                    opt_text(a, 2)
                )?))
            }),
            ("parseSolanaAmount", |a| {
                let decimals = a[1]
                    .as_u64()
                    .and_then(|d| u8::try_from(d).ok())
                    .expect("decimals 0..=255");
                Ok(json!(solana_transfer::parse_amount(text(a, 0), decimals)?.to_string()))
            }),
        ],
    );
}
