// Deploys the deterministic fixture world onto a fresh anvil node.
//
// Every transaction is sent by anvil account #0 in a fixed order, so contract
// addresses (derived from #0's nonce) are identical on every fresh node.
// Changing the order or adding a transaction before an existing deployment
// moves the addresses after it: append new fixtures at the end.
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  labelhash,
  maxUint256,
  namehash,
  parseEther,
  parseUnits,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { anvil } from 'viem/chains';

import { ACCOUNT_COUNT, MNEMONIC } from './anvil.js';
import { loadArtifacts } from './artifacts.js';

export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';

export const ENS_NAME = 'latch-dev.eth';
export const ENS_AVATAR = 'https://127.0.0.1:8787/avatar/latch-dev.png';
export const NFT_BASE_URI = 'http://127.0.0.1:8787/nft/';
// The name zone `latch` registers names under (its default `name_zone`), resolved on this chain
// by an offchain resolver asking `latch`'s CCIP-Read gateway (EIP-3668 GET form).
export const NAME_ZONE = 'latch.id';
export const CCIP_URL = 'http://127.0.0.1:8787/ccip/{sender}/{data}.json';
// The gateway's `--dev` signer (anvil account 9, `DEV_CCIP_SIGNING_KEY` in latch's config).
export const CCIP_DEV_SIGNER = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

const USDC = { name: 'USD Coin', symbol: 'USDC', decimals: 6 };
const LTK = { name: 'Latch Token', symbol: 'LTK', decimals: 18 };
const NFT = { name: 'Latch Punks', symbol: 'LPUNK' };
// The account whose signatures the ERC-1271 fixture wallet accepts.
const SMART_WALLET_OWNER = 1;

// Whole-token amounts. #0 keeps DEPLOYER_HOLDING after seeding the pools;
// accounts #1..#3 get OTHER_HOLDING each.
const DEPLOYER_HOLDING = '1000000';
const OTHER_HOLDING = '10000';
const FUNDED_ACCOUNTS = [1, 2, 3];
// Pools: 100 ETH : 300,000 USDC (3000 USDC/ETH) and 100 ETH : 600,000 LTK
// (6000 LTK/ETH, i.e. 1 LTK = 0.5 USDC).
const POOL_ETH = '100';
const POOL_USDC = '300000';
const POOL_LTK = '600000';
// Uniswap V3 (appended last): two unlisted 18-decimal tokens traded only on
// concentrated-liquidity pools, so no V2 route's answer changes and V3 is the
// only (thus best) route for them: WETH/LBT at 0.3 % (1 ETH = 1000 LBT) and
// WETH/LCT at 0.05 % (1 ETH = 4000 LCT), each with its liquidity in a range of
// about ±10 % around that price. LBT → LCT is then a two-hop V3 route through WETH.
const LBT = { name: 'Latch Beta', symbol: 'LBT', decimals: 18 };
const LCT = { name: 'Latch Gamma', symbol: 'LCT', decimals: 18 };
const V3_FEE_TIERS = [500, 3000, 10000];
const V3_POOLS = [
  { token: 'lbt', fee: 3000, spacing: 60, perEth: 1000n },
  { token: 'lct', fee: 500, spacing: 10, perEth: 4000n },
];
const V3_POOL_ETH = '50';
const V3_RANGE = 0.1;

/** The 10 anvil accounts derived from the devnet mnemonic. */
export function devnetAccounts() {
  return Array.from({ length: ACCOUNT_COUNT }, (_, addressIndex) => {
    const account = mnemonicToAccount(MNEMONIC, { addressIndex });
    return { address: getAddress(account.address), privateKey: toHex(account.getHdKey().privateKey) };
  });
}

/** A viem chain for the devnet, including the Multicall3 it deploys. */
export function devnetChain(rpcUrl, chainId = anvil.id) {
  return defineChain({
    ...anvil,
    id: chainId,
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
}

/**
 * Deploys the fixture world to the node at `rpcUrl` and returns the
 * addresses object (the JSON written by index.js). The node must be fresh
 * (account #0 at nonce 0) for the addresses to match the documented ones.
 */
export async function deployFixture({ rpcUrl, nftBaseUri = NFT_BASE_URI, ccipUrl = CCIP_URL }) {
  const accounts = devnetAccounts();
  const deployer = accounts[0].address;

  const probe = createPublicClient({ transport: http(rpcUrl) });
  const chainId = await probe.getChainId();
  const chain = devnetChain(rpcUrl, chainId);
  // Anvil mines each transaction as it arrives, so receipts exist almost
  // immediately; poll fast instead of viem's multi-second default.
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 20 });
  // Transactions go through eth_sendTransaction with anvil's unlocked #0.
  // Never retried: a send that timed out on a loaded machine may still have been mined, and a retry
  // would send it twice (another nonce, other addresses).
  const walletClient = createWalletClient({ account: deployer, chain, transport: http(rpcUrl, { retryCount: 0, timeout: 120_000 }) });

  const [unlocked] = await publicClient.request({ method: 'eth_accounts' });
  if (!unlocked || getAddress(unlocked) !== deployer) {
    throw new Error(`node at ${rpcUrl} was not started with the devnet mnemonic (first account ${unlocked})`);
  }
  const nonce = await publicClient.getTransactionCount({ address: deployer });
  if (nonce !== 0) {
    throw new Error(`account #0 has nonce ${nonce} on ${rpcUrl}; deploy to a fresh node so addresses stay deterministic`);
  }

  const artifacts = loadArtifacts();

  const confirm = async (hash) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };
  const deploy = async ({ abi, bytecode }, args = []) => {
    const receipt = await confirm(await walletClient.deployContract({ abi, bytecode, args }));
    return getAddress(receipt.contractAddress);
  };
  // The gas limit is the estimate plus a fifth: a Uniswap V3 pool spends more when a call lands in
  // a later second than its estimate (the oracle writes an observation), which a loaded machine
  // made happen, and the call then ran out of gas and reverted.
  const write = async (address, { abi }, functionName, args, value) => {
    const estimate = await publicClient.estimateContractGas({ address, abi, functionName, args, value, account: deployer });
    return confirm(await walletClient.writeContract({ address, abi, functionName, args, value, gas: (estimate * 6n) / 5n }));
  };
  const read = (address, { abi }, functionName, args) =>
    publicClient.readContract({ address, abi, functionName, args });

  // Multicall3: running its creation code in an eth_call returns the runtime
  // code without spending a nonce, which is then placed at the canonical
  // address that wallets and viem expect.
  const { data: multicallCode } = await publicClient.call({ data: artifacts.multicall3CreationCode });
  await publicClient.request({ method: 'anvil_setCode', params: [MULTICALL3_ADDRESS, multicallCode] });
  if ((await publicClient.getCode({ address: MULTICALL3_ADDRESS })) !== multicallCode) {
    throw new Error('anvil_setCode did not install Multicall3');
  }

  // ERC-20 tokens. #0 is minted its holding plus what it puts into the pool.
  const usdc = await deploy(artifacts.fixtureToken, [USDC.name, USDC.symbol, USDC.decimals]);
  const ltk = await deploy(artifacts.erc20Preset, [LTK.name, LTK.symbol]);
  const tokens = [
    { address: usdc, meta: USDC, pool: POOL_USDC, artifact: artifacts.fixtureToken },
    { address: ltk, meta: LTK, pool: POOL_LTK, artifact: artifacts.erc20Preset },
  ];
  for (const { address, meta, pool, artifact } of tokens) {
    const units = (amount) => parseUnits(amount, meta.decimals);
    await write(address, artifact, 'mint', [deployer, units(DEPLOYER_HOLDING) + units(pool)]);
    for (const index of FUNDED_ACCOUNTS) {
      await write(address, artifact, 'mint', [accounts[index].address, units(OTHER_HOLDING)]);
    }
  }

  // Uniswap V2. Router02 computes pair addresses from a hard-coded init code
  // hash, which matches the UniswapV2Pair bytecode of @uniswap/v2-core 1.0.x.
  const weth = await deploy(artifacts.weth9);
  const uniswapV2Factory = await deploy(artifacts.uniswapV2Factory, [deployer]);
  const uniswapV2Router = await deploy(artifacts.uniswapV2Router02, [uniswapV2Factory, weth]);
  for (const { address, meta, pool, artifact } of tokens) {
    const amount = parseUnits(pool, meta.decimals);
    const eth = parseEther(POOL_ETH);
    await write(address, artifact, 'approve', [uniswapV2Router, amount]);
    // Fresh pools, so the minimums equal the desired amounts; the deadline
    // is unbounded because block timestamps vary between runs.
    await write(
      uniswapV2Router,
      artifacts.uniswapV2Router02,
      'addLiquidityETH',
      [address, amount, amount, eth, deployer, maxUint256],
      eth,
    );
  }
  const pairFor = async (token) => getAddress(await read(uniswapV2Factory, artifacts.uniswapV2Factory, 'getPair', [weth, token]));
  const pairs = { wethUsdc: await pairFor(usdc), wethLtk: await pairFor(ltk) };

  // ENS: registry (root owned by #0), resolver, reverse registrar; `eth` and
  // `latch-dev.eth` owned by #0; `addr.reverse` owned by the reverse
  // registrar so any account can claim its reverse record.
  const ensRegistry = await deploy(artifacts.ensRegistry);
  const ensPublicResolver = await deploy(artifacts.ensPublicResolver, [ensRegistry]);
  const ensReverseRegistrar = await deploy(artifacts.ensReverseRegistrar, [ensRegistry, ensPublicResolver]);
  const registry = artifacts.ensRegistry;
  await write(ensRegistry, registry, 'setSubnodeOwner', [zeroHash, labelhash('reverse'), deployer]);
  await write(ensRegistry, registry, 'setSubnodeOwner', [namehash('reverse'), labelhash('addr'), ensReverseRegistrar]);
  await write(ensRegistry, registry, 'setSubnodeOwner', [zeroHash, labelhash('eth'), deployer]);
  const [label] = ENS_NAME.split('.');
  await write(ensRegistry, registry, 'setSubnodeRecord', [namehash('eth'), labelhash(label), deployer, ensPublicResolver, 0n]);
  const node = namehash(ENS_NAME);
  await write(ensPublicResolver, artifacts.ensPublicResolver, 'setAddr', [node, deployer]);
  await write(ensPublicResolver, artifacts.ensPublicResolver, 'setText', [node, 'avatar', ENS_AVATAR]);
  await write(ensReverseRegistrar, artifacts.ensReverseRegistrar, 'setName', [ENS_NAME]);

  // ERC-721 with token 0 minted to #0.
  const nft = await deploy(artifacts.erc721Preset, [NFT.name, NFT.symbol, nftBaseUri]);
  await write(nft, artifacts.erc721Preset, 'mint', [deployer]);

  // An ERC-1271 contract account owned by #1 (signatures by #1 are its signatures).
  const smartWalletOwner = accounts[SMART_WALLET_OWNER].address;
  const smartWallet = await deploy(artifacts.smartWallet, [smartWalletOwner]);

  // A CREATE2 factory of such wallets, for counterfactual (ERC-6492) accounts.
  const accountFactory = await deploy(artifacts.accountFactory, [artifacts.smartWallet.bytecode]);

  // The name zone: `id` owned by #0, `latch.id` resolved by the offchain resolver that trusts
  // the gateway's dev signer; a Universal Resolver for ENS libraries (viem's getEnsAddress).
  const offchainResolver = await deploy(artifacts.offchainResolver, [ccipUrl, [CCIP_DEV_SIGNER]]);
  const [zoneLabel, zoneParent] = NAME_ZONE.split('.');
  await write(ensRegistry, registry, 'setSubnodeOwner', [zeroHash, labelhash(zoneParent), deployer]);
  await write(ensRegistry, registry, 'setSubnodeRecord', [namehash(zoneParent), labelhash(zoneLabel), deployer, offchainResolver, 0n]);
  const universalResolver = await deploy(artifacts.universalResolver, [ensRegistry]);

  const uniswapV3 = await deployUniswapV3({ accounts, weth, artifacts, deploy, write, read });

  return {
    chainId,
    caipNetworkId: `eip155:${chainId}`,
    rpcUrl,
    accounts,
    contracts: {
      multicall3: MULTICALL3_ADDRESS,
      usdc: { address: usdc, symbol: USDC.symbol, decimals: USDC.decimals, name: USDC.name },
      ltk: { address: ltk, symbol: LTK.symbol, decimals: LTK.decimals, name: LTK.name },
      weth,
      uniswapV2Factory,
      uniswapV2Router,
      pairs,
      ensRegistry,
      ensPublicResolver,
      ensReverseRegistrar,
      nft: { address: nft, name: NFT.name, symbol: NFT.symbol },
      smartWallet: { address: smartWallet, owner: smartWalletOwner },
      accountFactory,
      offchainResolver,
      universalResolver,
      lbt: uniswapV3.tokens.lbt,
      lct: uniswapV3.tokens.lct,
      uniswapV3: uniswapV3.contracts,
    },
    ens: { name: ENS_NAME, owner: deployer, avatar: ENS_AVATAR },
    names: { zone: NAME_ZONE, ccipUrl, signer: CCIP_DEV_SIGNER },
  };
}

/** `floor(sqrt(n))` of a bigint (Newton's method). */
function sqrtBig(n) {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

/**
 * Who holds the V3 fixture positions (ERC-721s): nobody's key, so #0's NFTs and holdings stay what
 * the index and history tests expect. The liquidity is locked for good, as a fixture's may be.
 */
const V3_POSITION_OWNER = '0x000000000000000000000000000000000000dEaD';

/** The tick at `price` (token1 per token0, raw units), rounded down to a multiple of `spacing`. */
function tickAt(price, spacing) {
  const tick = Math.floor(Math.log(price) / Math.log(1.0001));
  return Math.floor(tick / spacing) * spacing;
}

/**
 * Uniswap V3 from the npm build artifacts (factory, QuoterV2, SwapRouter,
 * NonfungiblePositionManager) and the V3-only fixture pools. The periphery
 * computes pool addresses from a hard-coded POOL_INIT_CODE_HASH, which
 * artifacts.js checks against the factory's pool bytecode.
 */
async function deployUniswapV3({ accounts, weth, artifacts, deploy, write, read }) {
  const deployer = accounts[0].address;
  const tokens = {};
  for (const [key, meta] of [['lbt', LBT], ['lct', LCT]]) {
    const address = await deploy(artifacts.erc20Preset, [meta.name, meta.symbol]);
    const pool = V3_POOLS.find((p) => p.token === key);
    const units = (amount) => parseUnits(amount, meta.decimals);
    // Only #0 holds them: #1..#3's balances and activity stay as the tests know them.
    await write(address, artifacts.erc20Preset, 'mint', [deployer, units(DEPLOYER_HOLDING) + parseEther(V3_POOL_ETH) * pool.perEth]);
    tokens[key] = { address, symbol: meta.symbol, decimals: meta.decimals, name: meta.name };
  }
  const factory = await deploy(artifacts.uniswapV3Factory);
  const quoter = await deploy(artifacts.uniswapV3QuoterV2, [factory, weth]);
  const router = await deploy(artifacts.uniswapV3SwapRouter, [factory, weth]);
  // No token descriptor: tokenURI is never read here.
  const positionManager = await deploy(artifacts.uniswapV3PositionManager, [factory, weth, zeroAddress]);

  const pools = {};
  for (const { token, fee, spacing, perEth } of V3_POOLS) {
    const other = tokens[token].address;
    const eth = parseEther(V3_POOL_ETH);
    const amountOther = eth * perEth;
    await write(weth, artifacts.weth9, 'deposit', [], eth);
    await write(weth, artifacts.weth9, 'approve', [positionManager, eth]);
    await write(other, artifacts.erc20Preset, 'approve', [positionManager, amountOther]);
    const wethFirst = BigInt(weth) < BigInt(other);
    const [token0, token1] = wethFirst ? [weth, other] : [other, weth];
    const [amount0, amount1] = wethFirst ? [eth, amountOther] : [amountOther, eth];
    // Price of token0 in token1 (both 18 decimals): sqrt(amount1/amount0) · 2^96.
    const sqrtPriceX96 = sqrtBig((amount1 << 192n) / amount0);
    const price = Number(amount1) / Number(amount0);
    const tickLower = tickAt(price * (1 - V3_RANGE), spacing);
    const tickUpper = tickAt(price * (1 + V3_RANGE), spacing) + spacing;
    const npm = artifacts.uniswapV3PositionManager;
    await write(positionManager, npm, 'createAndInitializePoolIfNecessary', [token0, token1, fee, sqrtPriceX96]);
    await write(positionManager, npm, 'mint', [
      { token0, token1, fee, tickLower, tickUpper, amount0Desired: amount0, amount1Desired: amount1, amount0Min: 0n, amount1Min: 0n, recipient: V3_POSITION_OWNER, deadline: maxUint256 },
    ]);
    const key = `weth${token[0].toUpperCase()}${token.slice(1)}`;
    pools[key] = getAddress(await read(factory, artifacts.uniswapV3Factory, 'getPool', [token0, token1, fee]));
  }
  return { tokens, contracts: { factory, quoter, router, positionManager, feeTiers: V3_FEE_TIERS, pools } };
}
