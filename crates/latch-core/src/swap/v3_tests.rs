use alloy_primitives::{address, Address, U256};
use alloy_sol_types::{sol, SolCall};
use proptest::prelude::*;

use super::*;

sol! {
    struct Params { bytes path; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; }
    function exactInput(Params params);
    function multicall(bytes[] data);
    function unwrapWETH9(uint256 amountMinimum, address recipient);
    function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut,
        uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate);
}

const WETH: Address = address!("C02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2");
const USDC: Address = address!("A0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48");
const DAI: Address = address!("6B175474E89094C44Da98b954EedeAC495271d0F");
const USER: Address = address!("70997970C51812dc3A010C7d01b50e0d17dc79C8");
const ROUTER: Address = address!("E592427A0AEce92De3Edee1F18E0157C05861564");

#[test]
fn pool_address_matches_mainnet_usdc_weth_005() {
    // Uniswap's mainnet factory and its USDC/WETH 0.05 % pool.
    let factory = address!("1F98431c8aD98523631AE4a59f267346ea31F984");
    let pool = address!("88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640");
    assert_eq!(
        pool_address(factory, UNISWAP_POOL_INIT_CODE_HASH, WETH, USDC, 500),
        pool
    );
    assert_eq!(
        pool_address(factory, UNISWAP_POOL_INIT_CODE_HASH, USDC, WETH, 500),
        pool
    );
    assert_ne!(
        pool_address(factory, UNISWAP_POOL_INIT_CODE_HASH, USDC, WETH, 3000),
        pool
    );
}

#[test]
fn path_packs_as_the_router_reads_it() {
    let path = V3Path::new(vec![USDC, WETH, DAI], vec![500, 3000]).unwrap();
    let bytes = path.encode();
    assert_eq!(bytes.len(), 66);
    assert_eq!(&bytes[..20], USDC.as_slice());
    assert_eq!(&bytes[20..23], &[0x00, 0x01, 0xf4]);
    assert_eq!(&bytes[23..43], WETH.as_slice());
    assert_eq!(&bytes[43..46], &[0x00, 0x0b, 0xb8]);
    assert_eq!(&bytes[46..], DAI.as_slice());
    assert_eq!(V3Path::decode(&bytes).unwrap(), path);
    assert_eq!(
        path.pools().collect::<Vec<_>>(),
        vec![(USDC, WETH, 500), (WETH, DAI, 3000)]
    );
}

#[test]
fn bad_paths_are_refused() {
    assert!(V3Path::new(vec![USDC], vec![]).is_err());
    assert!(V3Path::new(vec![USDC, WETH], vec![500, 500]).is_err());
    assert!(V3Path::new(vec![USDC, WETH], vec![FEE_DENOMINATOR]).is_err());
    assert!(V3Path::new(vec![USDC; 6], vec![500; 5]).is_err());
    for len in [0, 20, 42, 44, 65] {
        assert!(V3Path::decode(&vec![1u8; len]).is_err(), "{len} bytes");
    }
    // A fee of 0xffffff (≥ 100 %) in an otherwise well-formed path.
    let mut bytes = V3Path::new(vec![USDC, WETH], vec![500]).unwrap().encode();
    bytes[20..23].copy_from_slice(&[0xff, 0xff, 0xff]);
    assert!(V3Path::decode(&bytes).is_err());
}

#[test]
fn candidates_are_each_tier_direct_then_each_pair_through_the_middles() {
    let paths = candidate_paths(USDC, DAI, WETH, &[USDC, WETH], &[500, 3000]);
    let direct: Vec<_> = paths.iter().filter(|p| p.hops() == 1).collect();
    assert_eq!(direct.len(), 2);
    // USDC is an end and WETH repeats: only WETH's four fee pairs.
    assert_eq!(paths.len(), 2 + 4);
    assert!(paths
        .iter()
        .all(|p| p.tokens()[0] == USDC && p.tokens().last() == Some(&DAI)));
    assert!(paths.contains(&V3Path::new(vec![USDC, WETH, DAI], vec![3000, 500]).unwrap()));
    // A fee tier of 100 % or more cannot form a path and drops out.
    assert_eq!(candidate_paths(USDC, DAI, WETH, &[], &[FEE_DENOMINATOR]).len(), 0);
}

#[test]
fn quoter_calldata_and_answer() {
    let path = V3Path::new(vec![WETH, USDC], vec![500]).unwrap();
    let data = quote_exact_input_data(&path, U256::from(7u64));
    let call = quoteExactInputCall::abi_decode(&data).unwrap();
    assert_eq!(call.path.to_vec(), path.encode());
    assert_eq!(call.amountIn, U256::from(7u64));
    let answer = quoteExactInputCall::abi_encode_returns(&quoteExactInputReturn {
        amountOut: U256::from(42u64),
        sqrtPriceX96AfterList: vec![alloy_primitives::aliases::U160::from(1u64)],
        initializedTicksCrossedList: vec![0],
        gasEstimate: U256::from(90_000u64),
    });
    assert_eq!(decode_quote_exact_input(&answer), Some(U256::from(42u64)));
    assert_eq!(decode_quote_exact_input(&[]), None);
    assert_eq!(decode_quote_exact_input(&answer[..40]), None);
}

#[test]
fn slot0_of_no_pool_is_none() {
    assert_eq!(decode_slot0(&[]), None);
    let mut answer = vec![0u8; 7 * 32];
    assert_eq!(decode_slot0(&answer), None, "uninitialised");
    answer[31] = 5;
    assert_eq!(decode_slot0(&answer), Some(U256::from(5u64)));
    answer[0] = 1; // above 160 bits
    assert_eq!(decode_slot0(&answer), None);
}

#[test]
fn swaps_go_through_exact_input_and_native_out_unwraps_in_the_same_call() {
    let path = V3Path::new(vec![USDC, WETH], vec![500]).unwrap();
    let (amount, min) = (U256::from(1000u64), U256::from(990u64));
    let (data, value) = swap_data(SwapKind::ExactTokensForTokens, ROUTER, &path, amount, min, USER, 99);
    assert_eq!(value, U256::ZERO);
    let params = exactInputCall::abi_decode(&data).unwrap().params;
    assert_eq!(
        (
            params.recipient,
            params.deadline,
            params.amountIn,
            params.amountOutMinimum
        ),
        (USER, U256::from(99u64), amount, min)
    );
    assert_eq!(params.path.to_vec(), path.encode());

    let (data, value) = swap_data(SwapKind::ExactEthForTokens, ROUTER, &path, amount, min, USER, 99);
    assert_eq!((value, &data[..4]), (amount, &EXACT_INPUT[..]));

    let (data, value) = swap_data(SwapKind::ExactTokensForEth, ROUTER, &path, amount, min, USER, 99);
    assert_eq!(value, U256::ZERO);
    let calls = multicallCall::abi_decode(&data).unwrap().data;
    assert_eq!(calls.len(), 2);
    assert_eq!(exactInputCall::abi_decode(&calls[0]).unwrap().params.recipient, ROUTER);
    let unwrap = unwrapWETH9Call::abi_decode(&calls[1]).unwrap();
    assert_eq!((unwrap.amountMinimum, unwrap.recipient), (min, USER));
}

fn q96() -> U256 {
    U256::from(1u64) << 96
}

#[test]
fn best_route_takes_the_most_and_skips_missing_pools() {
    let a = V3Path::new(vec![USDC, WETH], vec![500]).unwrap();
    let b = V3Path::new(vec![USDC, WETH], vec![3000]).unwrap();
    let c = V3Path::new(vec![USDC, WETH], vec![10_000]).unwrap();
    let route = best_route(
        U256::from(100u64),
        vec![
            (a, Some(U256::from(90u64)), Some(vec![q96()])),
            (b.clone(), Some(U256::from(95u64)), Some(vec![q96()])),
            (c, None, None),
        ],
    )
    .unwrap();
    assert_eq!((route.path, route.amount_out), (b, U256::from(95u64)));
    assert_eq!(best_route(U256::from(1u64), vec![]), None);
}

#[test]
fn price_impact_is_the_shortfall_against_the_pools_price_less_fees() {
    // Price 1:1, 1 % fee pool: 1 000 000 in would buy 990 000 at the price.
    let path = V3Path::new(vec![USDC, WETH], vec![10_000]).unwrap();
    let route = |out: u64| V3Route {
        path: path.clone(),
        amount_in: U256::from(1_000_000u64),
        amount_out: U256::from(out),
        sqrt_prices: vec![q96()],
    };
    assert_eq!(route(990_000).price_impact_bps(), 0);
    assert_eq!(route(980_150).price_impact_bps(), 100);
    // Token1 → token0 at sqrtPrice 2 (4 token1 per token0): the rate is a quarter.
    let reverse = V3Route {
        path: V3Path::new(vec![WETH, USDC], vec![500]).unwrap(),
        amount_in: U256::from(4_000_000u64),
        amount_out: U256::from(989_600u64),
        sqrt_prices: vec![q96() * U256::from(2u64)],
    };
    assert_eq!(reverse.price_impact_bps(), 100);
}

proptest! {
    #[test]
    fn paths_round_trip(
        tokens in proptest::collection::vec(any::<[u8; 20]>(), 2..=5),
        fees in proptest::collection::vec(0u32..FEE_DENOMINATOR, 4),
    ) {
        let tokens: Vec<Address> = tokens.into_iter().map(Address::from).collect();
        let fees = fees[..tokens.len() - 1].to_vec();
        let path = V3Path::new(tokens, fees).unwrap();
        prop_assert_eq!(V3Path::decode(&path.encode()).unwrap(), path);
    }

    #[test]
    fn decoding_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(path) = V3Path::decode(&bytes) {
            prop_assert_eq!(path.encode(), bytes);
        }
    }
}
