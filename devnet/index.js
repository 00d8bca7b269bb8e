#!/usr/bin/env node
// Latch devnet: starts anvil, deploys the fixture world, writes the
// addresses JSON and prints `devnet ready <rpcUrl> <outfile>` on stdout.
// See README.md for options and the JSON format.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { SECOND_CHAIN_ID, startAnvil } from './anvil.js';
import { CCIP_URL, deployFixture, NFT_BASE_URI } from './deploy.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const USAGE = `usage: node devnet/index.js [--port 8545] [--host 127.0.0.1] [--second-port <port>] [--out <file>]
       node devnet/index.js --deploy-only --rpc <url> [--out <file>]

  --port, --host   where anvil listens (default 127.0.0.1:8545; 0: any free port, read the URL
                   from the ready line)
  --nft-base-uri   the NFT's base URI (default ${NFT_BASE_URI}: the demo's metadata, served by
                   \`latch serve --dev\` on its default port)
  --ccip-url       the name zone's CCIP-Read gateway URL (default ${CCIP_URL}:
                   \`latch serve --dev\` on its default port)
  --second-port    also start a bare second chain (id ${SECOND_CHAIN_ID}, same funded accounts, no
                   contracts) on this port (0: any free one; its URL is secondChain.rpcUrl in
                   --out): a network for switching tests and the demo
  --out            addresses JSON (default $LATCH_DEVNET_FILE or <repo>/.devnet/addresses.json)
  --deploy-only    deploy to the fresh node at --rpc instead of starting anvil, then exit`;

function parseCli(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8545' },
      'second-port': { type: 'string' },
      'nft-base-uri': { type: 'string', default: NFT_BASE_URI },
      'ccip-url': { type: 'string', default: CCIP_URL },
      host: { type: 'string', default: '127.0.0.1' },
      out: { type: 'string' },
      'deploy-only': { type: 'boolean', default: false },
      rpc: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${values.port}`);
  const secondPort = values['second-port'] === undefined ? undefined : Number(values['second-port']);
  const samePort = secondPort === port && port !== 0;
  if (secondPort !== undefined && (!Number.isInteger(secondPort) || secondPort < 0 || secondPort > 65535 || samePort)) {
    throw new Error(`invalid --second-port ${values['second-port']}`);
  }
  if (values['deploy-only'] !== (values.rpc !== undefined)) throw new Error('--deploy-only and --rpc go together');
  const out = resolve(values.out ?? process.env.LATCH_DEVNET_FILE ?? resolve(REPO_ROOT, '.devnet', 'addresses.json'));
  return { ...values, port, secondPort, out };
}

/** Writes via a temp file + rename so readers never see a half-written file. */
function writeAddresses(file, addresses) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(addresses, null, 2)}\n`);
  renameSync(tmp, file);
}

async function deployOnly({ rpc, out, ...options }) {
  writeAddresses(out, await deployFixture({ rpcUrl: rpc, nftBaseUri: options['nft-base-uri'], ccipUrl: options['ccip-url'] }));
  console.log(`devnet ready ${rpc} ${out}`);
}

async function serve({ host, port, secondPort, out, ...options }) {
  const anvil = await startAnvil({ host, port });
  const nodes = [anvil];
  const stopAll = () => Promise.all(nodes.map((node) => node.stop()));

  let stopping = false;
  const stop = async () => {
    stopping = true;
    await stopAll();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const watch = (node) =>
    node.exited.then(async (code) => {
      if (stopping) return;
      console.error(`devnet: anvil exited unexpectedly (exit code ${code})`);
      stopping = true;
      await stopAll();
      process.exit(code || 1);
    });
  watch(anvil);

  try {
    const fixture = await deployFixture({ rpcUrl: anvil.rpcUrl, nftBaseUri: options['nft-base-uri'], ccipUrl: options['ccip-url'] });
    if (secondPort !== undefined) {
      const second = await startAnvil({ host, port: secondPort, chainId: SECOND_CHAIN_ID });
      nodes.push(second);
      watch(second);
      fixture.secondChain = { chainId: SECOND_CHAIN_ID, rpcUrl: second.rpcUrl };
    }
    writeAddresses(out, fixture);
  } catch (err) {
    stopping = true;
    await stopAll();
    throw err;
  }
  console.log(`devnet ready ${anvil.rpcUrl} ${out}`);
}

let options;
try {
  options = parseCli(process.argv.slice(2));
} catch (err) {
  console.error(`devnet: ${err.message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
} else {
  try {
    await (options['deploy-only'] ? deployOnly(options) : serve(options));
  } catch (err) {
    console.error(`devnet: ${err.message}`);
    process.exit(1);
  }
}
