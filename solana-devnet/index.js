#!/usr/bin/env node
// Latch Solana devnet: a litesvm-backed JSON-RPC node with the fixture world. Writes the fixture
// JSON and prints `solana-devnet ready <rpcUrl> <outfile>` on stdout. See README.md.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { Chain } from './chain.js';
import { installFixture } from './fixture.js';
import { serve } from './server.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const USAGE = `usage: node solana-devnet/index.js [--port 8899] [--host 127.0.0.1] [--out <file>]

  --port, --host   where the HTTP JSON-RPC listens (default 127.0.0.1:8899; WebSocket on port + 1;
                   --port 0 picks a free pair)
  --out            fixture JSON (default $SOLANA_DEVNET_FILE or <repo>/.devnet/solana.json)`;

function parseCli(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8899' },
      host: { type: 'string', default: '127.0.0.1' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65534) throw new Error(`invalid --port ${values.port}`);
  const out = resolve(values.out ?? process.env.SOLANA_DEVNET_FILE ?? resolve(REPO_ROOT, '.devnet', 'solana.json'));
  return { ...values, port, out };
}

/** Writes via a temp file + rename so readers never see a half-written file. */
function writeJson(file, value) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, file);
}

async function main({ host, port, out }) {
  const chain = new Chain();
  const fixture = await installFixture(chain);
  const server = await serve(chain, { host, port });
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  writeJson(out, { rpcUrl: server.rpcUrl, wsUrl: server.wsUrl, ...fixture });
  console.log(`solana-devnet ready ${server.rpcUrl} ${out}`);
}

let options;
try {
  options = parseCli(process.argv.slice(2));
} catch (err) {
  console.error(`solana-devnet: ${err.message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
} else {
  try {
    await main(options);
  } catch (err) {
    console.error(`solana-devnet: ${err.message}`);
    process.exit(1);
  }
}
