//! What the frame signs comes from the host page: typed data, transaction
//! objects, Solana wire transactions. None of them may panic the signer.
#![no_main]

use std::sync::OnceLock;

use latch_vault::{Seed, Wallet};
use libfuzzer_sys::fuzz_target;

fn wallet() -> &'static Wallet {
    static WALLET: OnceLock<Wallet> = OnceLock::new();
    WALLET.get_or_init(|| Wallet::from_seed(&Seed::new([1; 32])).expect("a fixed seed derives"))
}

fuzz_target!(|data: &[u8]| {
    let wallet = wallet();
    let _ = wallet.solana_sign_transaction(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = wallet.sign_typed_data(text);
        let _ = wallet.sign_transaction(text);
        let _ = wallet.personal_sign(text);
        // The Solana sign methods' params, as JSON the host page sent.
        if let Ok(params) = latch_core::json::Value::parse(text) {
            for method in latch_core::embedded::solana::SOLANA_METHODS {
                let _ = wallet.solana_sign_request(method, &params);
            }
        }
    }
});
