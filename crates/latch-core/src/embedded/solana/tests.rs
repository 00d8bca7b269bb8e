use crate::json;
use proptest::prelude::*;

use super::*;
use crate::solana_transfer::{build_transfer, SolanaTransferRequest};

const ALICE: &str = "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv";
const BOB: &str = "9hSR6S7WPtxmTojgo6GG3k4yDPecgJY292j7xrsUGWBu";
const MINT: &str = "8hLX1tyjXmUYYLbKsaevDBykWZXAyMYuYAJrXUvrnmBP";
const BLOCKHASH: &str = "3qbR1eZRqXUWroWKKYhbDmR3FfqTHfqSU8zZSxtANzYh";

fn transfer(mint: Option<&str>) -> Vec<u8> {
    build_transfer(&SolanaTransferRequest {
        from: ALICE.into(),
        to: BOB.into(),
        amount: "1.5".into(),
        decimals: mint.map(|_| 6),
        mint: mint.map(Into::into),
        token_program: None,
        create_receiver_account: None,
        recent_blockhash: BLOCKHASH.into(),
    })
    .unwrap()
}

fn b64(bytes: &[u8]) -> String {
    crate::base64::encode(bytes)
}

fn alice() -> [u8; 32] {
    parse_solana_address(ALICE).unwrap()
}

#[test]
fn sign_message_shows_text_or_hex() {
    let message = bs58::encode("Sign in to shop.example").into_string();
    let approval = summarize(
        "solana_signMessage",
        &json!({"message": message, "pubkey": ALICE}),
        ALICE,
    )
    .unwrap();
    assert_eq!(
        approval.to_json(),
        json!({
            "method": "solana_signMessage",
            "summary": {"kind": "message", "text": "Sign in to shop.example", "isHex": false},
            "sign": {"message": message},
        })
    );
    let binary = bs58::encode([0u8, 1, 2, 0xff]).into_string();
    let approval = summarize("solana_signMessage", &json!([{"message": binary}]), ALICE).unwrap();
    assert_eq!(
        approval.summary,
        Summary::Message {
            text: "0x000102ff".into(),
            is_hex: true
        }
    );
    assert_eq!(
        parse_request("solana_signMessage", &approval.sign, &alice()).unwrap(),
        SignRequest::Message(vec![0, 1, 2, 0xff])
    );
}

#[test]
fn transactions_show_payer_blockhash_and_transfers() {
    let approval = summarize(
        "solana_signTransaction",
        &json!({"transaction": b64(&transfer(None))}),
        ALICE,
    )
    .unwrap();
    assert_eq!(
        approval.to_json()["summary"],
        json!({
            "kind": "solanaTransactions", "send": false,
            "transactions": [{
                "version": "legacy", "feePayer": ALICE, "recentBlockhash": BLOCKHASH, "lookupTables": 0,
                "instructions": [{"kind": "systemTransfer", "from": ALICE, "to": BOB, "lamports": "1500000000", "sol": "1.5"}],
            }],
        })
    );
    assert_eq!(approval.sign, json!({"transaction": b64(&transfer(None))}));

    let token = summarize(
        "solana_signTransaction",
        &json!({"transaction": b64(&transfer(Some(MINT)))}),
        ALICE,
    )
    .unwrap();
    let Summary::SolanaTransactions { transactions, .. } = token.summary else {
        panic!("not transactions")
    };
    let instructions = &transactions[0].instructions;
    assert_eq!(instructions.len(), 2);
    // The associated token program's CreateIdempotent: not decoded, counted.
    assert!(matches!(
        &instructions[0],
        InstructionSummary::Other {
            accounts: 6,
            data_length: 1,
            ..
        }
    ));
    let InstructionSummary::TokenTransfer {
        owner,
        mint,
        amount,
        decimals,
        ..
    } = &instructions[1]
    else {
        panic!("not a token transfer: {:?}", instructions[1])
    };
    assert_eq!((owner.as_str(), mint.as_deref()), (ALICE, Some(MINT)));
    assert_eq!((amount.as_str(), *decimals), ("1500000", Some(6)));
}

#[test]
fn sign_all_and_sign_and_send() {
    let all = summarize(
        "solana_signAllTransactions",
        &json!({"transactions": [b64(&transfer(None)), b64(&transfer(Some(MINT)))]}),
        ALICE,
    )
    .unwrap();
    assert!(
        matches!(&all.summary, Summary::SolanaTransactions { send: false, transactions } if transactions.len() == 2)
    );
    let request = parse_request("solana_signAllTransactions", &all.sign, &alice()).unwrap();
    assert_eq!(
        answer(&request, &[[1; 64], [2; 64]], &[vec![1, 2], vec![3]]),
        json!({"transactions": ["AQI=", "Aw=="]})
    );

    let params = json!({
        "transaction": b64(&transfer(None)),
        "sendOptions": {"skipPreflight": true, "preflightCommitment": "confirmed", "maxRetries": 3, "minContextSlot": 10, "other": 1},
    });
    let send = summarize("solana_signAndSendTransaction", &params, ALICE).unwrap();
    assert!(matches!(send.summary, Summary::SolanaTransactions { send: true, .. }));
    // Members other than the four are dropped.
    assert_eq!(
        send.sign["sendOptions"],
        json!({"skipPreflight": true, "preflightCommitment": "confirmed", "maxRetries": 3, "minContextSlot": 10})
    );
    let request = parse_request("solana_signAndSendTransaction", &send.sign, &alice()).unwrap();
    let signature = bs58::encode([7u8; 64]).into_string();
    assert_eq!(
        answer(&request, &[[7; 64]], &[vec![9]]),
        json!({"signature": signature, "sendParams": ["CQ==", {
            "encoding": "base64", "skipPreflight": true, "preflightCommitment": "confirmed", "maxRetries": 3, "minContextSlot": 10,
        }]})
    );
    let single = parse_request("solana_signTransaction", &json!({"transaction": "CQ=="}), &alice());
    assert!(single.is_err(), "one byte is no transaction");
    let request = SignRequest::Transactions {
        method: "solana_signTransaction",
        wires: vec![vec![9]],
        send: None,
    };
    assert_eq!(
        answer(&request, &[[7; 64]], &[vec![9]]),
        json!({"signature": signature, "transaction": "CQ=="})
    );
}

#[test]
fn bad_requests_are_clear_errors() {
    let tx = b64(&transfer(None));
    let reason = |method: &str, params: Value| summarize(method, &params, ALICE).unwrap_err().to_string();
    assert_eq!(
        reason("solana_signTransaction", json!({"transaction": tx, "pubkey": BOB})),
        "Invalid params: the request names another account"
    );
    // Bob's key signs nothing in Alice's transfer.
    assert_eq!(
        summarize("solana_signTransaction", &json!({"transaction": tx}), BOB)
            .unwrap_err()
            .to_string(),
        "Invalid Solana transaction: the transaction does not need this account's signature"
    );
    assert_eq!(
        reason("solana_signTransaction", json!({"transaction": "not base64!"})),
        "Invalid Solana transaction: a transaction is a base64 wire transaction"
    );
    assert_eq!(
        reason("solana_signTransaction", json!("x")),
        "Invalid params: solana_signTransaction's parameter is an object"
    );
    assert_eq!(
        reason("solana_signMessage", json!({"message": "0OIl"})),
        "Invalid params: solana_signMessage's message is base58 text"
    );
    assert_eq!(
        reason("solana_signMessage", json!({"message": ""})),
        "Invalid params: the message is 1 to 4096 bytes"
    );
    assert_eq!(
        reason("solana_signAllTransactions", json!({"transactions": []})),
        "Invalid params: transactions holds 1 to 16 transactions"
    );
    assert_eq!(
        reason(
            "solana_signAndSendTransaction",
            json!({"transaction": tx, "sendOptions": {"preflightCommitment": "max"}})
        ),
        "Invalid sendOptions: preflightCommitment is processed, confirmed or finalized"
    );
    assert_eq!(
        reason(
            "solana_signAndSendTransaction",
            json!({"transaction": tx, "sendOptions": {"maxRetries": -1}})
        ),
        "Invalid sendOptions: maxRetries is a whole number"
    );
    assert_eq!(
        reason(
            "solana_signAndSendTransaction",
            json!({"transaction": tx, "sendOptions": {"skipPreflight": "yes"}})
        ),
        "Invalid sendOptions: skipPreflight is true or false"
    );
    let huge = b64(&vec![1u8; MAX_TRANSACTION_BYTES + 1]);
    assert_eq!(
        reason("solana_signTransaction", json!({"transaction": huge})),
        "Invalid Solana transaction: a transaction is at most 1232 bytes"
    );
    assert_eq!(
        summarize("solana_signTransaction", &json!({"transaction": tx}), "0xabc")
            .unwrap_err()
            .code(),
        "INVALID_SOLANA_ADDRESS"
    );
    assert_eq!(
        parse_request("solana_signIn", &json!({}), &alice())
            .unwrap_err()
            .to_string(),
        "Requested RPC call is not allowed"
    );
    for method in SOLANA_METHODS {
        assert_eq!(
            crate::policy::classify_rpc_method(method),
            crate::policy::RpcMethodClass::Approval
        );
    }
}

proptest! {
    #[test]
    fn any_transaction_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let params = json!({"transaction": b64(&bytes)});
        let _ = summarize("solana_signAndSendTransaction", &params, ALICE);
    }

    #[test]
    fn changed_transfers_are_read_or_refused(at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut wire = transfer(Some(MINT));
        let i = at.index(wire.len());
        wire[i] = byte;
        if let Ok(approval) = summarize("solana_signTransaction", &json!({"transaction": b64(&wire)}), ALICE) {
            // What is signed is what was read: the same bytes.
            prop_assert_eq!(approval.sign, json!({"transaction": b64(&wire)}));
        }
    }

    #[test]
    fn any_message_round_trips(bytes in prop::collection::vec(any::<u8>(), 1..200)) {
        let params = json!({"message": bs58::encode(&bytes).into_string()});
        let approval = summarize("solana_signMessage", &params, ALICE).unwrap();
        prop_assert_eq!(parse_request("solana_signMessage", &approval.sign, &alice()).unwrap(), SignRequest::Message(bytes));
    }
}
