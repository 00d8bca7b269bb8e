//! Solana messages read in full, legacy and v0, for the embedded wallet's approval panel
//! (behaviour 5.19): the header, the static account keys, the recent blockhash, each compiled
//! instruction and, in v0, the address table lookups. Every index is checked against the keys it
//! names, so a panel never shows an account the message does not hold; a malformed message is an
//! error, never a panic. [`Message::serialize`] writes the bytes back (the property tests read
//! back what it writes).

use super::message::{push_compact_u16, read_compact_u16};
use crate::{Error, Result};

/// A message's header: how many of its first keys sign, and how many are read-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageHeader {
    /// The first `required_signatures` keys sign; the first of them pays the fee.
    pub required_signatures: u8,
    /// The last this many signers are read-only.
    pub readonly_signed: u8,
    /// The last this many static keys (not signers) are read-only.
    pub readonly_unsigned: u8,
}

/// An instruction as the message holds it: indexes into the message's accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledInstruction {
    /// The program's index; always a static key (programs cannot come from a lookup table).
    pub program_index: u8,
    /// The accounts' indexes: static keys first, then the lookups' writable, then read-only ones.
    pub accounts: Vec<u8>,
    /// The program's input.
    pub data: Vec<u8>,
}

/// A v0 message's use of an address lookup table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressTableLookup {
    /// The table account.
    pub table: [u8; 32],
    /// Indexes of writable addresses in the table.
    pub writable: Vec<u8>,
    /// Indexes of read-only addresses in the table.
    pub readonly: Vec<u8>,
}

/// A decoded message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// `None` for a legacy message, `Some(0)` for v0 (the only version Solana defines).
    pub version: Option<u8>,
    /// The header.
    pub header: MessageHeader,
    /// The static keys: signers first (the fee payer is the first).
    pub account_keys: Vec<[u8; 32]>,
    /// The blockhash the transaction expires with.
    pub recent_blockhash: [u8; 32],
    /// The calls, in order.
    pub instructions: Vec<CompiledInstruction>,
    /// v0 only: the tables the instructions' other accounts come from.
    pub lookups: Vec<AddressTableLookup>,
}

fn invalid(reason: &str) -> Error {
    Error::InvalidInput {
        what: "Solana transaction",
        reason: reason.to_owned(),
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self, what: &str) -> Result<u8> {
        let byte = *self.bytes.get(self.at).ok_or_else(|| invalid(what))?;
        self.at += 1;
        Ok(byte)
    }

    fn take(&mut self, len: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.at.checked_add(len).ok_or_else(|| invalid(what))?;
        let slice = self.bytes.get(self.at..end).ok_or_else(|| invalid(what))?;
        self.at = end;
        Ok(slice)
    }

    /// A shortvec in its one canonical form, as Solana reads them (no padded encodings, so the
    /// bytes shown and the bytes signed cannot be read two ways).
    fn len(&mut self, what: &str) -> Result<usize> {
        let start = self.at;
        let value = read_compact_u16(self.bytes, &mut self.at).ok_or_else(|| invalid(what))?;
        let mut canonical = Vec::with_capacity(3);
        push_compact_u16(&mut canonical, value);
        if canonical.len() != self.at - start {
            return Err(invalid("a length is not in its shortest form"));
        }
        Ok(usize::from(value))
    }

    fn key(&mut self, what: &str) -> Result<[u8; 32]> {
        let mut key = [0u8; 32];
        key.copy_from_slice(self.take(32, what)?);
        Ok(key)
    }

    /// A shortvec-counted list of bytes (indexes or data).
    fn bytes_list(&mut self, what: &str) -> Result<Vec<u8>> {
        let len = self.len(what)?;
        Ok(self.take(len, what)?.to_vec())
    }
}

/// Reads a serialized message (what a transaction's signatures sign): the whole of `bytes`,
/// nothing left over.
pub fn decode_message(bytes: &[u8]) -> Result<Message> {
    let mut reader = Reader { bytes, at: 0 };
    let first = *bytes.first().ok_or_else(|| invalid("no message"))?;
    // A versioned message starts with 0x80 | version; a legacy one with its header.
    let version = if first & 0x80 != 0 {
        reader.at = 1;
        if first & 0x7f != 0 {
            return Err(invalid("unknown message version"));
        }
        Some(0)
    } else {
        None
    };
    let header = MessageHeader {
        required_signatures: reader.byte("no message header")?,
        readonly_signed: reader.byte("short message header")?,
        readonly_unsigned: reader.byte("short message header")?,
    };
    let key_count = reader.len("no account key count")?;
    // Each key is 32 bytes: a count the bytes cannot hold is refused before allocating for it.
    if key_count > (bytes.len() - reader.at) / 32 {
        return Err(invalid("fewer account key bytes than keys"));
    }
    let account_keys = (0..key_count)
        .map(|_| reader.key("fewer account key bytes than keys"))
        .collect::<Result<Vec<_>>>()?;
    let required = usize::from(header.required_signatures);
    if required == 0 {
        return Err(invalid("no fee payer"));
    }
    if required > key_count {
        return Err(invalid("more signers than account keys"));
    }
    // The fee payer is a writable signer, so not every signer is read-only.
    if usize::from(header.readonly_signed) >= required {
        return Err(invalid("the fee payer is read-only"));
    }
    if usize::from(header.readonly_unsigned) > key_count - required {
        return Err(invalid("more read-only keys than keys"));
    }
    let recent_blockhash = reader.key("no recent blockhash")?;
    let instruction_count = reader.len("no instruction count")?;
    // An instruction is at least three bytes (program index, two empty counts).
    if instruction_count > (bytes.len() - reader.at) / 3 {
        return Err(invalid("fewer instruction bytes than instructions"));
    }
    let mut instructions = Vec::with_capacity(instruction_count);
    for _ in 0..instruction_count {
        instructions.push(CompiledInstruction {
            program_index: reader.byte("short instruction")?,
            accounts: reader.bytes_list("short instruction accounts")?,
            data: reader.bytes_list("short instruction data")?,
        });
    }
    let mut lookups = Vec::new();
    if version.is_some() {
        let count = reader.len("no address table lookup count")?;
        if count > (bytes.len() - reader.at) / 34 {
            return Err(invalid("fewer lookup bytes than lookups"));
        }
        for _ in 0..count {
            lookups.push(AddressTableLookup {
                table: reader.key("short address table lookup")?,
                writable: reader.bytes_list("short address table lookup")?,
                readonly: reader.bytes_list("short address table lookup")?,
            });
        }
    }
    if reader.at != bytes.len() {
        return Err(invalid("bytes after the message"));
    }
    let message = Message {
        version,
        header,
        account_keys,
        recent_blockhash,
        instructions,
        lookups,
    };
    let total = message.account_count();
    if total > 256 {
        return Err(invalid("more than 256 accounts"));
    }
    for instruction in &message.instructions {
        if usize::from(instruction.program_index) >= key_count {
            return Err(invalid("an instruction's program is not an account key"));
        }
        if instruction.accounts.iter().any(|index| usize::from(*index) >= total) {
            return Err(invalid("an instruction names an account the message does not hold"));
        }
    }
    Ok(message)
}

impl Message {
    /// Static keys plus every address the lookups load.
    pub fn account_count(&self) -> usize {
        self.account_keys.len()
            + self
                .lookups
                .iter()
                .map(|lookup| lookup.writable.len() + lookup.readonly.len())
                .sum::<usize>()
    }

    /// The fee payer: the first key (a decoded message always has one).
    pub fn fee_payer(&self) -> [u8; 32] {
        self.account_keys.first().copied().unwrap_or_default()
    }

    /// The static key at `index`; `None` for one loaded from a lookup table (its address is the
    /// table's to say, which a message alone does not hold).
    pub fn static_key(&self, index: u8) -> Option<[u8; 32]> {
        self.account_keys.get(usize::from(index)).copied()
    }

    /// The bytes this message was read from.
    pub fn serialize(&self) -> Vec<u8> {
        let push_len = |out: &mut Vec<u8>, len: usize| push_compact_u16(out, u16::try_from(len).unwrap_or(u16::MAX));
        let mut out = Vec::new();
        if let Some(version) = self.version {
            out.push(0x80 | version);
        }
        out.extend_from_slice(&[
            self.header.required_signatures,
            self.header.readonly_signed,
            self.header.readonly_unsigned,
        ]);
        push_len(&mut out, self.account_keys.len());
        for key in &self.account_keys {
            out.extend_from_slice(key);
        }
        out.extend_from_slice(&self.recent_blockhash);
        push_len(&mut out, self.instructions.len());
        for instruction in &self.instructions {
            out.push(instruction.program_index);
            push_len(&mut out, instruction.accounts.len());
            out.extend_from_slice(&instruction.accounts);
            push_len(&mut out, instruction.data.len());
            out.extend_from_slice(&instruction.data);
        }
        if self.version.is_some() {
            push_len(&mut out, self.lookups.len());
            for lookup in &self.lookups {
                out.extend_from_slice(&lookup.table);
                push_len(&mut out, lookup.writable.len());
                out.extend_from_slice(&lookup.writable);
                push_len(&mut out, lookup.readonly.len());
                out.extend_from_slice(&lookup.readonly);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
