// Starts the real devnet (scripts/solana-devnet on free ports) for a test file.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/solana-devnet', import.meta.url));

export async function startDevnet() {
  const dir = mkdtempSync(join(tmpdir(), 'solana-devnet-'));
  const out = join(dir, 'solana.json');
  const child = spawn(SCRIPT, ['--port', '0', '--out', out], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`solana-devnet exited with ${code}`)));
  });
  const [, , rpcUrl, file] = line.split(' ');
  if (!line.startsWith('solana-devnet ready ')) throw new Error(`unexpected first line: ${line}`);
  const fixture = JSON.parse(readFileSync(file, 'utf8'));
  return {
    rpcUrl,
    fixture,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A raw HTTP exchange: `{ status, body }` (body parsed when JSON). */
export async function post(rpcUrl, text, headers = { 'content-type': 'application/json' }) {
  const res = await fetch(rpcUrl, { method: 'POST', headers, body: text });
  const raw = await res.text();
  let body = raw;
  try {
    body = raw === '' ? null : JSON.parse(raw);
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, body };
}

export const rpc = async (rpcUrl, method, params) =>
  (await post(rpcUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).body;
