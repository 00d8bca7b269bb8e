use super::*;
use alloy_sol_types::SolValue;
use proptest::prelude::*;

/// viem's encodings and signature of the same requests (`gen-vectors.mjs`).
fn vector(key: &str) -> Vec<u8> {
    let vectors: serde_json::Value = serde_json::from_str(include_str!("vectors.json")).unwrap();
    let text = vectors[key].as_str().unwrap();
    alloy_primitives::hex::decode(text).unwrap()
}

const NAME: &str = "alice.latch.id";
const RESOLVER: Address = alloy_primitives::address!("5FbDB2315678afecb367f032d93F642f64180aa3");
/// anvil's account 1.
const KEY: [u8; 32] = alloy_primitives::hex!("59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const SIGNER: Address = alloy_primitives::address!("70997970C51812dc3A010C7d01b50e0d17dc79C8");
const DEVNET_COIN: u64 = 0x8000_0000 | 31337;

fn records() -> NameRecords {
    NameRecords {
        addresses: BTreeMap::from([(DEVNET_COIN, SIGNER)]),
        texts: BTreeMap::from([("avatar".to_owned(), "https://example.test/a.png".to_owned())]),
    }
}

#[test]
fn encodes_and_parses_what_viem_encodes() {
    assert_eq!(encode_dns_name(NAME).unwrap(), vector("dns"));
    assert_eq!(decode_dns_name(&vector("dns")).unwrap(), NAME);
    let cases = [
        ("addr", ResolverQuery::Addr),
        ("coin", ResolverQuery::AddrCoin(U256::from(DEVNET_COIN))),
        ("text", ResolverQuery::Text("avatar".into())),
    ];
    for (key, query) in cases {
        assert_eq!(encode_resolve_request(NAME, &query).unwrap(), vector(key), "{key}");
        let parsed = parse_resolve_request(&vector(key)).unwrap();
        assert_eq!(
            parsed,
            ResolveRequest {
                name: NAME.into(),
                query
            },
            "{key}"
        );
    }
}

#[test]
fn signs_as_viem_signs_and_the_signer_recovers() {
    let call = vector("text");
    let result = query_result(&ResolverQuery::Text("avatar".into()), Some(&records()));
    assert_eq!(result, vector("result"));
    assert_eq!(
        signature_hash(RESOLVER, 1_700_000_000, &call, &result).to_vec(),
        vector("hash")
    );
    let response = sign_response(&KEY, RESOLVER, 1_700_000_000, &call, &result).unwrap();
    assert_eq!(response, vector("response"));
    assert_eq!(signer_address(&KEY).unwrap(), SIGNER);
    let (read, expires, signer) = verify_response(RESOLVER, &call, &response).unwrap();
    assert_eq!((read, expires, signer), (result, 1_700_000_000, SIGNER));
    // Bound to the resolver and the request: another of either recovers someone else.
    let other = verify_response(Address::ZERO, &call, &response).unwrap().2;
    assert_ne!(other, SIGNER);
    let other = verify_response(RESOLVER, &vector("addr"), &response).unwrap().2;
    assert_ne!(other, SIGNER);
}

#[test]
fn answers_addresses_and_texts_and_not_found() {
    let known = records();
    let word = |a: Address| a.abi_encode();
    // `abi.encode(bytes)`: what `addr(node, coinType)` and `text` return.
    let encode_bytes = |b: &[u8]| Bytes::copy_from_slice(b).abi_encode();
    // addr(node): Ethereum's record, else (ENSIP-19) the EVM record the name has.
    assert_eq!(query_result(&ResolverQuery::Addr, Some(&known)), word(SIGNER));
    let coin = |c: u64, r: Option<&NameRecords>| query_result(&ResolverQuery::AddrCoin(U256::from(c)), r);
    assert_eq!(coin(DEVNET_COIN, Some(&known)), encode_bytes(SIGNER.as_slice()));
    assert_eq!(coin(60, Some(&known)), encode_bytes(SIGNER.as_slice()));
    // Bitcoin's coin type 0 is not EVM: no address.
    assert_eq!(coin(0, Some(&known)), encode_bytes(&[]));
    let huge = query_result(&ResolverQuery::AddrCoin(U256::MAX), Some(&known));
    assert_eq!(huge, encode_bytes(&[]));
    assert_eq!(
        query_result(&ResolverQuery::Text("bio".into()), Some(&known)),
        encode_bytes(b"")
    );
    // An unknown name: the zero address, empty bytes, the empty string.
    assert_eq!(query_result(&ResolverQuery::Addr, None), vec![0u8; 32]);
    assert_eq!(coin(DEVNET_COIN, None), encode_bytes(&[]));
    assert_eq!(
        query_result(&ResolverQuery::Text("avatar".into()), None),
        encode_bytes(b"")
    );
}

#[test]
fn refuses_bad_requests_with_a_reason() {
    let text = vector("text");
    let reason = |data: &[u8]| parse_resolve_request(data).unwrap_err().to_string();
    assert!(reason(&[]).contains("not resolve(bytes,bytes)"));
    assert!(reason(&text[..40]).contains("shorter than its head"));
    assert!(reason(&text[..text.len() - 64]).contains("runs past"));
    // The inner call's node must be the name's.
    let mut other_node = text.clone();
    other_node[4 + 5 * 32 + 4] ^= 1;
    assert!(reason(&other_node).contains("namehash"));
    // Another resolver call (contenthash).
    let mut other_call = text.clone();
    other_call[4 + 5 * 32..4 + 5 * 32 + 4].copy_from_slice(&[0xbc, 0x1c, 0x58, 0xd1]);
    assert!(reason(&other_call).contains("not addr or text"));
    for (dns, why) in [
        (&b"\x06alice"[..], "runs past"),
        (b"\x05alice", "terminating zero"),
        (b"\x05alice\x00\x00", "follow"),
        (b"", "terminating zero"),
        (b"\x03a.b\x00", "printable ASCII"),
        (
            b"\x40aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\x00",
            "63 octets",
        ),
    ] {
        assert!(decode_dns_name(dns).unwrap_err().to_string().contains(why), "{dns:?}");
    }
    assert_eq!(decode_dns_name(b"\x00").unwrap(), "");
    assert_eq!(decode_dns_name(b"\x05Alice\x02ID\x00").unwrap(), "alice.id");
    assert!(sign_response(&[0; 32], RESOLVER, 1, &text, &[]).is_err());
}

proptest! {
    // Whatever arrives, the parser answers or refuses; it never panics.
    #[test]
    fn parser_never_panics(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = parse_resolve_request(&data);
        let _ = decode_dns_name(&data);
        let _ = verify_response(RESOLVER, &[], &data);
    }

    // Mutating a valid request never panics either (the random bytes rarely get past the selector).
    #[test]
    fn mutated_requests_never_panic(at in 0usize..650, byte in any::<u8>(), cut in 0usize..650) {
        let mut data = vector("text");
        let at = at % data.len();
        data[at] = byte;
        data.truncate(cut.max(4));
        let _ = parse_resolve_request(&data);
    }

    // Every request built from a name and a query parses back to them.
    #[test]
    fn requests_round_trip(labels in proptest::collection::vec("[a-z0-9-]{1,20}", 1..5), key in "\\PC{0,40}", coin in any::<u64>()) {
        let name = labels.join(".");
        for query in [ResolverQuery::Addr, ResolverQuery::AddrCoin(U256::from(coin)), ResolverQuery::Text(key.clone())] {
            let data = encode_resolve_request(&name, &query).unwrap();
            prop_assert_eq!(parse_resolve_request(&data).unwrap(), ResolveRequest { name: name.clone(), query });
        }
    }
}

#[test]
fn offsets_near_the_top_of_the_address_space_are_refused() {
    // A head word holding a huge, word-aligned offset or length: refused, never an overflow.
    let huge = {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&(u64::MAX - 31).to_be_bytes());
        w
    };
    let mut call = RESOLVE_SELECTOR.to_vec();
    call.extend_from_slice(&huge);
    call.extend_from_slice(&[0u8; 32]);
    assert!(parse_resolve_request(&call).is_err());
    let mut call = vector("text");
    // The name's length word (after the two head words).
    call[4 + 64..4 + 96].copy_from_slice(&huge);
    assert!(parse_resolve_request(&call).is_err());
    let mut response = huge.to_vec();
    response.extend_from_slice(&[0u8; 64]);
    assert!(verify_response(RESOLVER, &[], &response).is_err());
}
