//! Legacy Solana transactions on the wire: instructions compiled into a
//! message (header, ordered account keys, recent blockhash, instructions with
//! account indexes), prefixed by one signature slot per signer.

/// An account an instruction reads or writes, and whether it must sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountMeta {
    pub pubkey: [u8; 32],
    pub is_signer: bool,
    pub is_writable: bool,
}

impl AccountMeta {
    /// A writable account (`signer`: whether it signs too).
    pub const fn writable(pubkey: [u8; 32], signer: bool) -> Self {
        AccountMeta {
            pubkey,
            is_signer: signer,
            is_writable: true,
        }
    }

    /// A read-only account (`signer`: whether it signs too).
    pub const fn readonly(pubkey: [u8; 32], signer: bool) -> Self {
        AccountMeta {
            pubkey,
            is_signer: signer,
            is_writable: false,
        }
    }
}

/// One call of a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    pub program_id: [u8; 32],
    pub accounts: Vec<AccountMeta>,
    pub data: Vec<u8>,
}

/// Solana's shortvec: 7 bits per byte, low first, high bit set while more follow.
pub fn push_compact_u16(out: &mut Vec<u8>, mut value: u16) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// A count as a shortvec; the counts here (a few accounts, instructions,
/// data bytes) are far below `u16::MAX`, so the conversion never saturates.
fn push_len(out: &mut Vec<u8>, len: usize) {
    push_compact_u16(out, u16::try_from(len).unwrap_or(u16::MAX));
}

/// The legacy message of `instructions` paid by `fee_payer`, serialized.
///
/// Account keys are ordered as Solana's own compiler (`Message::new`, web3.js
/// `compileToLegacyMessage`) orders them, so wallets and explorers see the
/// bytes they would build: the fee payer first, then every other key in order
/// of first appearance (each instruction's program id, then its accounts),
/// grouped as writable signers, read-only signers, writable non-signers,
/// read-only non-signers. A key named twice gets the union of its flags.
/// Returns the message and its number of required signatures.
pub fn compile_legacy_message(
    fee_payer: &[u8; 32],
    instructions: &[Instruction],
    recent_blockhash: &[u8; 32],
) -> (Vec<u8>, u8) {
    let mut keys: Vec<AccountMeta> = vec![AccountMeta::writable(*fee_payer, true)];
    let mut note = |meta: AccountMeta| match keys.iter_mut().find(|k| k.pubkey == meta.pubkey) {
        Some(known) => {
            known.is_signer |= meta.is_signer;
            known.is_writable |= meta.is_writable;
        }
        None => keys.push(meta),
    };
    for instruction in instructions {
        note(AccountMeta::readonly(instruction.program_id, false));
        for meta in &instruction.accounts {
            note(*meta);
        }
    }
    let group = |signer: bool, writable: bool| {
        keys.iter()
            .filter(move |k| k.is_signer == signer && k.is_writable == writable)
            .copied()
    };
    let ordered: Vec<AccountMeta> = group(true, true)
        .chain(group(true, false))
        .chain(group(false, true))
        .chain(group(false, false))
        .collect();
    let count = |f: fn(&AccountMeta) -> bool| u8::try_from(ordered.iter().filter(|k| f(k)).count()).unwrap_or(u8::MAX);
    let signers = count(|k| k.is_signer);
    let readonly_signed = count(|k| k.is_signer && !k.is_writable);
    let readonly_unsigned = count(|k| !k.is_signer && !k.is_writable);
    let index = |pubkey: &[u8; 32]| {
        // Every key was noted above, and a transfer has far fewer than 256 of them.
        ordered
            .iter()
            .position(|k| &k.pubkey == pubkey)
            .and_then(|i| u8::try_from(i).ok())
            .unwrap_or(u8::MAX)
    };

    let mut out = vec![signers, readonly_signed, readonly_unsigned];
    push_len(&mut out, ordered.len());
    for key in &ordered {
        out.extend_from_slice(&key.pubkey);
    }
    out.extend_from_slice(recent_blockhash);
    push_len(&mut out, instructions.len());
    for instruction in instructions {
        out.push(index(&instruction.program_id));
        push_len(&mut out, instruction.accounts.len());
        out.extend(instruction.accounts.iter().map(|meta| index(&meta.pubkey)));
        push_len(&mut out, instruction.data.len());
        out.extend_from_slice(&instruction.data);
    }
    (out, signers)
}

/// The wire bytes of an unsigned transaction: one all-zero 64-byte signature
/// slot per required signer, then `message`. Wallets fill the slots
/// (`solana:signTransaction`, `solana:signAndSendTransaction`).
pub fn unsigned_transaction(message: &[u8], signers: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(1 + 64 * usize::from(signers) + message.len());
    push_len(&mut out, usize::from(signers));
    out.resize(out.len() + 64 * usize::from(signers), 0);
    out.extend_from_slice(message);
    out
}

/// Reads a shortvec at `*pos`, advancing it; `None` past the end or for a
/// value over three bytes or above `u16::MAX`.
pub fn read_compact_u16(bytes: &[u8], pos: &mut usize) -> Option<u16> {
    let mut value = 0u32;
    for shift in [0u32, 7, 14] {
        let byte = *bytes.get(*pos)?;
        *pos += 1;
        value |= u32::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return u16::try_from(value).ok();
        }
    }
    None
}

/// A wire transaction (legacy or versioned) split for a signer: its
/// signature slots, the message they sign, and the keys that must sign, in
/// slot order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireTransaction<'a> {
    /// One 64-byte slot per required signer (zeros where unsigned).
    pub signatures: Vec<[u8; 64]>,
    /// The serialized message: what each signer signs.
    pub message: &'a [u8],
    /// The first `num_required_signatures` account keys.
    pub signers: Vec<[u8; 32]>,
}

fn invalid(reason: &str) -> crate::Error {
    crate::Error::InvalidInput {
        what: "Solana transaction",
        reason: reason.to_owned(),
    }
}

/// Splits wire bytes (`solana:signTransaction`'s input) into slots and
/// message, checking that there is one slot per required signer and that the
/// message's header and key list fit in the bytes.
pub fn parse_transaction(bytes: &[u8]) -> crate::Result<WireTransaction<'_>> {
    let mut pos = 0;
    let count = read_compact_u16(bytes, &mut pos).ok_or_else(|| invalid("no signature count"))?;
    let mut signatures = Vec::with_capacity(usize::from(count).min(bytes.len() / 64));
    for _ in 0..count {
        let slot = bytes
            .get(pos..pos + 64)
            .ok_or_else(|| invalid("fewer signature bytes than slots"))?;
        signatures.push(<[u8; 64]>::try_from(slot).map_err(|_| invalid("short signature"))?);
        pos += 64;
    }
    let message = &bytes[pos..];
    // A versioned message starts with 0x80 | version; legacy starts with the header.
    let mut at = 0;
    match message.first() {
        Some(prefix) if prefix & 0x80 != 0 => {
            if prefix & 0x7f != 0 {
                return Err(invalid("unknown message version"));
            }
            at = 1;
        }
        Some(_) => {}
        None => return Err(invalid("no message")),
    }
    let required = *message.get(at).ok_or_else(|| invalid("no message header"))?;
    at += 3;
    if at > message.len() {
        return Err(invalid("short message header"));
    }
    let keys = read_compact_u16(message, &mut at).ok_or_else(|| invalid("no account key count"))?;
    if usize::from(required) > usize::from(keys) {
        return Err(invalid("more signers than account keys"));
    }
    if usize::from(required) != signatures.len() {
        return Err(invalid("signature slots do not match the required signers"));
    }
    let mut signers = Vec::with_capacity(usize::from(required));
    for i in 0..usize::from(required) {
        let key = message
            .get(at + 32 * i..at + 32 * (i + 1))
            .ok_or_else(|| invalid("fewer account key bytes than keys"))?;
        signers.push(<[u8; 32]>::try_from(key).map_err(|_| invalid("short account key"))?);
    }
    if message.len() < at + 32 * usize::from(keys) + 32 {
        return Err(invalid("no recent blockhash"));
    }
    Ok(WireTransaction {
        signatures,
        message,
        signers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_it_builds() {
        let payer = [7u8; 32];
        let ix = Instruction {
            program_id: [0; 32],
            accounts: vec![
                AccountMeta::writable(payer, true),
                AccountMeta::writable([9; 32], false),
            ],
            data: vec![2, 0, 0, 0],
        };
        let (message, signers) = compile_legacy_message(&payer, &[ix], &[5; 32]);
        let wire = unsigned_transaction(&message, signers);
        let parsed = parse_transaction(&wire).unwrap();
        assert_eq!(parsed.signers, vec![payer]);
        assert_eq!(parsed.signatures, vec![[0u8; 64]]);
        assert_eq!(parsed.message, &message[..]);
        // Versioned (v0) prefix: same header after it.
        let mut v0 = vec![1u8];
        v0.extend_from_slice(&[0; 64]);
        v0.push(0x80);
        v0.extend_from_slice(&message);
        v0.push(0); // no address table lookups
        assert_eq!(parse_transaction(&v0).unwrap().signers, vec![payer]);
        // Cut anywhere before the blockhash ends: refused, never a panic.
        let through_blockhash = 1 + 64 + 3 + 1 + 32 * usize::from(message[3]) + 32;
        for cut in 0..through_blockhash {
            assert!(parse_transaction(&wire[..cut]).is_err(), "{cut}");
        }
        let mut two_slots = vec![2u8];
        two_slots.extend_from_slice(&[0; 128]);
        two_slots.extend_from_slice(&message);
        assert!(parse_transaction(&two_slots).is_err());
        let mut v1 = v0.clone();
        v1[65] = 0x81;
        assert!(parse_transaction(&v1).is_err());
    }

    #[test]
    fn compact_u16_reads_back() {
        for value in [0u16, 1, 0x7f, 0x80, 0x3fff, 0x4000, u16::MAX] {
            let mut out = Vec::new();
            push_compact_u16(&mut out, value);
            let mut pos = 0;
            assert_eq!(read_compact_u16(&out, &mut pos), Some(value));
            assert_eq!(pos, out.len());
        }
        let mut pos = 0;
        assert_eq!(read_compact_u16(&[0xff, 0xff, 0x04], &mut pos), None);
        let mut pos = 0;
        assert_eq!(read_compact_u16(&[0x80, 0x80, 0x80, 0x01], &mut pos), None);
    }

    #[test]
    fn compact_u16() {
        for (value, bytes) in [
            (0u16, &[0u8][..]),
            (0x7f, &[0x7f]),
            (0x80, &[0x80, 0x01]),
            (0x3fff, &[0xff, 0x7f]),
            (0x4000, &[0x80, 0x80, 0x01]),
            (u16::MAX, &[0xff, 0xff, 0x03]),
        ] {
            let mut out = Vec::new();
            push_compact_u16(&mut out, value);
            assert_eq!(out, bytes, "{value}");
        }
    }

    #[test]
    fn keys_merge_flags_and_group() {
        let (payer, a, b, program) = ([1; 32], [2; 32], [3; 32], [4; 32]);
        let ix = Instruction {
            program_id: program,
            accounts: vec![
                AccountMeta::readonly(b, false),
                AccountMeta::readonly(a, true),
                AccountMeta::writable(b, false),
                AccountMeta::writable(payer, true),
            ],
            data: vec![9],
        };
        let (message, signers) = compile_legacy_message(&payer, &[ix], &[7; 32]);
        assert_eq!(signers, 2);
        // Header: 2 signers (payer, a), 1 of them read-only, 1 read-only non-signer (program).
        assert_eq!(&message[..4], &[2, 1, 1, 4]);
        let keys: Vec<&[u8]> = message[4..4 + 4 * 32].chunks(32).collect();
        assert_eq!(keys, [&payer[..], &a[..], &b[..], &program[..]]);
        // program index, 4 accounts (b, a, b, payer), 1 byte of data.
        assert_eq!(&message[4 + 128 + 32..], &[1, 3, 4, 2, 1, 2, 0, 1, 9]);
        let tx = unsigned_transaction(&message, signers);
        assert_eq!(tx[0], 2);
        assert!(tx[1..129].iter().all(|&b| b == 0));
        assert_eq!(&tx[129..], &message[..]);
    }
}
