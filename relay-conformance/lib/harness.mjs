// Real parts for the conformance suite: a `latch serve` process (the binary
// `cargo build -p latch-server` makes) on a free port with its own data
// directory, and the official WalletConnect clients as dapp and wallet.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import SignClientModule from "@walletconnect/sign-client";

// Each client its own core (the default shares one per process, keyed by nothing we control).
process.env.DISABLE_GLOBAL_CORE = "true";

const SignClient = SignClientModule.SignClient ?? SignClientModule.default ?? SignClientModule;
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export const LATCH_BIN = process.env.RELAY_LATCH_BIN ?? join(root, "target/debug/latch");
/** The project the clients name: outside `--dev` the relay serves only known projects. */
export const PROJECT_ID = "conformance";

/** A loopback port nobody listens on right now. */
export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** A running `latch serve`; `restart()` keeps its port and database. */
export class Latch {
  static async start(env = {}) {
    const latch = new Latch();
    latch.dataDir = mkdtempSync(join(tmpdir(), "latch-relay-"));
    latch.port = await freePort();
    latch.env = env;
    // Registered on the node's own store (or the shared database) before it serves.
    execFileSync(LATCH_BIN, ["project", "add", "--id", PROJECT_ID], { env: latch.processEnv(), stdio: "ignore" });
    await latch.spawn();
    return latch;
  }

  get relayUrl() {
    return `ws://127.0.0.1:${this.port}/relay`;
  }

  processEnv() {
    // Not LATCH_*-prefixed names of ours: the server refuses unknown LATCH_ variables.
    return { ...process.env, LATCH_DATA_DIR: this.dataDir, LATCH_LOG: "warn", ...this.env };
  }

  async spawn() {
    this.child = spawn(LATCH_BIN, ["serve", "--port", String(this.port)], {
      env: this.processEnv(),
      stdio: ["ignore", "pipe", "inherit"],
    });
    this.exited = new Promise((done) => this.child.once("exit", (code, signal) => done({ code, signal })));
    await new Promise((done, fail) => {
      let out = "";
      const timer = setTimeout(() => fail(new Error(`latch did not start: ${out}`)), 20_000);
      this.child.stdout.on("data", (chunk) => {
        out += chunk;
        if (out.includes("serving")) {
          clearTimeout(timer);
          done();
        }
      });
      this.child.once("exit", (code) => fail(new Error(`latch exited with ${code}: ${out}`)));
    });
  }

  /** SIGKILL: the node dies without closing anything, as a crashed machine would. */
  async kill() {
    if (!this.child || this.child.exitCode !== null) return;
    this.child.kill("SIGKILL");
    await this.exited;
  }

  /** SIGTERM (graceful: relay sockets get 1001) and wait for the exit. */
  async stop() {
    if (!this.child || this.child.exitCode !== null) return;
    this.child.kill("SIGTERM");
    await this.exited;
  }

  async restart() {
    await this.stop();
    await this.spawn();
  }

  async close() {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  async metrics() {
    return (await fetch(`http://127.0.0.1:${this.port}/metrics`)).text();
  }
}

/** An in-memory key-value storage that outlives a client, so a "restarted" app keeps its keys. */
export class MemoryStorage {
  map = new Map();
  async getKeys() {
    return [...this.map.keys()];
  }
  async getEntries() {
    return [...this.map.entries()];
  }
  async getItem(key) {
    return this.map.get(key);
  }
  async setItem(key, value) {
    this.map.set(key, value);
  }
  async removeItem(key) {
    this.map.delete(key);
  }
}

/** An official SignClient on `relayUrl` with its own storage (so dapp and wallet do not share a core). */
export async function client(name, relayUrl, storage = new MemoryStorage()) {
  const signClient = await SignClient.init({
    projectId: PROJECT_ID,
    relayUrl,
    logger: "silent",
    customStoragePrefix: name,
    storage,
    metadata: { name, description: `${name} (conformance)`, url: "http://127.0.0.1", icons: [] },
  });
  return signClient;
}

/** Resolves with the first `event` the emitter fires (within `ms`). */
export function once(emitter, event, ms = 20_000) {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ${event} within ${ms} ms`)), ms);
    emitter.once(event, (value) => {
      clearTimeout(timer);
      done(value);
    });
  });
}

/** Closes a client's socket and timers for good. */
export async function shut(signClient) {
  try {
    await signClient.core.relayer.transportClose();
  } catch {
    // Already closed.
  }
  signClient.core.heartbeat?.stop?.();
  signClient.core.relayer.events.removeAllListeners?.();
}

export const ACCOUNT = "eip155:1:0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** Dapp proposes, wallet pairs and approves: the session both see. */
export async function pairAndApprove(dapp, wallet) {
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: {
      eip155: { chains: ["eip155:1"], methods: ["personal_sign", "eth_sendTransaction"], events: ["accountsChanged"] },
    },
  });
  // Wait for the session from the start: the official client drops a settlement
  // that arrives before `approval()` is called (its delayed promise ignores
  // `resolve` until then), and with two relay nodes it can beat `approve()`'s return.
  const dappSession = approval();
  dappSession.catch(() => {}); // Awaited below; not an unhandled rejection meanwhile.
  const proposal = once(wallet, "session_proposal");
  await wallet.pair({ uri });
  const { id } = await proposal;
  const { acknowledged } = await wallet.approve({
    id,
    namespaces: {
      eip155: {
        chains: ["eip155:1"],
        accounts: [ACCOUNT],
        methods: ["personal_sign", "eth_sendTransaction"],
        events: ["accountsChanged"],
      },
    },
  });
  return { dappSession: await dappSession, walletSession: await acknowledged() };
}

/** Has the wallet answer every session request with `answer(event)` (`{result}` or `{error}`). */
export function answerRequests(signClient, answer) {
  signClient.on("session_request", async (event) => {
    const response = answer(event);
    await signClient.respond({ topic: event.topic, response: { id: event.id, jsonrpc: "2.0", ...response } });
  });
}

/** A throw-away `redis-server` (Debian's package) on a free loopback port, nothing persisted. */
export class Redis {
  static async start() {
    const redis = new Redis();
    redis.port = await freePort();
    redis.child = spawn("redis-server", ["--port", String(redis.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    redis.exited = new Promise((done) => redis.child.once("exit", done));
    await new Promise((done, fail) => {
      let out = "";
      const timer = setTimeout(() => fail(new Error(`redis-server did not start: ${out}`)), 10_000);
      redis.child.stdout.on("data", (chunk) => {
        out += chunk;
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          done();
        }
      });
      redis.child.once("error", (error) => fail(new Error(`redis-server (run scripts/setup): ${error.message}`)));
    });
    return redis;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}/`;
  }

  async close() {
    if (this.child.exitCode !== null) return;
    this.child.kill("SIGTERM");
    await this.exited;
  }
}
