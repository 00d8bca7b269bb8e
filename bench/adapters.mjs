// What @latch/wagmi, @latch/ethers and @latch/solana add to a host bundle (issue 29 budget: ≤ 3 kB gzip each).
// A tiny host entry is bundled (esbuild, minified, ESM) without and with each adapter; the libraries
// a host has anyway (@latch/react, wagmi, @wagmi/core, viem, ethers, @solana/web3.js,
// @solana/wallet-adapter-base, React) are external, so the
// difference is the adapter's own code (with its small dependencies: @wallet-standard/wallet, bs58).
// Also checks that @latch/react's bundle pulls in none of wagmi, ethers or @solana/web3.js. Needs the built packages (`make build-web`, or `npm run build -w` each).
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(import.meta.dirname, '..');
const BUDGET = 3000;
const external = [
  '@latch/react',
  'wagmi',
  '@wagmi/core',
  'viem',
  'ethers',
  'ethers5',
  '@solana/web3.js',
  '@solana/wallet-adapter-base',
  'react',
  'react-dom',
];

async function bundle(contents, options = {}) {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'error',
    external,
    ...options,
  });
  const code = result.outputFiles[0].contents;
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) };
}

const host = `import { createLatch } from '@latch/react';\nexport const latch = createLatch;\n`;
const cases = [
  {
    name: '@latch/wagmi',
    entry: `${host}import { latchConnector, latchTransports, latchWagmiChains } from '@latch/wagmi';\nexport const wagmi = [latchConnector, latchTransports, latchWagmiChains];\n`,
  },
  {
    name: '@latch/ethers (v6)',
    entry: `${host}import { getLatchBrowserProvider, getLatchSigner, watchLatchSigner } from '@latch/ethers';\nexport const ethers = [getLatchBrowserProvider, getLatchSigner, watchLatchSigner];\n`,
  },
  {
    name: '@latch/ethers/v5',
    entry: `${host}import { getLatchWeb3Provider, watchLatchWeb3Provider } from '@latch/ethers/v5';\nexport const ethers5 = [getLatchWeb3Provider, watchLatchWeb3Provider];\n`,
  },
  {
    name: '@latch/solana',
    entry: `${host}import { latchSolanaAdapter } from '@latch/solana';\nexport const solana = [latchSolanaAdapter];\n`,
  },
  {
    name: '@latch/solana/standard',
    entry: `${host}import { registerLatchStandardWallet } from '@latch/solana/standard';\nexport const standard = [registerLatchStandardWallet];\n`,
  },
];

const base = await bundle(host);
let failed = false;
console.log('| adapter | added, minified | added, gzip | budget |');
console.log('| --- | ---: | ---: | ---: |');
for (const { name, entry } of cases) {
  const withAdapter = await bundle(entry);
  const raw = withAdapter.raw - base.raw;
  const gzip = withAdapter.gzip - base.gzip;
  const within = gzip <= BUDGET;
  failed ||= !within;
  console.log(`| ${name} | ${raw} B | ${gzip} B | ${within ? '≤' : '>'} ${BUDGET} B |`);
}

// @latch/react itself, with nothing external but React: no wagmi, @wagmi/core, ethers or @solana module in it.
const react = await bundle(`export * from '@latch/react';\n`, { external: ['react', 'react-dom', 'react/jsx-runtime'] });
const leaked = react.inputs.filter((input) => /node_modules\/(wagmi|@wagmi|ethers|@solana)/.test(input));
console.log(`\n@latch/react alone: ${react.inputs.length} modules, ${leaked.length} from wagmi/ethers/@solana`);
if (leaked.length > 0) {
  console.error(`@latch/react bundles ${leaked.join(', ')}`);
  failed = true;
}
if (failed) process.exit(1);
