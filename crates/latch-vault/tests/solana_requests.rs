//! The embedded wallet's Solana sign methods end to end on latch-vault: latch-core reads the
//! WalletConnect params, the key signs, and every signature verifies under the account's key.

use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use latch_core::json;
use latch_core::json::Value;
use latch_core::solana_transfer::{build_transfer, parse_transaction, SolanaTransferRequest};
use latch_vault::{Seed, Wallet};

fn wallet() -> Wallet {
    Wallet::from_seed(&Seed::new([3; 32])).unwrap()
}

fn public(wallet: &Wallet) -> VerifyingKey {
    let bytes: [u8; 32] = bs58::decode(wallet.solana_address())
        .into_vec()
        .unwrap()
        .try_into()
        .unwrap();
    VerifyingKey::from_bytes(&bytes).unwrap()
}

fn transfer(from: &str, amount: &str) -> Vec<u8> {
    build_transfer(&SolanaTransferRequest {
        from: from.into(),
        to: "9hSR6S7WPtxmTojgo6GG3k4yDPecgJY292j7xrsUGWBu".into(),
        amount: amount.into(),
        decimals: None,
        mint: None,
        token_program: None,
        create_receiver_account: None,
        recent_blockhash: "3qbR1eZRqXUWroWKKYhbDmR3FfqTHfqSU8zZSxtANzYh".into(),
    })
    .unwrap()
}

fn signature(value: &Value) -> Signature {
    let bytes: [u8; 64] = bs58::decode(value.as_str().unwrap())
        .into_vec()
        .unwrap()
        .try_into()
        .unwrap();
    Signature::from_bytes(&bytes)
}

fn b64(bytes: &[u8]) -> String {
    latch_core::base64::encode(bytes)
}

/// A signed wire transaction whose fee payer's slot verifies; its message as given.
fn check_signed(key: &VerifyingKey, signed: &[u8], unsigned: &[u8]) -> Signature {
    let split = parse_transaction(signed).unwrap();
    assert_eq!(split.message, parse_transaction(unsigned).unwrap().message);
    let slot = Signature::from_bytes(&split.signatures[0]);
    key.verify(split.message, &slot).unwrap();
    slot
}

#[test]
fn each_method_signs_what_it_was_given() {
    let wallet = wallet();
    let key = public(&wallet);
    let address = wallet.solana_address();

    let message = b"Sign in to shop.example";
    let answer = wallet
        .solana_sign_request(
            "solana_signMessage",
            &json!({"message": bs58::encode(message).into_string(), "pubkey": address}),
        )
        .unwrap();
    key.verify(message, &signature(&answer["signature"])).unwrap();

    let unsigned = transfer(&address, "0.25");
    let answer = wallet
        .solana_sign_request("solana_signTransaction", &json!({"transaction": b64(&unsigned)}))
        .unwrap();
    let signed = latch_core::base64::decode(answer["transaction"].as_str().unwrap()).unwrap();
    assert_eq!(check_signed(&key, &signed, &unsigned), signature(&answer["signature"]));

    let second = transfer(&address, "1");
    let answer = wallet
        .solana_sign_request(
            "solana_signAllTransactions",
            &json!({"transactions": [b64(&unsigned), b64(&second)]}),
        )
        .unwrap();
    let all = answer["transactions"].as_array().unwrap();
    assert_eq!(all.len(), 2);
    for (text, original) in all.iter().zip([&unsigned, &second]) {
        check_signed(
            &key,
            &latch_core::base64::decode(text.as_str().unwrap()).unwrap(),
            original,
        );
    }

    let answer = wallet
        .solana_sign_request(
            "solana_signAndSendTransaction",
            &json!({"transaction": b64(&unsigned), "sendOptions": {"preflightCommitment": "confirmed", "maxRetries": 2}}),
        )
        .unwrap();
    let params = &answer["sendParams"];
    assert_eq!(
        params[1],
        json!({"encoding": "base64", "preflightCommitment": "confirmed", "maxRetries": 2})
    );
    let signed = latch_core::base64::decode(params[0].as_str().unwrap()).unwrap();
    assert_eq!(check_signed(&key, &signed, &unsigned), signature(&answer["signature"]));
}

#[test]
fn another_accounts_request_is_refused() {
    let wallet = wallet();
    let stranger = Wallet::from_seed(&Seed::new([4; 32])).unwrap();
    let theirs = transfer(&stranger.solana_address(), "1");
    let error = wallet
        .solana_sign_request("solana_signTransaction", &json!({"transaction": b64(&theirs)}))
        .unwrap_err();
    assert_eq!(error.code(), "INVALID_SOLANA_REQUEST");
    assert!(
        error.to_string().contains("does not need this account's signature"),
        "{error}"
    );
    let error = wallet
        .solana_sign_request(
            "solana_signMessage",
            &json!({"message": "2NEpo7TZRRrLZSi2U", "pubkey": stranger.solana_address()}),
        )
        .unwrap_err();
    assert_eq!(error.to_string(), "Invalid params: the request names another account");
    assert!(wallet.solana_sign_request("eth_sign", &json!({})).is_err());
}
