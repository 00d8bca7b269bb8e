// Writes vectors.json: what the official Apache-2.0 JS client (@walletconnect/utils
// and @walletconnect/relay-auth, as pinned in relay-conformance) produces for
// fixed keys and nonces. `cargo test -p latch-walletconnect --test vectors`
// checks the Rust crate against them. Regenerate after `npm ci`:
//   node crates/latch-walletconnect/tests/vectors/gen.mjs
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const utils = require("@walletconnect/utils");
const relayAuth = require("@walletconnect/relay-auth");
const { x25519 } = require("@noble/curves/ed25519");

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const fill = (byte, length = 32) => hex(new Uint8Array(length).fill(byte));

const keyPairs = [1, 2, 0x42, 0xfe].map((byte) => {
  const privateKey = fill(byte);
  return { privateKey, publicKey: hex(x25519.getPublicKey(Buffer.from(privateKey, "hex"))) };
});

const agreements = [];
for (const a of keyPairs) {
  for (const b of keyPairs) {
    if (a === b) continue;
    const symKey = utils.deriveSymKey(a.privateKey, b.publicKey);
    agreements.push({ privateKey: a.privateKey, peerPublicKey: b.publicKey, symKey, topic: utils.hashKey(symKey) });
  }
}

const messages = [
  "",
  '{"id":1700000000000123,"jsonrpc":"2.0","method":"wc_sessionPing","params":{}}',
  "ünïcödé ✓ " + "x".repeat(300),
];
const envelopes = [];
for (const [i, message] of messages.entries()) {
  const symKey = fill(0x10 + i);
  const iv = fill(0x20 + i, 12);
  envelopes.push({ type: 0, symKey, iv, message, encoded: utils.encrypt({ symKey, iv, message }) });
  const senderPublicKey = keyPairs[i].publicKey;
  envelopes.push({
    type: 1,
    symKey,
    iv,
    message,
    senderPublicKey,
    encoded: utils.encrypt({ type: 1, symKey, iv, message, senderPublicKey }),
  });
}

const uris = [
  { symKey: fill(0x33), expiryTimestamp: 1700000300 },
  { symKey: fill(0xab), expiryTimestamp: 1700000300, methods: ["wc_sessionPropose", "wc_sessionAuthenticate"] },
  { symKey: fill(0x01), relayData: "some data", expiryTimestamp: undefined },
].map(({ symKey, expiryTimestamp, methods, relayData }) => {
  const topic = utils.hashKey(symKey);
  const relay = { protocol: "irn", ...(relayData && { data: relayData }) };
  const uri = utils.formatUri({ protocol: "wc", version: 2, topic, symKey, relay, expiryTimestamp, methods });
  return { uri, parsed: utils.parseUri(uri) };
});

const seed = new Uint8Array(32).fill(7);
const iat = 1700000000;
const jwt = {
  seed: hex(seed),
  sub: fill(0x99),
  aud: "ws://127.0.0.1:8787/relay",
  iat,
  ttl: 86400,
  token: await relayAuth.signJWT(fill(0x99), "ws://127.0.0.1:8787/relay", 86400, relayAuth.generateKeyPair(seed), iat),
};

const out = new URL("./vectors.json", import.meta.url);
writeFileSync(out, JSON.stringify({ keyPairs, agreements, envelopes, uris, jwt }, null, 2) + "\n");
console.log(`wrote ${out.pathname}`);
