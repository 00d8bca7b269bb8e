// The relay's wire rules as the official clients' own pieces see them: tokens
// from @walletconnect/relay-auth (what @walletconnect/core signs with), a raw
// WebSocket for what the Sign client never sends (malformed or refused input).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";

import { generateKeyPair, signJWT } from "@walletconnect/relay-auth";
import WebSocket from "ws";

import { Latch, PROJECT_ID } from "../lib/harness.mjs";

// A hung step fails on its own with its name (the runner's file-wide limit would not say which).
const STEP_TIMEOUT_MS = 60_000;

let latch;

before(async () => {
  latch = await Latch.start();
}, { timeout: STEP_TIMEOUT_MS });

after(async () => {
  await latch?.close();
}, { timeout: STEP_TIMEOUT_MS });

const topic = () => randomBytes(32).toString("hex");

async function token(keyPair = generateKeyPair()) {
  return signJWT(randomBytes(32).toString("hex"), latch.relayUrl, 86_400, keyPair);
}

/** Opens a socket; resolves with it and a queue of parsed messages. */
function open(url) {
  return new Promise((done, fail) => {
    const socket = new WebSocket(url);
    const inbox = [];
    const waiters = [];
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      const waiter = waiters.shift();
      if (waiter) waiter(message);
      else inbox.push(message);
    });
    socket.next = (ms = 10_000) =>
      inbox.length
        ? Promise.resolve(inbox.shift())
        : new Promise((ok, no) => {
            const timer = setTimeout(() => no(new Error("no message")), ms);
            waiters.push((m) => {
              clearTimeout(timer);
              ok(m);
            });
          });
    socket.closed = new Promise((ok) => socket.once("close", (code, reason) => ok({ code, reason: String(reason) })));
    socket.once("open", () => done(socket));
    socket.once("error", fail);
  });
}

let nextId = 1;
async function call(socket, method, params) {
  const id = String(1_700_000_000_000_000_000n + BigInt(nextId++));
  socket.send(JSON.stringify({ id, jsonrpc: "2.0", method, params }));
  const answer = await socket.next();
  assert.equal(answer.id, id, "the id is echoed exactly");
  return answer;
}

test("refused without a JWT: close 3000 with a reason", { timeout: STEP_TIMEOUT_MS }, async () => {
  const socket = await open(`${latch.relayUrl}?projectId=${PROJECT_ID}`);
  assert.deepEqual(await socket.closed, { code: 3000, reason: "auth: missing JWT" });
});

test("refused with a forged JWT: close 3000", { timeout: STEP_TIMEOUT_MS }, async () => {
  const genuine = await token();
  const other = await token();
  const forged = `${genuine.slice(0, genuine.lastIndexOf("."))}${other.slice(other.lastIndexOf("."))}`;
  const socket = await open(`${latch.relayUrl}?projectId=${PROJECT_ID}&auth=${forged}`);
  assert.deepEqual(await socket.closed, { code: 3000, reason: "auth: invalid signature" });
});

test("malformed JSON, unknown method, bad topic, zero TTL and an oversized message are answered; the connection keeps working", { timeout: STEP_TIMEOUT_MS }, async () => {
  const socket = await open(`${latch.relayUrl}?projectId=${PROJECT_ID}&auth=${await token()}`);
  socket.send("{this is not json");
  const parse = await socket.next();
  assert.equal(parse.error.code, -32700);

  const unknown = await call(socket, "irn_teleport", {});
  assert.deepEqual([unknown.error.code, unknown.error.data], [-32601, "MethodNotFound"]);

  const badTopic = await call(socket, "irn_subscribe", { topic: "not-a-topic" });
  assert.deepEqual([badTopic.error.code, badTopic.error.data], [-32600, "InvalidTopic"]);

  const t = topic();
  const zeroTtl = await call(socket, "irn_publish", { topic: t, message: "AAAA", ttl: 0, tag: 1108 });
  assert.deepEqual([zeroTtl.error.code, zeroTtl.error.data], [-32000, "TtlTooShort"]);

  const huge = Buffer.alloc(300 * 1024).toString("base64");
  const oversized = await call(socket, "irn_publish", { topic: t, message: huge, ttl: 300, tag: 1108 });
  assert.deepEqual([oversized.error.code, oversized.error.data], [-32600, "MessageTooLarge"]);

  // Still working: 128 KiB of payload is accepted, and a second client receives it.
  const payload = Buffer.alloc(128 * 1024, 7).toString("base64");
  const reader = await open(`${latch.relayUrl}?projectId=${PROJECT_ID}&auth=${await token()}`);
  const subscribed = await call(reader, "irn_subscribe", { topic: t });
  assert.match(subscribed.result, /^[0-9a-f]{64}$/);
  const published = await call(socket, "irn_publish", { topic: t, message: payload, ttl: 300, tag: 1108 });
  assert.equal(published.result, true);
  const push = await reader.next();
  assert.equal(push.method, "irn_subscription");
  assert.equal(push.params.data.message, payload);
  assert.equal(push.params.id, subscribed.result);
  reader.send(JSON.stringify({ id: push.id, jsonrpc: "2.0", result: true }));
  socket.close();
  reader.close();
});
