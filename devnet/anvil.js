// Starting and stopping the anvil process that backs the devnet.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);

export const CHAIN_ID = 31337;
/** The second, bare chain (`--second-port`): a network to switch to, with the same funded accounts. */
export const SECOND_CHAIN_ID = 31338;
/** Anvil's default mnemonic, passed explicitly so accounts never drift. */
export const MNEMONIC = 'test test test test test test test test test test test junk';
export const ACCOUNT_COUNT = 10;
export const ACCOUNT_BALANCE_ETH = 10000;

const READY_TIMEOUT_MS = 15_000;

/**
 * Finds the anvil binary shipped by @foundry-rs/anvil's per-platform package,
 * falling back to `anvil` on PATH (e.g. a Foundry install).
 */
export function resolveAnvilBinary() {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch] ?? process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    const dir = dirname(require.resolve(`${pkg}/package.json`));
    const bin = join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
    if (existsSync(bin)) return bin;
  } catch {
    // Platform package not installed: use PATH.
  }
  return 'anvil';
}

/**
 * Rejects if something already listens on host:port. Anvil would fail too,
 * but checking first gives a clear message and guarantees we never "attach"
 * to a foreign node that happens to answer RPC on that port.
 */
function assertPortFree(host, port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`port ${port} on ${host} is already in use (another devnet running?); choose one with --port`)
          : err,
      );
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()));
  });
}

async function rpcAnswers(rpcUrl) {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    const body = await res.json();
    return body.result !== undefined;
  } catch {
    return false;
  }
}

/**
 * Spawns anvil on host:port and resolves once it answers JSON-RPC.
 * Returns `{ rpcUrl, child, exited, stop }`; `exited` resolves with the exit
 * code (128 + signal number if killed) whenever the process ends, `stop()` terminates it and awaits that.
 */
export async function startAnvil({ host = '127.0.0.1', port = 8545, chainId = CHAIN_ID } = {}) {
  // Port 0: anvil binds a free port and says which in its banner, so there is nothing to check
  // first and no race between choosing a port and binding it.
  const anyPort = port === 0;
  if (!anyPort) await assertPortFree(host, port);

  const args = [
    '--host', host,
    '--port', String(port),
    '--chain-id', String(chainId),
    '--mnemonic', MNEMONIC,
    '--accounts', String(ACCOUNT_COUNT),
    '--balance', String(ACCOUNT_BALANCE_ETH),
    // The banner (keys, then `Listening on host:port`) is only needed to learn a chosen port.
    ...(anyPort ? [] : ['--quiet']),
  ];
  const child = spawn(resolveAnvilBinary(), args, { stdio: ['ignore', anyPort ? 'pipe' : 'ignore', 'pipe'] });

  // Keep the tail of stderr so a failed start can say why.
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });

  const exited = new Promise((resolve) => {
    child.once('error', (err) => {
      stderr += `${err.message}\n`;
      resolve(1);
    });
    // Shell convention: death by signal N reports 128 + N.
    child.once('exit', (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0)));
  });
  let hasExited = false;
  exited.then(() => {
    hasExited = true;
  });

  const stop = async () => {
    if (!hasExited) child.kill('SIGTERM');
    return exited;
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  const boundPort = anyPort ? await reportedPort(child, exited, deadline, () => stderr) : port;
  if (boundPort === undefined) {
    await stop();
    throw new Error(`anvil did not report its port within ${READY_TIMEOUT_MS / 1000}s:\n${stderr.trim()}`);
  }
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const rpcUrl = `http://${hostForUrl}:${boundPort}`;
  while (!(await rpcAnswers(rpcUrl))) {
    if (hasExited) throw new Error(`anvil exited before becoming ready:\n${stderr.trim()}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not answer on ${rpcUrl} within ${READY_TIMEOUT_MS / 1000}s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { rpcUrl, child, exited, stop };
}

/**
 * The port in anvil's `Listening on <host>:<port>` line, or undefined when the deadline passes
 * first; rejects if anvil exits before saying it. The rest of stdout is read and dropped so a full
 * pipe never blocks anvil.
 */
function reportedPort(child, exited, deadline, stderr) {
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
    lines.on('line', (line) => {
      const port = /^Listening on .*:(\d+)$/.exec(line.trim())?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      resolve(Number(port));
    });
    exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`anvil exited before becoming ready:\n${stderr().trim()}`));
    });
  });
}
