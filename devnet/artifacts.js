// Contract artifacts for the fixture world: prebuilt ABIs and creation
// bytecode from the installed packages, plus the contracts we compile
// ourselves (FixtureToken, a 6-decimal stablecoin; FixtureSmartWallet, an
// ERC-1271 contract account; FixtureAccountFactory, its CREATE2 factory).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { keccak256, parseAbi } from 'viem';

const require = createRequire(import.meta.url);

/** Loads `{ abi, bytecode }` from a package's JSON build artifact. */
function load(specifier) {
  const artifact = require(specifier);
  // Truffle/Hardhat artifacts carry `bytecode` as a 0x string; Uniswap's
  // Waffle builds carry it without the prefix.
  const raw = typeof artifact.bytecode === 'string' ? artifact.bytecode : artifact.evm.bytecode.object;
  const bytecode = raw.startsWith('0x') ? raw : `0x${raw}`;
  if (bytecode.length <= 2) throw new Error(`${specifier} has no creation bytecode (abstract contract?)`);
  return { abi: artifact.abi, bytecode };
}

/**
 * Compiles contracts/<name>.sol (contract <name>) with solc-js. solc is a
 * dependency of @ensdomains/ens, pinned at 0.4.26, so the output is reproducible.
 */
function compileFixture(name) {
  const solc = require('solc');
  const file = `${name}.sol`;
  const source = readFileSync(new URL(`./contracts/${file}`, import.meta.url), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compileStandardWrapper(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`${file} failed to compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }
  const { abi, evm } = output.contracts[file][name];
  return { abi, bytecode: `0x${evm.bytecode.object}` };
}

/**
 * Creation code compiled by scripts/build-contracts (solc 0.8, which start-up
 * should not have to load) and committed beside its source.
 */
function prebuilt(name) {
  return readFileSync(new URL(`./contracts/${name}.hex`, import.meta.url), 'utf8').trim();
}

/**
 * viem embeds Multicall3's creation code for deployless reads but does not
 * export it, so it is read out of viem's installed source.
 */
function multicall3CreationCode() {
  const viemRoot = dirname(require.resolve('viem/package.json'));
  const source = readFileSync(join(viemRoot, '_esm', 'constants', 'contracts.js'), 'utf8');
  const match = source.match(/multicall3Bytecode\s*=\s*'(0x[0-9a-fA-F]+)'/);
  if (!match) throw new Error('could not find multicall3Bytecode in viem/_esm/constants/contracts.js');
  return match[1];
}

/** Uniswap's periphery `PoolAddress.POOL_INIT_CODE_HASH` (v3-periphery 1.x). */
export const V3_POOL_INIT_CODE_HASH = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54';

/**
 * A Hardhat artifact of the V3 packages; the pool's creation code must hash to
 * the periphery's hard-coded init code hash, or the router and quoter would
 * look for pools at addresses where there are none.
 */
function loadV3(specifier) {
  const artifact = load(specifier);
  if (specifier.endsWith('/UniswapV3Factory.json')) {
    const pool = load('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json');
    if (keccak256(pool.bytecode) !== V3_POOL_INIT_CODE_HASH) {
      throw new Error('@uniswap/v3-core pool bytecode does not match the periphery POOL_INIT_CODE_HASH');
    }
  }
  return artifact;
}

export function loadArtifacts() {
  return {
    multicall3CreationCode: multicall3CreationCode(),
    fixtureToken: compileFixture('FixtureToken'),
    smartWallet: compileFixture('FixtureSmartWallet'),
    accountFactory: {
      abi: parseAbi([
        'constructor(bytes code)',
        'function getAddress(address owner, uint256 salt) view returns (address)',
        'function createAccount(address owner, uint256 salt) returns (address account)',
      ]),
      bytecode: prebuilt('FixtureAccountFactory'),
    },
    offchainResolver: {
      abi: parseAbi([
        'constructor(string url, address[] signers)',
        'function resolve(bytes name, bytes data) view returns (bytes)',
        'function resolveWithProof(bytes response, bytes extraData) view returns (bytes)',
        'function url() view returns (string)',
        'function signers(address) view returns (bool)',
        'error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData)',
        'error UntrustedSigner(address signer)',
        'error AnswerExpired(uint64 expires)',
        'error MalformedSignature()',
      ]),
      bytecode: prebuilt('OffchainResolver'),
    },
    universalResolver: {
      abi: parseAbi([
        'constructor(address registry)',
        'function resolveWithGateways(bytes name, bytes data, string[] gateways) view returns (bytes, address)',
        'function findResolver(bytes name) view returns (address resolver, bool exact)',
      ]),
      bytecode: prebuilt('UniversalResolver'),
    },
    erc20Preset: load('@openzeppelin/contracts/build/contracts/ERC20PresetMinterPauser.json'),
    erc721Preset: load('@openzeppelin/contracts/build/contracts/ERC721PresetMinterPauserAutoId.json'),
    weth9: load('@uniswap/v2-periphery/build/WETH9.json'),
    uniswapV2Factory: load('@uniswap/v2-core/build/UniswapV2Factory.json'),
    uniswapV2Pair: load('@uniswap/v2-core/build/UniswapV2Pair.json'),
    uniswapV2Router02: load('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
    uniswapV3Factory: loadV3('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
    uniswapV3QuoterV2: loadV3('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json'),
    uniswapV3SwapRouter: loadV3('@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json'),
    uniswapV3PositionManager: loadV3(
      '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
    ),
    ensRegistry: load('@ensdomains/ens/build/contracts/ENSRegistry.json'),
    ensReverseRegistrar: load('@ensdomains/ens/build/contracts/ReverseRegistrar.json'),
    ensPublicResolver: load('@ensdomains/resolver/build/contracts/PublicResolver.json'),
  };
}
