// Malformed and edge-case JSON-RPC requests against the real devnet: JSON-RPC 2.0 error codes and shapes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { post, rpc, startDevnet } from './helpers.js';

let devnet;
let url;
before(async () => {
  devnet = await startDevnet();
  url = devnet.rpcUrl;
});
after(async () => {
  await devnet?.stop();
});

const errorOf = (body) => ({ code: body.error.code, id: body.id });

test('unparseable JSON is -32700 with a null id', async () => {
  for (const text of ['{', 'nope', '{"jsonrpc":"2.0",', '']) {
    const { status, body } = await post(url, text);
    assert.equal(status, 200);
    assert.deepEqual(body, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
  }
});

test('requests that are not JSON-RPC 2.0 objects are -32600', async () => {
  const cases = [
    ['[]', null],
    ['1', null],
    ['"getSlot"', null],
    ['{"id":1,"method":"getSlot"}', 1],
    ['{"jsonrpc":"1.0","id":2,"method":"getSlot"}', 2],
    ['{"jsonrpc":"2.0","id":3,"method":5}', 3],
    ['{"jsonrpc":"2.0","id":4,"method":"getSlot","params":"x"}', 4],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"getSlot"}', null],
  ];
  for (const [text, id] of cases) {
    const { body } = await post(url, text);
    assert.deepEqual(errorOf(body), { code: -32600, id }, text);
  }
});

test('unknown methods are -32601 (including inherited object keys)', async () => {
  for (const method of ['eth_chainId', 'getNope', 'constructor', '__proto__', 'toString']) {
    const body = await rpc(url, method, []);
    assert.deepEqual(body.error, { code: -32601, message: 'Method not found' }, method);
  }
});

test('bad parameters are -32602 and change nothing', async () => {
  const slot = (await rpc(url, 'getSlot')).result;
  const cases = [
    ['getBalance', []],
    ['getBalance', ['not-base58-0OIl']],
    ['getBalance', ['11111111111111111111111111111111', {}, 'extra']],
    ['getBalance', [42]],
    ['getBalance', { pubkey: '11111111111111111111111111111111' }],
    ['getBalance', ['11111111111111111111111111111111', { commitment: 'eventually' }]],
    ['getAccountInfo', ['11111111111111111111111111111111', { encoding: 'hex' }]],
    ['getMultipleAccounts', ['11111111111111111111111111111111']],
    ['requestAirdrop', ['11111111111111111111111111111112', -1]],
    ['requestAirdrop', ['11111111111111111111111111111112', 1.5]],
    ['requestAirdrop', ['11111111111111111111111111111112', '1000']],
    ['sendTransaction', ['AAAA', { encoding: 'base64' }]],
    ['sendTransaction', ['@@@@', { encoding: 'base64' }]],
    ['sendTransaction', ['AAAA', { encoding: 'hex' }]],
    ['sendTransaction', ['A'.repeat(5000), { encoding: 'base64' }]],
    ['simulateTransaction', [123]],
    ['getFeeForMessage', ['AQAB']],
    ['getSignatureStatuses', [['short']]],
    ['getSignatureStatuses', [Array(257).fill('1'.repeat(64))]],
    ['getTokenAccountBalance', ['11111111111111111111111111111111']],
    ['getTokenAccountsByOwner', ['11111111111111111111111111111111', {}]],
    ['getTokenAccountsByOwner', ['11111111111111111111111111111111', { programId: '11111111111111111111111111111111' }]],
    ['getMinimumBalanceForRentExemption', [-5]],
    ['getTransaction', ['1'.repeat(64), { commitment: 'processed' }]],
  ];
  for (const [method, params] of cases) {
    const body = await rpc(url, method, params);
    assert.equal(body.error?.code, -32602, `${method} ${JSON.stringify(params).slice(0, 80)} → ${JSON.stringify(body)}`);
    assert.equal(typeof body.error.message, 'string');
  }
  assert.equal((await rpc(url, 'getSlot')).result, slot);
});

test('a future minContextSlot is -32016 with the context slot', async () => {
  const body = await rpc(url, 'getBalance', ['11111111111111111111111111111111', { minContextSlot: 1e9 }]);
  assert.equal(body.error.code, -32016);
  assert.equal(typeof body.error.data.contextSlot, 'number');
});

test('batches answer each call in order; notifications get no answer', async () => {
  const { body } = await post(
    url,
    JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'getGenesisHash' },
      { jsonrpc: '2.0', method: 'getSlot' },
      { jsonrpc: '2.0', id: 'b', method: 'nope' },
      7,
    ]),
  );
  assert.equal(body.length, 3);
  assert.deepEqual(body[0], { jsonrpc: '2.0', result: devnet.fixture.genesisHash, id: 'a' });
  assert.equal(body[1].error.code, -32601);
  assert.equal(body[2].error.code, -32600);
  const note = await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'getSlot' }));
  assert.equal(note.status, 204);
});

test('HTTP: GET is 405, /health is ok, oversized bodies are 413', async () => {
  assert.equal((await fetch(url)).status, 405);
  const health = await fetch(`${url}/health`);
  assert.equal(await health.text(), 'ok');
  const big = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot', params: ['x'.repeat(2 * 1024 * 1024)] }));
  assert.equal(big.status, 413);
  // The node still answers afterwards.
  assert.equal(typeof (await rpc(url, 'getSlot')).result, 'number');
});
