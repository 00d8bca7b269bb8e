// Scale-out: two `latch` nodes sharing one Postgres (the mailbox) and one
// Redis (fan-out) act as one relay. Real parts: Debian's PostgreSQL started by
// scripts/with-postgres (POSTGRES_TEST_URL) and a redis-server started here.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import {
  ACCOUNT,
  Latch,
  MemoryStorage,
  Redis,
  answerRequests,
  client,
  pairAndApprove,
  shut,
} from "../lib/harness.mjs";

// A hung step fails on its own with its name (the runner's file-wide limit would not say which).
const STEP_TIMEOUT_MS = 60_000;

const postgres = process.env.POSTGRES_TEST_URL;

let redis;
let nodeA;
let nodeB;
let dapp;
let wallet;
let walletStorage;
let topic;

before(async () => {
  assert.ok(postgres, "POSTGRES_TEST_URL is not set: run this suite through scripts/with-postgres (make test-relay does)");
  redis = await Redis.start();
  const shared = { LATCH_DATABASE_URL: postgres, LATCH_REDIS_URL: redis.url };
  // One after the other: the first applies the migrations.
  nodeA = await Latch.start(shared);
  nodeB = await Latch.start(shared);
  dapp = await client("dapp", nodeA.relayUrl);
  walletStorage = new MemoryStorage();
  wallet = await client("wallet", nodeB.relayUrl, walletStorage);
}, { timeout: STEP_TIMEOUT_MS });

after(async () => {
  for (const c of [dapp, wallet]) if (c) await shut(c);
  await nodeA?.close();
  await nodeB?.close();
  await redis?.close();
}, { timeout: STEP_TIMEOUT_MS });

const sign = (text) => ({
  topic,
  chainId: "eip155:1",
  request: { method: "personal_sign", params: [`0x${Buffer.from(text).toString("hex")}`, ACCOUNT.split(":")[2]] },
});

test("a dapp on node A and a wallet on node B complete a session", { timeout: STEP_TIMEOUT_MS }, async () => {
  const { dappSession, walletSession } = await pairAndApprove(dapp, wallet);
  topic = dappSession.topic;
  assert.equal(walletSession.topic, topic);
  answerRequests(wallet, ({ params }) => ({ result: `signed:${params.request.params[0]}` }));
  assert.equal(await dapp.request(sign("across")), `signed:0x${Buffer.from("across").toString("hex")}`);
  // Both nodes carried traffic: A took the dapp's publishes, B pushed them to the wallet.
  assert.match(await nodeA.metrics(), /latch_relay_published_total [1-9]/);
  assert.match(await nodeB.metrics(), /latch_relay_pushed_total [1-9]/);
});

test("killing node B and reconnecting the wallet to node A loses no pending message", { timeout: STEP_TIMEOUT_MS }, async () => {
  await nodeB.kill();
  await shut(wallet);
  const pending = dapp.request(sign("pending"));
  // Let the publish land in the shared mailbox while the wallet has no relay.
  await new Promise((done) => setTimeout(done, 1500));
  wallet = await client("wallet", nodeA.relayUrl, walletStorage);
  answerRequests(wallet, ({ params }) => ({ result: `signed:${params.request.params[0]}` }));
  assert.equal(await pending, `signed:0x${Buffer.from("pending").toString("hex")}`);
});
