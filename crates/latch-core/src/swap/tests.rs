use std::collections::HashMap;

use alloy_primitives::{address, keccak256, Address, U256};
use alloy_sol_types::{sol, SolCall};
use proptest::prelude::*;

use super::abi::*;
use super::math::*;
use super::query::*;
use super::*;

sol! {
    struct Call3 { address target; bool allowFailure; bytes callData; }
    struct Result3 { bool success; bytes returnData; }
    function aggregate3(Call3[] calls) returns (Result3[] returnData);
    function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline);
    function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline);
    function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline);
    function getAmountsOut(uint256 amountIn, address[] path) returns (uint256[] amounts);
}

const WETH: Address = address!("610178dA211FEF7D417bC0e6FeD39F05609AD788");
const USDC: Address = address!("5FbDB2315678afecb367f032d93F642f64180aa3");
const LTK: Address = address!("e7f1725E7734CE288F8367e1Bb143E90bb3F0512");
const USER: Address = address!("70997970C51812dc3A010C7d01b50e0d17dc79C8");

fn e18(n: u64) -> U256 {
    U256::from(n) * U256::from(10u64).pow(U256::from(18u64))
}

/// The devnet's pools: 100 ETH : 300,000 USDC and 100 ETH : 600,000 LTK.
fn devnet_pools() -> HashMap<(Address, Address), Reserves> {
    let mut pools = HashMap::new();
    for (token, amount) in [(USDC, U256::from(300_000_000_000u64)), (LTK, e18(600_000))] {
        let key = sort_tokens(WETH, token);
        let (reserve0, reserve1) = if key.0 == WETH {
            (e18(100), amount)
        } else {
            (amount, e18(100))
        };
        pools.insert(key, Reserves { reserve0, reserve1 });
    }
    pools
}

#[test]
fn selectors_are_the_functions_keccak() {
    for (selector, signature) in [
        (GET_PAIR, "getPair(address,address)"),
        (GET_RESERVES, "getReserves()"),
        (
            SWAP_EXACT_ETH_FOR_TOKENS,
            "swapExactETHForTokens(uint256,address[],address,uint256)",
        ),
        (
            SWAP_EXACT_TOKENS_FOR_ETH,
            "swapExactTokensForETH(uint256,uint256,address[],address,uint256)",
        ),
        (
            SWAP_EXACT_TOKENS_FOR_TOKENS,
            "swapExactTokensForTokens(uint256,uint256,address[],address,uint256)",
        ),
        (GET_AMOUNTS_OUT, "getAmountsOut(uint256,address[])"),
        (APPROVE, "approve(address,uint256)"),
        (ALLOWANCE, "allowance(address,address)"),
        (AGGREGATE3, "aggregate3((address,bool,bytes)[])"),
    ] {
        assert_eq!(selector, keccak256(signature)[..4], "{signature}");
    }
}

#[test]
fn amount_out_matches_the_library_by_hand() {
    // 1 ETH into 100 ETH : 300,000 USDC: 997·300000e6 / (100·1000 + 997) = 2961474103.19…, floored.
    let out = get_amount_out(e18(1), e18(100), U256::from(300_000_000_000u64)).unwrap();
    assert_eq!(out, U256::from(2_961_474_103u64));
    assert_eq!(get_amount_out(U256::ZERO, e18(1), e18(1)), None);
    assert_eq!(get_amount_out(e18(1), U256::ZERO, e18(1)), None);
    assert_eq!(
        get_amount_out(U256::MAX, e18(1), e18(1)),
        None,
        "overflow reverts on chain"
    );
    assert_eq!(get_amounts_out(e18(1), &[]), None);
}

#[test]
fn two_hop_usdc_to_ltk_goes_through_weth() {
    let paths = candidate_paths(USDC, LTK, WETH, &[USDC]);
    assert_eq!(paths, vec![vec![USDC, LTK], vec![USDC, WETH, LTK]]);
    let route = best_route(U256::from(3_000_000_000u64), &paths, &devnet_pools()).unwrap();
    assert_eq!(route.path, vec![USDC, WETH, LTK]);
    let first = get_amount_out(U256::from(3_000_000_000u64), U256::from(300_000_000_000u64), e18(100)).unwrap();
    let second = get_amount_out(first, e18(100), e18(600_000)).unwrap();
    assert_eq!(route.amounts, vec![U256::from(3_000_000_000u64), first, second]);
    // 1 % of each pool: about 1 % impact per hop, so about 2 % in all.
    let impact = route.price_impact_bps();
    assert!((190..=200).contains(&impact), "{impact}");
    assert_eq!(pools_of(&paths).len(), 3);
}

#[test]
fn no_route_without_pools_or_liquidity() {
    let paths = candidate_paths(USDC, LTK, WETH, &[]);
    assert_eq!(best_route(U256::from(1u64), &paths, &HashMap::new()), None);
    // One base unit into a 1 : 1 pool buys nothing (997 / 1997, floored): no route rather than a zero quote.
    let mut tiny = HashMap::new();
    tiny.insert(
        sort_tokens(USDC, LTK),
        Reserves {
            reserve0: U256::from(1u64),
            reserve1: U256::from(1u64),
        },
    );
    assert_eq!(best_route(U256::from(1u64), &paths, &tiny), None);
    // The devnet's pools do quote one base unit of USDC (1e-6 USD buys 3.3e8 wei, then LTK).
    assert!(best_route(U256::from(1u64), &paths, &devnet_pools()).is_some());
}

#[test]
fn minimum_received_is_exact() {
    assert_eq!(minimum_received(U256::from(1_000_000u64), 100), U256::from(990_000u64));
    assert_eq!(minimum_received(U256::from(999u64), 100), U256::from(989u64));
    assert_eq!(minimum_received(U256::MAX, 0), U256::MAX);
    assert_eq!(minimum_received(U256::from(5u64), 10_000), U256::ZERO);
}

#[test]
fn router_calldata_matches_the_reference_encoder() {
    let path = vec![WETH, USDC];
    let (data, value) = swap_data(
        SwapKind::ExactEthForTokens,
        e18(1),
        U256::from(7u64),
        &path,
        USER,
        1_700_000_000,
    );
    assert_eq!(value, e18(1));
    let expected = swapExactETHForTokensCall {
        amountOutMin: U256::from(7u64),
        path: path.clone(),
        to: USER,
        deadline: U256::from(1_700_000_000u64),
    };
    assert_eq!(data, expected.abi_encode());
    let path = vec![USDC, WETH, LTK];
    let (data, value) = swap_data(
        SwapKind::ExactTokensForTokens,
        U256::from(5u64),
        U256::from(3u64),
        &path,
        USER,
        9,
    );
    assert_eq!(value, U256::ZERO);
    let expected = swapExactTokensForTokensCall {
        amountIn: U256::from(5u64),
        amountOutMin: U256::from(3u64),
        path: path.clone(),
        to: USER,
        deadline: U256::from(9u64),
    };
    assert_eq!(data, expected.abi_encode());
    let (data, _) = swap_data(
        SwapKind::ExactTokensForEth,
        U256::from(5u64),
        U256::from(3u64),
        &[USDC, WETH],
        USER,
        9,
    );
    let expected = swapExactTokensForETHCall {
        amountIn: U256::from(5u64),
        amountOutMin: U256::from(3u64),
        path: vec![USDC, WETH],
        to: USER,
        deadline: U256::from(9u64),
    };
    assert_eq!(data, expected.abi_encode());
    let expected = getAmountsOutCall {
        amountIn: U256::from(5u64),
        path: path.clone(),
    };
    assert_eq!(get_amounts_out_data(U256::from(5u64), &path), expected.abi_encode());
    let answer = getAmountsOutCall::abi_encode_returns(&vec![U256::from(1u64), U256::from(2u64)]);
    assert_eq!(
        decode_u256_array(&answer),
        Some(vec![U256::from(1u64), U256::from(2u64)])
    );
}

#[test]
fn erc20_calldata() {
    let data = approve_data(USER, U256::from(1u64));
    assert_eq!(data.len(), 68);
    assert_eq!(&data[..4], &APPROVE);
    assert_eq!(read_address(&data, 4), Some(USER));
    let data = allowance_data(USER, WETH);
    assert_eq!(read_address(&data, 36), Some(WETH));
    assert_eq!(
        decode_u256(&U256::from(42u64).to_be_bytes::<32>()),
        Some(U256::from(42u64))
    );
    assert_eq!(decode_u256(&[0u8; 31]), None);
}

#[test]
fn multicall_round_trips_through_the_reference_encoder() {
    let calls = vec![
        abi::Call3 {
            target: WETH,
            data: get_pair_data(WETH, USDC),
        },
        abi::Call3 {
            target: USDC,
            data: get_reserves_data(),
        },
        abi::Call3 {
            target: LTK,
            data: vec![1, 2, 3],
        },
    ];
    let expected = aggregate3Call {
        calls: calls
            .iter()
            .map(|c| Call3 {
                target: c.target,
                allowFailure: true,
                callData: c.data.clone().into(),
            })
            .collect(),
    };
    assert_eq!(aggregate3_data(&calls), expected.abi_encode());
    let mut reserves = U256::from(300u64).to_be_bytes::<32>().to_vec();
    reserves.extend_from_slice(&U256::from(7u64).to_be_bytes::<32>());
    reserves.extend_from_slice(&[0u8; 32]);
    let mut pair = vec![0u8; 12];
    pair.extend_from_slice(USDC.as_slice());
    let answer = aggregate3Call::abi_encode_returns(&vec![
        Result3 {
            success: true,
            returnData: pair.into(),
        },
        Result3 {
            success: false,
            returnData: vec![9].into(),
        },
        Result3 {
            success: true,
            returnData: reserves.into(),
        },
    ]);
    let results = decode_aggregate3(&answer).unwrap();
    assert_eq!(decode_get_pair(results[0].as_deref().unwrap()), Some(USDC));
    assert_eq!(results[1], None);
    assert_eq!(
        decode_get_reserves(results[2].as_deref().unwrap()),
        Some((U256::from(300u64), U256::from(7u64)))
    );
    assert_eq!(decode_get_pair(&[0u8; 32]), None, "the zero address means no pool");
    assert_eq!(decode_aggregate3(&answer[..answer.len() - 1]), None);
}

#[test]
fn query_parsers() {
    let usdc = format!("eip155:31337:{USDC}");
    let id = parse_token_id("from", &usdc).unwrap();
    assert_eq!(
        id,
        TokenId {
            chain_id: 31337,
            token: SwapToken::Erc20(USDC)
        }
    );
    assert_eq!(id.caip10(), format!("eip155:31337:{}", USDC.to_checksum(None)));
    let native = format!("eip155:1:{}", NATIVE_PLACEHOLDER.to_uppercase().replace("0X", "0x"));
    assert_eq!(parse_token_id("from", &native).unwrap().token, SwapToken::Native);
    for bad in [
        "",
        "eip155:1",
        "solana:1:abc",
        "eip155:01:0x5FbDB2315678afecb367f032d93F642f64180aa3",
        "eip155:1:0x12",
        "eip155:1:a:b",
    ] {
        let error = parse_token_id("from", bad).unwrap_err().to_string();
        assert!(error.starts_with("Invalid from"), "{bad}: {error}");
    }
    assert_eq!(parse_chain_id("chainId", "eip155:8453").unwrap(), 8453);
    assert_eq!(parse_chain_id("chainId", "10").unwrap(), 10);
    assert!(parse_chain_id("chainId", "0").is_err());
    assert!(parse_chain_id("chainId", "99999999999999999999").is_err());
    assert_eq!(parse_base_units("amount", "1000").unwrap(), U256::from(1000u64));
    for bad in ["0", "-1", "1.5", "1e6", "", &"9".repeat(79)] {
        assert!(parse_base_units("amount", bad).is_err(), "{bad}");
    }
    assert_eq!(parse_slippage_bps("1").unwrap(), 100);
    assert_eq!(parse_slippage_bps("0.5").unwrap(), 50);
    assert_eq!(parse_slippage_bps("50").unwrap(), 5000);
    for bad in ["0", "50.01", "0.001", "-1", "abc", "1."] {
        assert!(parse_slippage_bps(bad).is_err(), "{bad}");
    }
    assert_eq!(parse_account("userAddress", &format!("eip155:1:{USER}")).unwrap(), USER);
    assert!(parse_account("userAddress", "0x1234").is_err());
}

#[test]
fn pairs_and_their_router_functions() {
    let usdc = format!("eip155:1:{USDC}");
    let native = format!("eip155:1:{NATIVE_PLACEHOLDER}");
    let pair = parse_swap_pair(&native, &usdc).unwrap();
    assert_eq!(pair.ends(WETH).unwrap(), (WETH, USDC, SwapKind::ExactEthForTokens));
    let pair = parse_swap_pair(&usdc, &native).unwrap();
    assert_eq!(pair.ends(WETH).unwrap(), (USDC, WETH, SwapKind::ExactTokensForEth));
    assert!(parse_swap_pair(&usdc, &usdc).is_err());
    assert!(parse_swap_pair(&usdc, &format!("eip155:10:{LTK}")).is_err());
    let wrap = parse_swap_pair(&native, &format!("eip155:1:{WETH}")).unwrap();
    assert!(wrap.ends(WETH).is_err());
}

/// The contract's formula in plain big-integer arithmetic, from its source text.
fn reference_out(amount_in: u128, reserve_in: u128, reserve_out: u128) -> U256 {
    let with_fee = U256::from(amount_in) * U256::from(997u64);
    with_fee * U256::from(reserve_out) / (U256::from(reserve_in) * U256::from(1000u64) + with_fee)
}

proptest! {
    #[test]
    fn route_math_equals_the_formula(amount in 1u128..=u128::from(u64::MAX) << 32,
                                     r0 in 1u128..(1u128 << 112), r1 in 1u128..(1u128 << 112),
                                     r2 in 1u128..(1u128 << 112), r3 in 1u128..(1u128 << 112)) {
        let hops = [(U256::from(r0), U256::from(r1)), (U256::from(r2), U256::from(r3))];
        let first = reference_out(amount, r0, r1);
        let amounts = get_amounts_out(U256::from(amount), &hops);
        if first.is_zero() {
            // The contract reverts on a zero input to the second hop.
            prop_assert_eq!(amounts, None);
        } else {
            let first_u128: u128 = first.to::<u128>();
            let second = reference_out(first_u128, r2, r3);
            prop_assert_eq!(amounts, Some(vec![U256::from(amount), first, second]));
        }
        // An output never reaches the pool's whole reserve.
        prop_assert!(first < U256::from(r1));
    }

    #[test]
    fn minimum_received_never_exceeds_the_quote(out in any::<[u8; 32]>(), bps in 0u32..=10_000) {
        let out = U256::from_be_bytes(out);
        let min = minimum_received(out, bps);
        prop_assert!(min <= out);
        if out < U256::from(u128::MAX) {
            prop_assert_eq!(min, out * U256::from(10_000 - bps) / U256::from(10_000u64));
        }
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,120}", bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_token_id("from", &text);
        let _ = parse_chain_id("chainId", &text);
        let _ = parse_base_units("amount", &text);
        let _ = parse_slippage_bps(&text);
        let _ = parse_account("userAddress", &text);
        let _ = parse_swap_pair(&text, &text);
        let _ = decode_aggregate3(&bytes);
        let _ = decode_u256_array(&bytes);
    }

    #[test]
    fn token_ids_print_back(chain in 1u64..u64::MAX, raw in any::<[u8; 20]>()) {
        let id = TokenId { chain_id: chain, token: SwapToken::Erc20(Address::from(raw)) };
        prop_assert_eq!(parse_token_id("from", &id.caip10()).unwrap(), id);
    }
}

#[test]
fn swap_form_amounts() {
    use super::form::{swap_amount, SwapAmountInput};
    let read = |v: serde_json::Value| swap_amount(&serde_json::from_value::<SwapAmountInput>(v).unwrap());
    let a = read(serde_json::json!({"amount": "1.5", "decimals": 6, "balance": "2", "allowance": "1000000"})).unwrap();
    assert_eq!(
        (a.units.as_str(), a.exceeds_balance, a.needs_approval),
        ("1500000", false, true)
    );
    let a = read(serde_json::json!({"amount": "2.000001", "decimals": 6, "balance": "2"})).unwrap();
    assert!(a.exceeds_balance && !a.needs_approval);
    assert!(read(serde_json::json!({"amount": "0", "decimals": 6})).is_err());
    assert!(read(serde_json::json!({"amount": "0.0000001", "decimals": 6})).is_err());
    assert!(read(serde_json::json!({"amount": "1", "decimals": 6, "allowance": "x"})).is_err());
}
