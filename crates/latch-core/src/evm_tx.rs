//! EIP-155 legacy and EIP-1559 (type 2) transactions: the bytes a key signs
//! and the signed encoding `eth_sendRawTransaction` takes. The server's own
//! transfers (the onramp sandbox's deliveries) and the embedded wallet
//! (latch-vault) use them; signing itself happens in the caller, since this
//! crate holds no keys.

use alloy_primitives::{keccak256, Address, B256, U256};

/// A legacy transaction before signing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegacyTx {
    /// The sender's next nonce.
    pub nonce: u64,
    /// Wei per gas.
    pub gas_price: U256,
    /// Gas limit.
    pub gas: u64,
    /// Recipient (a transfer's receiver, or a token contract).
    pub to: Address,
    /// Wei sent.
    pub value: U256,
    /// Call data.
    pub data: Vec<u8>,
    /// EIP-155 chain id (replay protection).
    pub chain_id: u64,
}

fn rlp_length(out: &mut Vec<u8>, len: usize, short: u8) {
    if len < 56 {
        out.push(short + len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        out.push(short + 55 + (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
}

fn rlp_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    if bytes.len() == 1 && bytes[0] < 0x80 {
        out.push(bytes[0]);
    } else {
        rlp_length(out, bytes.len(), 0x80);
        out.extend_from_slice(bytes);
    }
}

/// An integer: big-endian without leading zeros (zero is the empty string).
fn rlp_uint(out: &mut Vec<u8>, value: U256) {
    let bytes = value.to_be_bytes::<32>();
    let skip = bytes.iter().take_while(|b| **b == 0).count();
    rlp_bytes(out, &bytes[skip..]);
}

fn rlp_list(items: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(items.len() + 9);
    rlp_length(&mut out, items.len(), 0xc0);
    out.extend_from_slice(items);
    out
}

impl LegacyTx {
    fn fields(&self) -> Vec<u8> {
        let mut out = Vec::new();
        rlp_uint(&mut out, U256::from(self.nonce));
        rlp_uint(&mut out, self.gas_price);
        rlp_uint(&mut out, U256::from(self.gas));
        rlp_bytes(&mut out, self.to.as_slice());
        rlp_uint(&mut out, self.value);
        rlp_bytes(&mut out, &self.data);
        out
    }

    /// What is signed: RLP of the six fields, then chain id, 0, 0 (EIP-155).
    pub fn signing_payload(&self) -> Vec<u8> {
        let mut items = self.fields();
        rlp_uint(&mut items, U256::from(self.chain_id));
        rlp_uint(&mut items, U256::ZERO);
        rlp_uint(&mut items, U256::ZERO);
        rlp_list(&items)
    }

    /// The keccak-256 of [`Self::signing_payload`].
    pub fn signing_hash(&self) -> B256 {
        keccak256(self.signing_payload())
    }

    /// The raw signed transaction for a signature with recovery id `parity`
    /// (0 or 1): `v = parity + 35 + 2 × chain id`.
    pub fn encode_signed(&self, r: U256, s: U256, parity: bool) -> Vec<u8> {
        let v = U256::from(self.chain_id) * U256::from(2u8) + U256::from(35u8 + u8::from(parity));
        let mut items = self.fields();
        rlp_uint(&mut items, v);
        rlp_uint(&mut items, r);
        rlp_uint(&mut items, s);
        rlp_list(&items)
    }
}

/// An EIP-1559 (type 2) transaction before signing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eip1559Tx {
    /// Chain id (inside the signed payload, EIP-2718 style).
    pub chain_id: u64,
    /// The sender's next nonce.
    pub nonce: u64,
    /// Tip per gas, wei.
    pub max_priority_fee_per_gas: U256,
    /// Cap per gas, wei.
    pub max_fee_per_gas: U256,
    /// Gas limit.
    pub gas: u64,
    /// Recipient; `None` creates a contract.
    pub to: Option<Address>,
    /// Wei sent.
    pub value: U256,
    /// Call data.
    pub data: Vec<u8>,
    /// EIP-2930 access list: addresses and their storage keys.
    pub access_list: Vec<(Address, Vec<B256>)>,
}

impl Eip1559Tx {
    fn fields(&self) -> Vec<u8> {
        let mut out = Vec::new();
        rlp_uint(&mut out, U256::from(self.chain_id));
        rlp_uint(&mut out, U256::from(self.nonce));
        rlp_uint(&mut out, self.max_priority_fee_per_gas);
        rlp_uint(&mut out, self.max_fee_per_gas);
        rlp_uint(&mut out, U256::from(self.gas));
        rlp_bytes(&mut out, self.to.as_ref().map_or(&[][..], |to| to.as_slice()));
        rlp_uint(&mut out, self.value);
        rlp_bytes(&mut out, &self.data);
        let mut entries = Vec::new();
        for (address, keys) in &self.access_list {
            let mut entry = Vec::new();
            rlp_bytes(&mut entry, address.as_slice());
            let mut key_items = Vec::new();
            for key in keys {
                rlp_bytes(&mut key_items, key.as_slice());
            }
            entry.extend_from_slice(&rlp_list(&key_items));
            entries.extend_from_slice(&rlp_list(&entry));
        }
        out.extend_from_slice(&rlp_list(&entries));
        out
    }

    /// What is signed: `0x02 || rlp([chain id, nonce, tip, cap, gas, to,
    /// value, data, access list])`.
    pub fn signing_payload(&self) -> Vec<u8> {
        let mut out = vec![0x02];
        out.extend_from_slice(&rlp_list(&self.fields()));
        out
    }

    /// The keccak-256 of [`Self::signing_payload`].
    pub fn signing_hash(&self) -> B256 {
        keccak256(self.signing_payload())
    }

    /// The raw signed transaction: the payload's fields, then y parity, r, s.
    pub fn encode_signed(&self, r: U256, s: U256, parity: bool) -> Vec<u8> {
        let mut items = self.fields();
        rlp_uint(&mut items, U256::from(u8::from(parity)));
        rlp_uint(&mut items, r);
        rlp_uint(&mut items, s);
        let mut out = vec![0x02];
        out.extend_from_slice(&rlp_list(&items));
        out
    }
}

#[cfg(test)]
mod tests {
    use alloy_primitives::hex::encode as hex;

    use super::*;

    /// The worked example of EIP-155 itself.
    #[test]
    fn eip155_example() {
        let tx = LegacyTx {
            nonce: 9,
            gas_price: U256::from(20_000_000_000u64),
            gas: 21_000,
            to: "0x3535353535353535353535353535353535353535".parse().unwrap(),
            value: U256::from(1_000_000_000_000_000_000u64),
            data: vec![],
            chain_id: 1,
        };
        assert_eq!(
            hex(tx.signing_payload()),
            "ec098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a764000080018080"
        );
        assert_eq!(
            tx.signing_hash().to_string(),
            "0xdaf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53"
        );
        let r = "0x28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276"
            .parse()
            .unwrap();
        let s = "0x67cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83"
            .parse()
            .unwrap();
        assert_eq!(
            hex(tx.encode_signed(r, s, false)),
            "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83"
        );
    }

    #[test]
    fn long_data_uses_the_long_form() {
        let tx = LegacyTx {
            nonce: 0,
            gas_price: U256::ZERO,
            gas: 0,
            to: Address::ZERO,
            value: U256::ZERO,
            data: vec![0xab; 68],
            chain_id: 31337,
        };
        let payload = tx.signing_payload();
        // 68 bytes of data: 0xb8 0x44 then the bytes.
        assert!(hex(&payload).contains(&format!("b844{}", "ab".repeat(68))));
        assert_eq!(payload[0], 0xf8);
        assert_eq!(usize::from(payload[1]), payload.len() - 2);
    }

    /// A type-2 transfer with an access list, signed by ethers 6
    /// (latch-vault's tests/vectors/generate.mjs): same bytes from the same r, s.
    #[test]
    fn eip1559_matches_ethers() {
        let usdc: Address = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".parse().unwrap();
        let tx = Eip1559Tx {
            chain_id: 1,
            nonce: 300,
            max_priority_fee_per_gas: U256::from(1_500_000_000u64),
            max_fee_per_gas: U256::from(80_000_000_000u64),
            gas: 90_000,
            to: Some(usdc),
            value: U256::ZERO,
            data: alloy_primitives::hex::decode("a9059cbb000000000000000000000000bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb00000000000000000000000000000000000000000000000000000000000f4240").unwrap(),
            access_list: vec![(usdc, vec![B256::with_last_byte(3), B256::repeat_byte(0x11)])],
        };
        let r = "0x2334d1e5a666acdd8387c0d0f535a021420bc291fe7038d4029cbb73eba0356d"
            .parse()
            .unwrap();
        let s = "0x33158fa8a2922707a7a36c618362f1a9759ff249e9d735c2ea04f6352665eb65"
            .parse()
            .unwrap();
        let raw = tx.encode_signed(r, s, true);
        assert_eq!(
            hex(&raw),
            "02f9010f0182012c8459682f008512a05f200083015f9094a0b86991c6218b36c1d19d4a2e9eb0ce3606eb4880b844a9059cbb000000000000000000000000bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb00000000000000000000000000000000000000000000000000000000000f4240f85bf85994a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48f842a00000000000000000000000000000000000000000000000000000000000000003a0111111111111111111111111111111111111111111111111111111111111111101a02334d1e5a666acdd8387c0d0f535a021420bc291fe7038d4029cbb73eba0356da033158fa8a2922707a7a36c618362f1a9759ff249e9d735c2ea04f6352665eb65"
        );
        assert_eq!(
            keccak256(&raw).to_string(),
            "0xa5355f4bd3ee17d1835e4b08e4716d74077c2398ab20f5c5eca2641c163100c7"
        );
        assert_eq!(tx.signing_payload()[0], 0x02);
    }
}
