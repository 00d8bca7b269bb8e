// Property tests of the wire parser and the JSON-RPC layer, in process (seeded random inputs):
// nothing crashes, nothing is an internal error, and rejected input changes no state.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Chain, FAUCET } from '../chain.js';
import { installFixture } from '../fixture.js';
import { call, methods } from '../rpc.js';
import { respond } from '../server.js';
import { transferTransaction } from '../transaction.js';

// Mulberry32: small, seeded, reproducible.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

async function world() {
  const chain = new Chain();
  const fixture = await installFixture(chain);
  const table = methods(chain);
  return { chain, fixture, run: (method, params) => call(table, method, params) };
}

const ALLOWED = new Set([-32602, -32002, -32003]);

test('random and mutated transactions get JSON-RPC errors or land; never an internal error', async () => {
  const { chain, fixture, run } = await world();
  const random = rng(20260101);
  const valid = transferTransaction(FAUCET, fixture.accounts[1].address, 1000n, chain.latest.blockhash);
  let landed = 0;
  for (let i = 0; i < 1500; i += 1) {
    let bytes;
    if (i % 2 === 0) {
      bytes = new Uint8Array(Math.floor(random() * 300));
      for (let j = 0; j < bytes.length; j += 1) bytes[j] = Math.floor(random() * 256);
    } else {
      bytes = Uint8Array.from(valid);
      const flips = 1 + Math.floor(random() * 3);
      for (let f = 0; f < flips; f += 1) bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
    }
    const encoded = Buffer.from(bytes).toString('base64');
    for (const method of ['sendTransaction', 'simulateTransaction']) {
      const slot = chain.slot;
      try {
        const result = run(method, [encoded, { encoding: 'base64' }]);
        if (method === 'sendTransaction') landed += chain.slot - slot;
        else assert.equal(chain.slot, slot);
        assert.ok(result !== undefined);
      } catch (err) {
        assert.ok(ALLOWED.has(err.code), `${method} ${encoded}: ${err.code} ${err.message}`);
        assert.equal(chain.slot, slot, 'a rejected transaction changes no slot');
      }
    }
    try {
      run('getFeeForMessage', [Buffer.from(bytes.subarray(65)).toString('base64')]);
    } catch (err) {
      assert.equal(err.code, -32602, err.message);
    }
  }
  // A flipped bit lands only when the signature still verifies: practically never.
  assert.ok(landed <= 1);
});

test('random JSON-RPC bodies always get a well-formed JSON-RPC answer', async () => {
  const { chain, run } = await world();
  const random = rng(7);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const values = [null, true, 0, -1, 1.5, 2 ** 60, '', 'x', '11111111111111111111111111111111', [], {}, [1, 2], { a: 1 }];
  const methodNames = [...Object.keys(methods(chain)), 'nope', '', 'constructor'];
  for (let i = 0; i < 2000; i += 1) {
    const request = { jsonrpc: random() < 0.9 ? '2.0' : pick(values), method: random() < 0.9 ? pick(methodNames) : pick(values) };
    if (random() < 0.9) request.id = pick([1, 'a', null, {}, 2.5]);
    if (random() < 0.8) request.params = random() < 0.7 ? Array.from({ length: Math.floor(random() * 4) }, () => pick(values)) : pick(values);
    const text = random() < 0.05 ? JSON.stringify(request).slice(0, -1) : JSON.stringify(request);
    const reply = respond(text, run);
    if (reply === null) continue; // a notification
    assert.equal(reply.jsonrpc, '2.0');
    if (reply.error) {
      assert.ok([-32700, -32600, -32601, -32602, -32002, -32003, -32016].includes(reply.error.code), `${text} → ${JSON.stringify(reply)}`);
      assert.equal(typeof reply.error.message, 'string');
    } else {
      assert.ok('result' in reply, text);
    }
  }
});
