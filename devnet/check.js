#!/usr/bin/env node
// Self-check for the devnet: starts it through the real CLI, reads every
// fixture fact back over RPC, checks that a second deployment yields the same
// addresses, and stops everything. Prints `N passed, M failed`; exits non-zero
// on any failure. Run with `node devnet/check.js`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createPublicClient,
  erc20Abi,
  erc721Abi,
  encodePacked,
  formatUnits,
  getAddress,
  hashMessage,
  http,
  namehash,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { startAnvil } from './anvil.js';
import { devnetChain } from './deploy.js';

const CLI = fileURLToPath(new URL('./index.js', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
const OVERALL_TIMEOUT_MS = 180_000;

const pairAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
]);
const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)']);
const routerAbi = parseAbi([
  'function factory() view returns (address)',
  'function WETH() view returns (address)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
]);
const ensRegistryAbi = parseAbi([
  'function owner(bytes32 node) view returns (address)',
  'function resolver(bytes32 node) view returns (address)',
]);
const ensResolverAbi = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function name(bytes32 node) view returns (string)',
  'function text(bytes32 node, string key) view returns (string)',
]);
const nftExtraAbi = parseAbi(['function totalSupply() view returns (uint256)']);

// --- tiny harness -----------------------------------------------------------

let passed = 0;
let failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed += 1;
    console.log(`ok - ${name}`);
  } catch (err) {
    failed += 1;
    console.log(`not ok - ${name}\n  ${String(err.message).split('\n').join('\n  ')}`);
  }
}

/** Runs the devnet CLI; resolves `ready` with the parsed ready line. */
function runCli(args) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`devnet not ready after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = stdout.match(/^devnet ready (\S+) (\S+)\n/);
      if (match) {
        clearTimeout(timer);
        resolve({ rpcUrl: match[1], file: match[2], stdout });
      }
    });
    exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`devnet exited with ${code} before ready:\n${stderr}`));
    });
  });
  ready.catch(() => {}); // observed by callers that expect readiness
  return { child, ready, exit, stderr: () => stderr, stdout: () => stdout };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const isChecksummed = (value) => typeof value === 'string' && getAddress(value) === value;

// --- checks ------------------------------------------------------------------

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'latch-devnet-check-'));
  const cleanup = [];
  const watchdog = setTimeout(() => {
    console.log(`not ok - whole check exceeded ${OVERALL_TIMEOUT_MS} ms`);
    process.exit(1);
  }, OVERALL_TIMEOUT_MS);
  watchdog.unref();

  try {
    const port = await freePort();
    const outFile = join(tmp, 'addresses.json');
    const started = Date.now();
    const devnet = runCli(['--port', String(port), '--out', outFile]);
    cleanup.push(() => devnet.child.kill('SIGKILL'));

    let ready;
    await check('devnet starts and prints exactly one ready line', async () => {
      ready = await devnet.ready;
      assert.equal(ready.rpcUrl, `http://127.0.0.1:${port}`);
      assert.equal(ready.file, outFile);
      assert.equal(ready.stdout, `devnet ready http://127.0.0.1:${port} ${outFile}\n`);
    });
    if (!ready) return;
    console.log(`  (start to ready: ${Date.now() - started} ms)`);

    const fixture = JSON.parse(readFileSync(outFile, 'utf8'));
    const { contracts: c } = fixture;
    const accounts = fixture.accounts.map((a) => a.address);
    const [deployer] = accounts;
    const client = createPublicClient({ chain: devnetChain(ready.rpcUrl), transport: http(ready.rpcUrl) });
    const read = (address, abi, functionName, args) => client.readContract({ address, abi, functionName, args });

    await check('addresses JSON has the documented shape', () => {
      assert.deepEqual(Object.keys(fixture), ['chainId', 'caipNetworkId', 'rpcUrl', 'accounts', 'contracts', 'ens', 'names']);
      assert.equal(fixture.chainId, 31337);
      assert.equal(fixture.caipNetworkId, 'eip155:31337');
      assert.equal(fixture.rpcUrl, ready.rpcUrl);
      assert.deepEqual(Object.keys(c).sort(), [
        'accountFactory', 'ensPublicResolver', 'ensRegistry', 'ensReverseRegistrar', 'lbt', 'lct', 'ltk', 'multicall3', 'nft',
        'offchainResolver', 'pairs', 'smartWallet', 'uniswapV2Factory', 'uniswapV2Router', 'uniswapV3', 'universalResolver',
        'usdc', 'weth',
      ]);
      assert.deepEqual(Object.keys(c.uniswapV3).sort(), ['factory', 'feeTiers', 'pools', 'positionManager', 'quoter', 'router']);
      assert.deepEqual(c.uniswapV3.feeTiers, [500, 3000, 10000]);
      assert.deepEqual(c.smartWallet, { address: c.smartWallet.address, owner: accounts[1] });
      assert.deepEqual(c.usdc, { address: c.usdc.address, symbol: 'USDC', decimals: 6, name: 'USD Coin' });
      assert.deepEqual(c.ltk, { address: c.ltk.address, symbol: 'LTK', decimals: 18, name: 'Latch Token' });
      assert.deepEqual(c.nft, { address: c.nft.address, name: 'Latch Punks', symbol: 'LPUNK' });
      assert.deepEqual(fixture.ens, {
        name: 'latch-dev.eth',
        owner: deployer,
        avatar: 'https://127.0.0.1:8787/avatar/latch-dev.png',
      });
      assert.deepEqual(fixture.names, {
        zone: 'latch.id',
        ccipUrl: 'http://127.0.0.1:8787/ccip/{sender}/{data}.json',
        signer: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      });
    });

    await check('all addresses are EIP-55 checksummed and distinct', () => {
      const all = [
        ...accounts, c.multicall3, c.usdc.address, c.ltk.address, c.weth, c.uniswapV2Factory, c.uniswapV2Router,
        c.pairs.wethUsdc, c.pairs.wethLtk, c.ensRegistry, c.ensPublicResolver, c.ensReverseRegistrar, c.nft.address,
        c.smartWallet.address, c.accountFactory, c.offchainResolver, c.universalResolver, fixture.ens.owner,
        c.lbt.address, c.lct.address, c.uniswapV3.factory, c.uniswapV3.quoter, c.uniswapV3.router,
        c.uniswapV3.positionManager, c.uniswapV3.pools.wethLbt, c.uniswapV3.pools.wethLct,
      ];
      for (const address of all) assert.ok(isChecksummed(address), `${address} is not checksummed`);
      assert.equal(new Set(all).size, all.length - 1); // ens.owner is account #0
    });

    await check('10 accounts whose private keys match their addresses', () => {
      assert.equal(fixture.accounts.length, 10);
      assert.equal(deployer, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
      for (const { address, privateKey } of fixture.accounts) {
        assert.equal(privateKeyToAccount(privateKey).address, address);
      }
    });

    await check('node reports chain id 31337', async () => {
      assert.equal(await client.getChainId(), 31337);
    });

    await check('accounts #1..#9 still hold exactly 10000 ETH', async () => {
      for (const address of accounts.slice(1)) {
        assert.equal(await client.getBalance({ address }), parseEther('10000'), address);
      }
    });

    await check('Multicall3 code is at its canonical address and aggregates calls', async () => {
      assert.equal(c.multicall3, '0xcA11bde05977b3631167028862bE2a173976CA11');
      const code = await client.getCode({ address: c.multicall3 });
      assert.ok(code && code.length > 2, 'no code at Multicall3 address');
      const results = await client.multicall({
        allowFailure: false,
        contracts: accounts.slice(0, 4).map((address) => ({
          address: c.usdc.address, abi: erc20Abi, functionName: 'balanceOf', args: [address],
        })),
      });
      assert.equal(results.length, 4);
    });

    for (const [key, holder, supply] of [
      ['usdc', '1000000', '1330000'],
      ['ltk', '1000000', '1630000'],
    ]) {
      const token = c[key];
      await check(`${token.symbol}: metadata, balances of #0..#3, total supply`, async () => {
        assert.equal(await read(token.address, erc20Abi, 'name'), token.name);
        assert.equal(await read(token.address, erc20Abi, 'symbol'), token.symbol);
        assert.equal(await read(token.address, erc20Abi, 'decimals'), token.decimals);
        const balance = async (address) => formatUnits(await read(token.address, erc20Abi, 'balanceOf', [address]), token.decimals);
        assert.equal(await balance(accounts[0]), holder);
        for (const address of accounts.slice(1, 4)) assert.equal(await balance(address), '10000');
        assert.equal(await balance(accounts[4]), '0');
        assert.equal(formatUnits(await read(token.address, erc20Abi, 'totalSupply'), token.decimals), supply);
      });
    }

    await check('WETH9 and Uniswap V2 factory/router are wired together', async () => {
      assert.equal(await read(c.weth, erc20Abi, 'symbol'), 'WETH');
      assert.equal(await read(c.uniswapV2Router, routerAbi, 'factory'), c.uniswapV2Factory);
      assert.equal(await read(c.uniswapV2Router, routerAbi, 'WETH'), c.weth);
      assert.equal(await read(c.uniswapV2Factory, factoryAbi, 'getPair', [c.weth, c.usdc.address]), c.pairs.wethUsdc);
      assert.equal(await read(c.uniswapV2Factory, factoryAbi, 'getPair', [c.ltk.address, c.weth]), c.pairs.wethLtk);
    });

    const reservesOf = async (pair, tokenA) => {
      const [reserve0, reserve1] = await read(pair, pairAbi, 'getReserves');
      const token0 = await read(pair, pairAbi, 'token0');
      return token0 === tokenA ? [reserve0, reserve1] : [reserve1, reserve0];
    };
    // Uniswap V2 constant-product output with the 0.3% fee.
    const amountOut = (amountIn, reserveIn, reserveOut) =>
      (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);

    await check('pair reserves: 100 ETH / 300,000 USDC and 100 ETH / 600,000 LTK', async () => {
      assert.deepEqual(await reservesOf(c.pairs.wethUsdc, c.weth), [parseEther('100'), parseUnits('300000', 6)]);
      assert.deepEqual(await reservesOf(c.pairs.wethLtk, c.weth), [parseEther('100'), parseUnits('600000', 18)]);
    });

    await check('router getAmountsOut: 1 ETH -> ~2961 USDC, 1 ETH -> ~5923 LTK', async () => {
      const oneEth = parseEther('1');
      const [, usdcOut] = await read(c.uniswapV2Router, routerAbi, 'getAmountsOut', [oneEth, [c.weth, c.usdc.address]]);
      assert.equal(usdcOut, amountOut(oneEth, parseEther('100'), parseUnits('300000', 6)));
      assert.ok(usdcOut > parseUnits('2950', 6) && usdcOut < parseUnits('3000', 6), formatUnits(usdcOut, 6));
      const [, ltkOut] = await read(c.uniswapV2Router, routerAbi, 'getAmountsOut', [oneEth, [c.weth, c.ltk.address]]);
      assert.equal(ltkOut, amountOut(oneEth, parseEther('100'), parseEther('600000')));
      assert.ok(ltkOut > parseEther('5900') && ltkOut < parseEther('6000'), formatUnits(ltkOut, 18));
    });

    await check('router getAmountsOut multi-hop: 1000 USDC -> WETH -> ~1976 LTK', async () => {
      const amounts = await read(c.uniswapV2Router, routerAbi, 'getAmountsOut', [
        parseUnits('1000', 6),
        [c.usdc.address, c.weth, c.ltk.address],
      ]);
      assert.equal(amounts.length, 3);
      assert.ok(amounts[2] > parseEther('1900') && amounts[2] < parseEther('2000'), formatUnits(amounts[2], 18));
    });

    const node = namehash('latch-dev.eth');
    const reverseNode = namehash(`${deployer.slice(2).toLowerCase()}.addr.reverse`);

    await check('Uniswap V3 QuoterV2: 1 ETH -> ~996 LBT (0.3 % pool), 100 LBT -> WETH -> ~398 LCT', async () => {
      const quoterAbi = parseAbi([
        'function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)',
      ]);
      const quote = async (types, values, amount) => {
        const { result } = await client.simulateContract({
          address: c.uniswapV3.quoter, abi: quoterAbi, functionName: 'quoteExactInput', args: [encodePacked(types, values), amount],
        });
        return result[0];
      };
      const lbtOut = await quote(['address', 'uint24', 'address'], [c.weth, 3000, c.lbt.address], parseEther('1'));
      assert.ok(lbtOut > parseEther('990') && lbtOut < parseEther('997'), formatUnits(lbtOut, 18));
      const lctOut = await quote(
        ['address', 'uint24', 'address', 'uint24', 'address'], [c.lbt.address, 3000, c.weth, 500, c.lct.address], parseEther('100'),
      );
      assert.ok(lctOut > parseEther('395') && lctOut < parseEther('400'), formatUnits(lctOut, 18));
    });

    await check('ENS registry: eth and latch-dev.eth owned by #0, addr.reverse by the reverse registrar', async () => {
      assert.equal(await read(c.ensRegistry, ensRegistryAbi, 'owner', [namehash('eth')]), deployer);
      assert.equal(await read(c.ensRegistry, ensRegistryAbi, 'owner', [node]), deployer);
      assert.equal(await read(c.ensRegistry, ensRegistryAbi, 'owner', [namehash('addr.reverse')]), c.ensReverseRegistrar);
    });

    await check('ENS forward: latch-dev.eth -> resolver -> addr #0 and avatar text', async () => {
      const resolver = await read(c.ensRegistry, ensRegistryAbi, 'resolver', [node]);
      assert.equal(resolver, c.ensPublicResolver);
      assert.equal(await read(resolver, ensResolverAbi, 'addr', [node]), deployer);
      assert.equal(
        await read(resolver, ensResolverAbi, 'text', [node, 'avatar']),
        'https://127.0.0.1:8787/avatar/latch-dev.png',
      );
    });

    await check('ENS reverse: #0 -> latch-dev.eth (and forward-confirms)', async () => {
      const resolver = await read(c.ensRegistry, ensRegistryAbi, 'resolver', [reverseNode]);
      assert.equal(resolver, c.ensPublicResolver);
      const name = await read(resolver, ensResolverAbi, 'name', [reverseNode]);
      assert.equal(name, 'latch-dev.eth');
      assert.equal(await read(resolver, ensResolverAbi, 'addr', [namehash(name)]), deployer);
    });

    await check('NFT: Latch Punks token 0 owned by #0 with base URI', async () => {
      assert.equal(await read(c.nft.address, erc721Abi, 'name'), 'Latch Punks');
      assert.equal(await read(c.nft.address, erc721Abi, 'symbol'), 'LPUNK');
      assert.equal(await read(c.nft.address, erc721Abi, 'ownerOf', [0n]), deployer);
      assert.equal(await read(c.nft.address, erc721Abi, 'tokenURI', [0n]), 'http://127.0.0.1:8787/nft/0');
      assert.equal(await read(c.nft.address, nftExtraAbi, 'totalSupply'), 1n);
    });

    await check('smart wallet: ERC-1271 accepts its owner #1 and refuses #2', async () => {
      const erc1271 = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']);
      const message = 'latch devnet check';
      const hash = hashMessage(message);
      const sign = (index) => privateKeyToAccount(fixture.accounts[index].privateKey).signMessage({ message });
      assert.equal(await read(c.smartWallet.address, erc1271, 'isValidSignature', [hash, await sign(1)]), '0x1626ba7e');
      assert.equal(await read(c.smartWallet.address, erc1271, 'isValidSignature', [hash, await sign(2)]), '0xffffffff');
      assert.equal(await read(c.smartWallet.address, erc1271, 'isValidSignature', [hash, '0x1234']), '0xffffffff');
    });

    await check('account factory: createAccount deploys at the address getAddress predicts (simulated)', async () => {
      const factoryAbi = parseAbi([
        'function getAddress(address owner, uint256 salt) view returns (address)',
        'function createAccount(address owner, uint256 salt) returns (address)',
      ]);
      const args = [accounts[4], 7n];
      const predicted = await read(c.accountFactory, factoryAbi, 'getAddress', args);
      assert.equal(await client.getCode({ address: predicted }), undefined, 'not deployed by the fixture');
      const { result } = await client.simulateContract({
        address: c.accountFactory, abi: factoryAbi, functionName: 'createAccount', args, account: deployer,
      });
      assert.equal(result, predicted);
    });

    await check('a second devnet on the same port fails with a clear message', async () => {
      const second = runCli(['--port', String(port), '--out', join(tmp, 'unused.json')]);
      const code = await second.exit;
      assert.notEqual(code, 0);
      assert.match(second.stderr(), /port \d+ on 127\.0\.0\.1 is already in use/);
      assert.equal(second.stdout(), '');
    });

    await check('--port 0 --second-port 0: both chains on free ports, named in the ready line and the JSON', async () => {
      const anyFile = join(tmp, 'any-port.json');
      const run = runCli(['--port', '0', '--second-port', '0', '--out', anyFile]);
      try {
        const { rpcUrl } = await run.ready;
        const written = JSON.parse(readFileSync(anyFile, 'utf8'));
        assert.match(rpcUrl, /^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
        assert.equal(written.rpcUrl, rpcUrl);
        assert.notEqual(written.secondChain.rpcUrl, rpcUrl);
        const chainIdAt = (url) => createPublicClient({ transport: http(url) }).getChainId();
        assert.equal(await chainIdAt(rpcUrl), 31337);
        assert.equal(await chainIdAt(written.secondChain.rpcUrl), 31338);
        assert.deepEqual(written.contracts, fixture.contracts);
      } finally {
        run.child.kill('SIGTERM');
      }
      assert.equal(await run.exit, 0);
    });

    await check('a second deployment (--deploy-only on a fresh anvil on a free port) yields identical addresses', async () => {
      // Port 0: anvil picks the port and startAnvil reads it from anvil's banner.
      const anvil = await startAnvil({ port: 0 });
      try {
        const secondFile = join(tmp, 'second.json');
        const run = runCli(['--deploy-only', '--rpc', anvil.rpcUrl, '--out', secondFile]);
        await run.ready;
        assert.equal(await run.exit, 0);
        const second = JSON.parse(readFileSync(secondFile, 'utf8'));
        assert.equal(second.rpcUrl, anvil.rpcUrl);
        assert.deepEqual({ ...second, rpcUrl: undefined }, { ...fixture, rpcUrl: undefined });

        // The same node is no longer fresh: deploying again must refuse.
        const again = runCli(['--deploy-only', '--rpc', anvil.rpcUrl, '--out', join(tmp, 'again.json')]);
        assert.notEqual(await again.exit, 0);
        assert.match(again.stderr(), /nonce/);
      } finally {
        await anvil.stop();
      }
    });

    await check('SIGTERM stops the devnet with exit code 0 and frees the port', async () => {
      devnet.child.kill('SIGTERM');
      assert.equal(await devnet.exit, 0);
      assert.ok(await portIsFree(port), `port ${port} still in use after shutdown`);
    });
  } finally {
    for (const fn of cleanup) fn();
    rmSync(tmp, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (err) {
  failed += 1;
  console.log(`not ok - check aborted: ${err.stack}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
