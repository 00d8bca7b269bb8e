//! latch-vault against what standard tools give for one seed
//! (tests/vectors/standard-tools.json, written by generate.mjs with ethers 6,
//! ed25519-hd-key, @solana/web3.js and @noble/curves), and against EIP-712's
//! own worked example. Signatures are also checked by recovery with alloy and
//! verification with ed25519-dalek, independently of the byte comparison.

use alloy_primitives::{keccak256, Address, Signature, B256};
use ed25519_dalek::{Verifier, VerifyingKey};
use latch_vault::{evm, Seed, Wallet};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("vectors/standard-tools.json")).unwrap()
}

fn bytes(value: &Value) -> Vec<u8> {
    hex::decode(value.as_str().unwrap().trim_start_matches("0x")).unwrap()
}

fn wallet(v: &Value) -> Wallet {
    Wallet::from_seed(&Seed::new(bytes(&v["seed"]).try_into().unwrap())).unwrap()
}

#[test]
fn accounts_match_ethers_and_solana_web3() {
    let v = vectors();
    let wallet = wallet(&v);
    let expected: Address = v["evm"]["address"].as_str().unwrap().parse().unwrap();
    assert_eq!(wallet.evm_address(), expected);
    assert_eq!(wallet.solana_address(), v["solana"]["address"].as_str().unwrap());
    let exported = wallet.export();
    assert_eq!(*exported.evm, v["evm"]["privateKey"].as_str().unwrap());
    let keypair = bs58::decode(exported.solana.as_str()).into_vec().unwrap();
    assert_eq!(keypair.len(), 64);
    assert_eq!(keypair[..32], bytes(&v["solana"]["privateKey"])[..]);
    assert_eq!(
        bs58::encode(&keypair[32..]).into_string(),
        v["solana"]["address"].as_str().unwrap()
    );
}

#[test]
fn personal_sign_matches_ethers() {
    let v = vectors();
    let wallet = wallet(&v);
    for case in v["personalSign"].as_array().unwrap() {
        let message = case["message"].as_str().unwrap();
        let signature = wallet.personal_sign(message).unwrap();
        assert_eq!(signature.to_vec(), bytes(&case["signature"]), "{message}");
        let recovered = Signature::try_from(&signature[..])
            .unwrap()
            .recover_address_from_msg(evm::personal_message_bytes(message))
            .unwrap();
        assert_eq!(recovered, wallet.evm_address());
    }
    // Text that only looks like hex is signed as text.
    assert_eq!(evm::personal_message_bytes("0xzz"), b"0xzz");
    assert_eq!(evm::personal_message_bytes("0x123"), b"0x123");
    assert_eq!(evm::personal_message_bytes("0x"), Vec::<u8>::new());
}

#[test]
fn typed_data_matches_ethers() {
    let v = vectors();
    let wallet = wallet(&v);
    let json = v["typedData"]["data"].to_string();
    let signature = wallet.sign_typed_data(&json).unwrap();
    assert_eq!(signature.to_vec(), bytes(&v["typedData"]["signature"]));
    let hash = evm::typed_data_hash(&json).unwrap();
    let recovered = Signature::try_from(&signature[..])
        .unwrap()
        .recover_address_from_prehash(&hash)
        .unwrap();
    assert_eq!(recovered, wallet.evm_address());
}

/// EIP-712's example: the Mail digest and the signature by the key
/// keccak256("cow") (address 0xCD2a…D826), as printed in the EIP.
#[test]
fn typed_data_eip712_mail_example() {
    let v = vectors();
    let json = v["typedData"]["data"].to_string();
    assert_eq!(
        evm::typed_data_hash(&json).unwrap(),
        "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
            .parse::<B256>()
            .unwrap()
    );
    let cow = k256::ecdsa::SigningKey::from_bytes(&keccak256("cow").0.into()).unwrap();
    assert_eq!(
        evm::address(&cow),
        "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826".parse::<Address>().unwrap()
    );
    let signature = evm::sign_typed_data(&cow, &json).unwrap();
    assert_eq!(
        hex::encode(&signature[..32]),
        "4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d"
    );
    assert_eq!(
        hex::encode(&signature[32..64]),
        "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b91562"
    );
    assert_eq!(signature[64], 28);
}

#[test]
fn typed_data_errors_are_clear() {
    let wallet = wallet(&vectors());
    for bad in [
        "",
        "{}",
        r#"{"types":{},"primaryType":"Nope","domain":{},"message":{}}"#,
    ] {
        let error = wallet.sign_typed_data(bad).unwrap_err();
        assert!(error.to_string().starts_with("Invalid typed data"), "{error}");
    }
}

#[test]
fn transactions_match_ethers() {
    let v = vectors();
    let wallet = wallet(&v);
    for case in v["transactions"].as_array().unwrap() {
        let request = case["request"].to_string();
        let raw = wallet.sign_transaction(&request).unwrap();
        assert_eq!(raw, bytes(&case["raw"]), "{request}");
        assert_eq!(keccak256(&raw), case["hash"].as_str().unwrap().parse::<B256>().unwrap());
        // Recover the sender from the signing hash and the signature's r, s, parity.
        let tx = evm::Transaction::parse(&request, wallet.evm_address()).unwrap();
        let recovered = recover_sender(&raw, tx.signing_hash());
        assert_eq!(recovered, wallet.evm_address());
    }
}

/// r, s and parity are the last three RLP items of both encodings.
fn recover_sender(raw: &[u8], hash: B256) -> Address {
    let tail = &raw[raw.len() - 66..];
    // …, v or y parity (1 or 3 bytes), 0xa0 r, 0xa0 s
    assert_eq!(tail[0], 0xa0);
    assert_eq!(tail[33], 0xa0);
    let v = raw[raw.len() - 67];
    let parity = match v {
        0x80 => false,
        0x01 => true,
        // EIP-155 v = 35 + 2·chain id + parity, chain 31337: 0x82 0xf4 0xf5 / 0xf6.
        _ => (v - 35) % 2 == 1,
    };
    let mut rs = [0u8; 64];
    rs[..32].copy_from_slice(&tail[1..33]);
    rs[32..].copy_from_slice(&tail[34..66]);
    let signature = Signature::from_bytes_and_parity(&rs, parity);
    signature.recover_address_from_prehash(&hash).unwrap()
}

#[test]
fn transaction_errors_are_clear() {
    let wallet = wallet(&vectors());
    let other = r#"{"type":"0x2","chainId":"0x1","nonce":"0x0","gas":"0x5208","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x1","from":"0x0000000000000000000000000000000000000001","to":"0x0000000000000000000000000000000000000002"}"#;
    for bad in [
        "",
        "[]",
        r#"{"chainId":"0x1","nonce":"0x0","gas":"0x5208"}"#,
        r#"{"type":"0x0","chainId":"0x1","nonce":"0x0","gas":"0x5208","to":"0x0000000000000000000000000000000000000002"}"#,
        r#"{"type":"0x0","chainId":"0x1","nonce":"0x0","gas":"0x5208","gasPrice":"0x1"}"#,
        r#"{"type":"0x1","chainId":"0x1","nonce":"0x0","gas":"0x5208","gasPrice":"0x1","to":"0x0000000000000000000000000000000000000002"}"#,
        r#"{"type":"0x2","chainId":"0x10000000000000000","nonce":"0x0","gas":"0x5208","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x1"}"#,
        r#"{"type":"0x2","chainId":"0x1","nonce":"0x0","gas":"0x5208","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x1","data":"0x01","input":"0x02"}"#,
        other,
    ] {
        let error = wallet.sign_transaction(bad).unwrap_err();
        assert!(error.to_string().starts_with("Invalid transaction"), "{bad}: {error}");
    }
}

#[test]
fn solana_matches_web3_and_noble() {
    let v = vectors();
    let wallet = wallet(&v);
    let public: [u8; 32] = bs58::decode(wallet.solana_address())
        .into_vec()
        .unwrap()
        .try_into()
        .unwrap();
    let public = VerifyingKey::from_bytes(&public).unwrap();

    let message = bytes(&v["solanaSignMessage"]["message"]);
    let signature = wallet.solana_sign_message(&message);
    assert_eq!(signature.to_vec(), bytes(&v["solanaSignMessage"]["signature"]));
    public
        .verify(&message, &ed25519_dalek::Signature::from_bytes(&signature))
        .unwrap();

    let unsigned = bytes(&v["solanaSignTransaction"]["unsigned"]);
    let signed = wallet.solana_sign_transaction(&unsigned).unwrap();
    assert_eq!(signed, bytes(&v["solanaSignTransaction"]["signed"]));
    let slot: [u8; 64] = signed[1..65].try_into().unwrap();
    public
        .verify(&signed[65..], &ed25519_dalek::Signature::from_bytes(&slot))
        .unwrap();

    // Not a signer of this transaction: another wallet is refused.
    let stranger = Wallet::from_seed(&Seed::new([42; 32])).unwrap();
    let error = stranger.solana_sign_transaction(&unsigned).unwrap_err();
    assert!(error.to_string().contains("not a signer"), "{error}");
    assert!(wallet.solana_sign_transaction(&[]).is_err());
}
