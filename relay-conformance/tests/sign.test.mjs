// The official WalletConnect Sign clients (2.21.8) as dapp and wallet through
// a real `latch serve`: every scenario of the relay's conformance list that
// the clients themselves drive.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import {
  ACCOUNT,
  Latch,
  MemoryStorage,
  answerRequests,
  client,
  once,
  pairAndApprove,
  shut,
} from "../lib/harness.mjs";

// A hung step fails on its own with its name (the runner's file-wide limit would not say which).
const STEP_TIMEOUT_MS = 60_000;

let latch;
let dapp;
let wallet;
let walletStorage;
let topic;

before(async () => {
  latch = await Latch.start();
  dapp = await client("dapp", latch.relayUrl);
  walletStorage = new MemoryStorage();
  wallet = await client("wallet", latch.relayUrl, walletStorage);
}, { timeout: STEP_TIMEOUT_MS });

after(async () => {
  for (const c of [dapp, wallet]) if (c) await shut(c);
  await latch?.close();
}, { timeout: STEP_TIMEOUT_MS });


test("pair and approve", { timeout: STEP_TIMEOUT_MS }, async () => {
  const { dappSession, walletSession } = await pairAndApprove(dapp, wallet);
  assert.equal(dappSession.topic, walletSession.topic);
  assert.deepEqual(dappSession.namespaces.eip155.accounts, [ACCOUNT]);
  topic = dappSession.topic;
});

test("request and response, including a wallet-side error", { timeout: STEP_TIMEOUT_MS }, async () => {
  answerRequests(wallet, ({ params }) =>
    params.request.method === "personal_sign"
      ? { result: `signed:${params.request.params[0]}` }
      : { error: { code: 5000, message: "User rejected." } },
  );
  const signed = await dapp.request({
    topic,
    chainId: "eip155:1",
    request: { method: "personal_sign", params: ["0x68656c6c6f", ACCOUNT.split(":")[2]] },
  });
  assert.equal(signed, "signed:0x68656c6c6f");
  await assert.rejects(
    dapp.request({ topic, chainId: "eip155:1", request: { method: "eth_sendTransaction", params: [{}] } }),
    (error) => error.message === "User rejected." && error.code === 5000,
  );
});

test("events", { timeout: STEP_TIMEOUT_MS }, async () => {
  const received = once(dapp, "session_event");
  await wallet.emit({ topic, chainId: "eip155:1", event: { name: "accountsChanged", data: [ACCOUNT] } });
  const { params } = await received;
  assert.equal(params.event.name, "accountsChanged");
  assert.deepEqual(params.event.data, [ACCOUNT]);
});

test("ping", { timeout: STEP_TIMEOUT_MS }, async () => {
  await dapp.ping({ topic });
  await wallet.ping({ topic });
});

test("a request published while the wallet is offline is delivered when it comes back", { timeout: STEP_TIMEOUT_MS }, async () => {
  await shut(wallet);
  const pending = dapp.request({
    topic,
    chainId: "eip155:1",
    request: { method: "personal_sign", params: ["0x6f66666c696e65", ACCOUNT.split(":")[2]] },
  });
  // Give the publish time to reach the mailbox while no wallet is connected.
  await new Promise((done) => setTimeout(done, 1500));
  wallet = await client("wallet", latch.relayUrl, walletStorage);
  answerRequests(wallet, ({ params }) => ({ result: `signed:${params.request.params[0]}` }));
  assert.equal(await pending, "signed:0x6f66666c696e65");
});

test("a pending message survives a relay restart", { timeout: STEP_TIMEOUT_MS }, async () => {
  await shut(wallet);
  const pending = dapp.request({
    topic,
    chainId: "eip155:1",
    request: { method: "personal_sign", params: ["0x72657374617274", ACCOUNT.split(":")[2]] },
  });
  await new Promise((done) => setTimeout(done, 1500));
  await latch.restart();
  wallet = await client("wallet", latch.relayUrl, walletStorage);
  answerRequests(wallet, ({ params }) => ({ result: `signed:${params.request.params[0]}` }));
  assert.equal(await pending, "signed:0x72657374617274");
});

test("disconnect", { timeout: STEP_TIMEOUT_MS }, async () => {
  const deleted = once(wallet, "session_delete");
  await dapp.disconnect({ topic, reason: { code: 6000, message: "User disconnected." } });
  assert.equal((await deleted).topic, topic);
  assert.equal(wallet.session.getAll().length, 0);
  const metrics = await latch.metrics();
  assert.match(metrics, /latch_relay_acked_total [1-9]/);
});
