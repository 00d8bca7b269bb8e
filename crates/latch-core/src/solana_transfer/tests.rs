use proptest::prelude::*;

use super::*;

const ALICE: &str = "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv";
const BOB: &str = "9hSR6S7WPtxmTojgo6GG3k4yDPecgJY292j7xrsUGWBu";
const MINT: &str = "8hLX1tyjXmUYYLbKsaevDBykWZXAyMYuYAJrXUvrnmBP";
const BLOCKHASH: &str = "3qbR1eZRqXUWroWKKYhbDmR3FfqTHfqSU8zZSxtANzYh";

fn request(amount: &str) -> SolanaTransferRequest {
    SolanaTransferRequest {
        from: ALICE.to_owned(),
        to: BOB.to_owned(),
        amount: amount.to_owned(),
        decimals: None,
        mint: None,
        token_program: None,
        create_receiver_account: None,
        recent_blockhash: BLOCKHASH.to_owned(),
    }
}

#[test]
fn sol_transfer_layout() {
    let tx = build_transfer(&request("1.5")).unwrap();
    // One empty signature slot, then header 1 signer, 0 read-only signers, 1 read-only (System).
    assert_eq!(tx[0], 1);
    assert!(tx[1..65].iter().all(|&b| b == 0));
    assert_eq!(&tx[65..69], &[1, 0, 1, 3]);
    let message = &tx[65..];
    assert_eq!(&message[4..36], &parse_solana_address(ALICE).unwrap());
    assert_eq!(&message[36..68], &parse_solana_address(BOB).unwrap());
    assert_eq!(&message[68..100], &SYSTEM_PROGRAM_ID);
    assert_eq!(&message[100..132], &parse_solana_address(BLOCKHASH).unwrap());
    // One instruction: System (index 2), accounts 0 and 1, Transfer (2) of 1.5e9 lamports.
    let mut ix = vec![1, 2, 2, 0, 1, 12, 2, 0, 0, 0];
    ix.extend_from_slice(&1_500_000_000u64.to_le_bytes());
    assert_eq!(&message[132..], &ix[..]);
}

#[test]
fn token_transfer_creates_the_account_unless_told_not_to() {
    let mut with = request("2");
    with.mint = Some(MINT.to_owned());
    with.decimals = Some(6);
    let without = SolanaTransferRequest {
        create_receiver_account: Some(false),
        ..with.clone()
    };
    let (created, plain) = (build_transfer(&with).unwrap(), build_transfer(&without).unwrap());
    // Instruction count is the byte after header, keys and blockhash.
    let count = |tx: &[u8]| {
        let keys = usize::from(tx[65 + 3]);
        tx[65 + 4 + 32 * keys + 32]
    };
    assert_eq!((count(&created), count(&plain)), (2, 1));
    // Sender, mint and the receiver's ATA are in both; the ATA program only in the first.
    let ata_program = ASSOCIATED_TOKEN_PROGRAM_ID;
    let contains = |tx: &[u8], key: &[u8; 32]| tx.windows(32).any(|w| w == key);
    assert!(contains(&created, &ata_program) && !contains(&plain, &ata_program));
    let receiver_ata = associated_token_address(
        &parse_solana_address(BOB).unwrap(),
        &parse_solana_address(MINT).unwrap(),
        &TOKEN_PROGRAM_ID,
    );
    assert!(contains(&created, &receiver_ata) && contains(&plain, &receiver_ata));
}

#[test]
fn blank_fields_get_the_spec_message() {
    for (amount, to) in [("", BOB), ("  ", BOB), ("1", ""), ("1", " ")] {
        let mut r = request(amount);
        r.to = to.to_owned();
        let err = build_transfer(&r).unwrap_err();
        assert_eq!(err.to_string(), "Please enter a valid amount and receiver address");
        assert_eq!(err.code(), "INCOMPLETE_SEND_DRAFT");
    }
}

#[test]
fn unknown_fields_are_refused() {
    let json =
        serde_json::json!({ "from": ALICE, "to": BOB, "amount": "1", "recentBlockhash": BLOCKHASH, "lamports": 5 });
    let err = crate::validate::deserialize_input::<SolanaTransferRequest, _>("Solana transfer", json).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Invalid Solana transfer: unknown field `lamports`"),
        "{err}"
    );
}

proptest! {
    #[test]
    fn never_panics(
        from in "\\PC{0,50}", to in "\\PC{0,50}", amount in "\\PC{0,30}", decimals in proptest::option::of(any::<u8>()),
        mint in proptest::option::of("\\PC{0,50}"), blockhash in "\\PC{0,50}", create in proptest::option::of(any::<bool>()),
    ) {
        let _ = build_transfer(&SolanaTransferRequest {
            from, to, amount, decimals, mint, token_program: None, create_receiver_account: create, recent_blockhash: blockhash,
        });
    }

    #[test]
    fn any_valid_sol_amount_builds(lamports in 1..=u64::MAX) {
        let tx = build_transfer(&request(&format_amount(lamports, SOL_DECIMALS))).unwrap();
        prop_assert_eq!(&tx[tx.len() - 8..], &lamports.to_le_bytes()[..]);
    }

    #[test]
    fn any_keys_build(from in proptest::array::uniform32(any::<u8>()), to in proptest::array::uniform32(any::<u8>()),
                      mint in proptest::array::uniform32(any::<u8>()), units in 1..=u64::MAX, decimals in 0u8..=19) {
        let r = SolanaTransferRequest {
            from: bs58::encode(from).into_string(),
            to: bs58::encode(to).into_string(),
            amount: format_amount(units, decimals),
            decimals: Some(decimals),
            mint: Some(bs58::encode(mint).into_string()),
            token_program: Some("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb".to_owned()),
            create_receiver_account: None,
            recent_blockhash: BLOCKHASH.to_owned(),
        };
        let tx = build_transfer(&r).unwrap();
        // TransferChecked's data ends the transaction: amount, then decimals.
        prop_assert_eq!(tx[tx.len() - 1], decimals);
        prop_assert_eq!(&tx[tx.len() - 9..tx.len() - 1], &units.to_le_bytes()[..]);
    }
}
