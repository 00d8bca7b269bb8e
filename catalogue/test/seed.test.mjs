// The seed catalogue end to end: built from the real packages, imported by the
// real `latch` binary, served by /getWallets and /getWalletImage.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { buildSeed, decodeDataUrl, merge, slug } from '../extract.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const latch = join(root, 'target', 'debug', 'latch');

test('data URLs decode in both encodings', () => {
  assert.deepEqual(decodeDataUrl('data:image/svg+xml,%3Csvg%2F%3E'), { contentType: 'image/svg+xml', data: Buffer.from('<svg/>') });
  assert.deepEqual(decodeDataUrl('data:image/png;base64,AAEC'), { contentType: 'image/png', data: Buffer.from([0, 1, 2]) });
  assert.throws(() => decodeDataUrl('https://example.org/a.png'), /not a data URL/);
});

test('ids are slugs and sources merge by name, RainbowKit first', () => {
  assert.equal(slug('OKX Wallet'), 'okx-wallet');
  assert.equal(slug('  Trust  Wallet! '), 'trust-wallet');
  const image = { contentType: 'image/svg+xml', data: Buffer.from('<svg/>') };
  const { data, images } = merge(
    [{ name: 'Rabby Wallet', rdns: 'io.rabby', image }, { name: 'Browser Wallet', image }],
    [
      { name: 'Rabby', injected_flag: 'isRabby', homepage: 'https://rabby.io', image },
      { name: 'Frame', injected_flag: 'isFrame', image },
      { name: 'Unknown', image },
      { name: 'Detected Wallet', injected_flag: 'isDetected', image },
    ],
  );
  assert.deepEqual(data.map((w) => [w.id, w.rdns, w.injected?.[0]?.injected_id]), [
    ['frame', null, 'isFrame'],
    ['rabby-wallet', 'io.rabby', 'isRabby'],
  ]);
  assert.equal(data[1].homepage, 'https://rabby.io');
  assert.deepEqual(images.map((i) => i.id), ['frame', 'rabby-wallet']);
});

const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

test('the seed imports into latch and is served with its icons', async () => {
  const seed = await buildSeed();
  assert.ok(seed.count >= 80, `${seed.count} wallets`);
  assert.ok(seed.attribution.every((a) => a.license === 'MIT' && a.copyright));
  const metamask = seed.data.find((w) => w.id === 'metamask');
  assert.equal(metamask.rdns, 'io.metamask');
  assert.equal(metamask.injected[0].injected_id, 'isMetaMask');
  assert.ok(seed.images.some((i) => i.kind === 'asset' && i.id === 'eip155:1'));

  const dir = mkdtempSync(join(tmpdir(), 'latch-seed-'));
  const file = join(dir, 'seed.json');
  writeFileSync(file, JSON.stringify(seed));
  const env = { ...process.env, LATCH_DATA_DIR: dir };
  const imported = execFileSync(latch, ['catalogue', 'import', file], { env, encoding: 'utf8' });
  assert.match(imported, new RegExp(`imported ${seed.count} wallets and ${seed.images.length} images`));

  const port = await freePort();
  const server = spawn(latch, ['serve', '--dev', '--port', String(port)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((ready, fail) => {
      server.stdout.on('data', (chunk) => String(chunk).includes('latch serving') && ready());
      server.on('exit', (code) => fail(new Error(`latch exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const found = await (await fetch(`${base}/getWallets?projectId=demo&search=metamask`)).json();
    assert.equal(found.data[0].id, 'metamask');
    const icon = await fetch(`${base}/getWalletImage/metamask?projectId=demo`);
    assert.equal(icon.status, 200);
    const stored = seed.images.find((i) => i.kind === 'wallet' && i.id === 'metamask');
    assert.equal(icon.headers.get('content-type'), stored.contentType);
    assert.deepEqual(Buffer.from(await icon.arrayBuffer()), Buffer.from(stored.data, 'base64'));
    const chain = await fetch(`${base}/public/getAssetImage/eip155:1?projectId=demo`);
    assert.equal(chain.status, 200);
    const usd = await fetch(`${base}/public/getCurrencyImage/USD?projectId=demo`);
    assert.match(await usd.text(), /<text[^>]*>\$<\/text>/);
    const usdc = await fetch(`${base}/public/getTokenImage/USDC?projectId=demo`);
    assert.match(await usdc.text(), />USDC<\/text>/);
  } finally {
    server.kill();
  }
});
