use proptest::prelude::*;

use super::*;
use crate::solana_transfer::{build_transfer, parse_transaction, SolanaTransferRequest};

fn sol_transfer() -> Vec<u8> {
    build_transfer(&SolanaTransferRequest {
        from: "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv".into(),
        to: "9hSR6S7WPtxmTojgo6GG3k4yDPecgJY292j7xrsUGWBu".into(),
        amount: "1.5".into(),
        decimals: None,
        mint: None,
        token_program: None,
        create_receiver_account: None,
        recent_blockhash: "3qbR1eZRqXUWroWKKYhbDmR3FfqTHfqSU8zZSxtANzYh".into(),
    })
    .unwrap()
}

#[test]
fn reads_a_legacy_transfer() {
    let wire = sol_transfer();
    let message = decode_message(parse_transaction(&wire).unwrap().message).unwrap();
    assert_eq!(message.version, None);
    assert_eq!(
        message.header,
        MessageHeader {
            required_signatures: 1,
            readonly_signed: 0,
            readonly_unsigned: 1
        }
    );
    assert_eq!(message.account_keys.len(), 3);
    assert_eq!(message.instructions.len(), 1);
    assert_eq!(message.instructions[0].program_index, 2);
    assert_eq!(message.instructions[0].accounts, vec![0, 1]);
    assert_eq!(message.instructions[0].data.len(), 12);
    assert!(message.lookups.is_empty());
    assert_eq!(message.serialize(), &wire[65..]);
}

#[test]
fn reads_a_v0_message_with_a_lookup() {
    let legacy = sol_transfer()[65..].to_vec();
    let mut message = decode_message(&legacy).unwrap();
    message.version = Some(0);
    // The instruction's receiver from a table: index 3 is the table's writable entry 7.
    message.instructions[0].accounts = vec![0, 3];
    message.lookups.push(AddressTableLookup {
        table: [9; 32],
        writable: vec![7],
        readonly: vec![],
    });
    let bytes = message.serialize();
    assert_eq!(bytes[0], 0x80);
    let read = decode_message(&bytes).unwrap();
    assert_eq!(read, message);
    assert_eq!(read.account_count(), 4);
    assert_eq!(read.static_key(3), None);
    // An index past the table's entries is refused.
    let mut beyond = message.clone();
    beyond.instructions[0].accounts = vec![0, 4];
    assert!(decode_message(&beyond.serialize()).is_err());
}

#[test]
fn malformed_messages_are_clear_errors() {
    let legacy = sol_transfer()[65..].to_vec();
    let reason = |bytes: &[u8]| decode_message(bytes).unwrap_err().to_string();
    assert_eq!(reason(&[]), "Invalid Solana transaction: no message");
    assert_eq!(
        reason(&[0x81, 1, 0, 0]),
        "Invalid Solana transaction: unknown message version"
    );
    let mut trailing = legacy.clone();
    trailing.push(0);
    assert_eq!(reason(&trailing), "Invalid Solana transaction: bytes after the message");
    let mut no_payer = legacy.clone();
    no_payer[0] = 0;
    assert_eq!(reason(&no_payer), "Invalid Solana transaction: no fee payer");
    let mut readonly_payer = legacy.clone();
    readonly_payer[1] = 1;
    assert_eq!(
        reason(&readonly_payer),
        "Invalid Solana transaction: the fee payer is read-only"
    );
    let mut bad_program = legacy.clone();
    // The instruction's program index (after header, 3 keys, blockhash, instruction count).
    bad_program[4 + 96 + 32 + 1] = 3;
    assert_eq!(
        reason(&bad_program),
        "Invalid Solana transaction: an instruction's program is not an account key"
    );
    for cut in 0..legacy.len() {
        assert!(decode_message(&legacy[..cut]).is_err(), "{cut}");
    }
    // A key count far beyond the bytes is refused before anything is allocated for it.
    assert!(decode_message(&[1, 0, 0, 0xff, 0xff, 0x03]).is_err());
}

fn key() -> impl Strategy<Value = [u8; 32]> {
    any::<[u8; 32]>()
}

prop_compose! {
    fn message()(
        version in prop::option::of(Just(0u8)),
        required in 1u8..4,
        readonly_signed in 0u8..3,
        extra in 0usize..4,
        readonly_unsigned in 0u8..4,
        blockhash in key(),
        keys in prop::collection::vec(key(), 8),
        lookups in prop::collection::vec((key(), prop::collection::vec(any::<u8>(), 0..4), prop::collection::vec(any::<u8>(), 0..4)), 0..3),
        raw in prop::collection::vec((any::<u8>(), prop::collection::vec(any::<u8>(), 0..6), prop::collection::vec(any::<u8>(), 0..40)), 0..4),
    ) -> Message {
        let readonly_signed = readonly_signed.min(required - 1);
        let count = usize::from(required) + extra;
        let readonly_unsigned = readonly_unsigned.min(u8::try_from(extra).unwrap_or(0));
        let lookups: Vec<AddressTableLookup> = if version.is_some() {
            lookups.into_iter().map(|(table, writable, readonly)| AddressTableLookup { table, writable, readonly }).collect()
        } else {
            Vec::new()
        };
        let total = count + lookups.iter().map(|l| l.writable.len() + l.readonly.len()).sum::<usize>();
        let instructions = raw.into_iter().map(|(program, accounts, data)| CompiledInstruction {
            program_index: u8::try_from(usize::from(program) % count).unwrap_or(0),
            accounts: accounts.into_iter().map(|a| u8::try_from(usize::from(a) % total).unwrap_or(0)).collect(),
            data,
        }).collect();
        Message {
            version,
            header: MessageHeader { required_signatures: required, readonly_signed, readonly_unsigned },
            account_keys: keys[..count].to_vec(),
            recent_blockhash: blockhash,
            instructions,
            lookups,
        }
    }
}

proptest! {
    #[test]
    fn reads_back_what_it_writes(message in message()) {
        let bytes = message.serialize();
        prop_assert_eq!(decode_message(&bytes).unwrap(), message);
    }

    #[test]
    fn never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = decode_message(&bytes);
    }

    #[test]
    fn never_panics_on_changed_valid_messages(message in message(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = message.serialize();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        if let Ok(read) = decode_message(&bytes) {
            prop_assert_eq!(read.serialize(), bytes);
        }
    }
}
