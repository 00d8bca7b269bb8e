// The Rust WalletConnect engine as the browser runs it (fixtures/wasm-dapp.ts:
// the built @latch/wasm in a page of its own) in Chromium, paired through the
// real `latch serve` relay with the official wallet client
// (@walletconnect/sign-client 2.21.8) in Node.
import { expect, type Page } from '@playwright/test';
import { verifyMessage } from 'viem';
import { E2E_RELAY_URL as RELAY_URL, E2E_RPC_URL, E2E_SECOND_RPC_URL, E2E_SERVER_URL } from '../fixtures/stack.js';
import { createWasmClient as createClient, openWasmPage, test } from '../fixtures/wasm-dapp.js';
import { OfficialWallet, WALLET_ACCOUNT, WALLET_ADDRESS } from '../fixtures/wc-wallet.js';

const ADDRESS = WALLET_ADDRESS;

/** The text the page's IndexedDB holds under `key`, read with the plain IndexedDB API. */
function readIndexedDb(page: Page, key: string) {
  return page.evaluate(
    (key) =>
      new Promise<{ version: number; stores: string[]; value: unknown }>((done, fail) => {
        const open = indexedDB.open('WALLET_CONNECT_V2_INDEXED_DB');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction('keyvaluestorage').objectStore('keyvaluestorage').get(key);
          get.onerror = () => fail(get.error);
          get.onsuccess = () => {
            done({ version: db.version, stores: Array.from(db.objectStoreNames), value: get.result });
            db.close();
          };
        };
      }),
    key,
  );
}

/** Whether `signature` is the wallet's over `hello`. */
function signedByWallet(signature: unknown) {
  return verifyMessage({ address: WALLET_ADDRESS, message: { raw: '0x68656c6c6f' }, signature: signature as `0x${string}` });
}

function personalSign(page: Page, topic: string) {
  return page.evaluate(
    ({ topic, address }) =>
      (window as any).client.request({
        topic,
        chainId: 'eip155:1',
        request: { method: 'personal_sign', params: ['0x68656c6c6f', address] },
      }),
    { topic, address: ADDRESS },
  );
}

/** What `request` rejects with, as plain data. */
function refusal(page: Page, topic: string, method: string) {
  return page.evaluate(
    async ({ topic, method }) => {
      const w = window as any;
      try {
        await w.client.request({ topic, chainId: 'eip155:1', request: { method, params: [{}] }, expiry: 600 });
        return null;
      } catch (error: any) {
        return { isLatchError: error instanceof w.wasm.LatchError, message: error.message, code: error.code };
      }
    },
    { topic, method },
  );
}

let wallet: OfficialWallet;
test.beforeEach(async () => {
  // Transactions would go to the devnet; these tests send none (tests/provider.rs in the crate does).
  wallet = await OfficialWallet.start(RELAY_URL, `eip155:31337=${E2E_RPC_URL},eip155:31338=${E2E_SECOND_RPC_URL}`);
});
test.afterEach(async () => {
  await wallet.stop();
});

test('the wasm engine pairs with the official wallet, signs, survives a reload from IndexedDB and hears the wallet disconnect', async ({
  page,
  wasmPageUrl,
}) => {
  test.setTimeout(90_000);
  await openWasmPage(page, wasmPageUrl);
  const first = await createClient(page);
  expect(first.clientId).toMatch(/^did:key:z6Mk/);
  expect(first.sessions).toEqual([]);

  // Pair: the page proposes, the wallet pastes the URI and approves.
  const uri = await page.evaluate(async () => {
    const w = window as any;
    const connecting = await w.client.connect({
      requiredNamespaces: {
        eip155: {
          chains: ['eip155:1'],
          methods: ['personal_sign', 'eth_sendTransaction'],
          events: ['accountsChanged', 'chainChanged'],
        },
      },
    });
    w.approval = connecting.approval;
    return connecting.uri as string;
  });
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?.*symKey=[0-9a-f]{64}/);
  await wallet.run(`pair ${uri}`);
  const proposal = await wallet.expect('proposal');
  expect(proposal.proposer).toMatchObject({ name: 'latch wasm dapp' });
  const session = await page.evaluate(() => (window as any).approval);
  const approved = await wallet.expect('approved');
  expect(session.topic, 'both sides derived one session topic').toBe(approved.topic);
  expect(session.namespaces.eip155.accounts).toEqual([
    WALLET_ACCOUNT,
    `eip155:31337:${WALLET_ADDRESS}`,
    `eip155:31338:${WALLET_ADDRESS}`,
  ]);
  expect(session.peer.metadata.name).toBe('wallet');
  const topic: string = session.topic;
  await expect.poll(() => page.evaluate(() => (window as any).events.map((e: any) => e.name))).toContain('session_connect');

  // personal_sign round trip, a wallet-side refusal, and a method the session does not grant.
  expect(await signedByWallet(await personalSign(page, topic))).toBe(true);
  expect(await wallet.expect('request')).toMatchObject({ method: 'personal_sign', chainId: 'eip155:1' });
  expect(await refusal(page, topic, 'eth_sendTransaction')).toEqual({
    isLatchError: true,
    message: 'User rejected.',
    code: 'WC_PEER',
  });
  expect(await refusal(page, topic, 'eth_sign')).toEqual({
    isLatchError: true,
    message: 'request() method: eth_sign',
    code: 'WC_NOT_ALLOWED',
  });

  // A wallet event reaches the page's listener in the official client's shape.
  await wallet.run('accounts');
  await expect
    .poll(() => page.evaluate(() => (window as any).events.find((e: any) => e.name === 'session_event')?.payload))
    .toEqual({ topic, params: { chainId: 'eip155:1', event: { name: 'accountsChanged', data: [WALLET_ACCOUNT] } } });

  // Persisted in IndexedDB under the official client's names.
  const stored = await readIndexedDb(page, 'wc@2:client:0.3//session');
  expect(stored.version).toBe(1);
  expect(stored.stores).toEqual(['keyvaluestorage']);
  expect(JSON.parse(stored.value as string).map((s: { topic: string }) => s.topic)).toEqual([topic]);

  // Reload: a new client restores the session and identity from IndexedDB and still reaches the wallet.
  await page.reload();
  await page.waitForFunction(() => (window as any).wcReady === true);
  const second = await createClient(page);
  expect(second.clientId, 'same relay identity after a reload').toBe(first.clientId);
  expect(second.sessions.map((s) => s.topic)).toEqual([topic]);
  expect(await signedByWallet(await personalSign(page, topic))).toBe(true);
  await wallet.expect('request');

  // The wallet disconnects: the page hears it, and the session leaves memory and IndexedDB.
  await wallet.run('delete');
  await expect
    .poll(() => page.evaluate(() => (window as any).events.find((e: any) => e.name === 'session_delete')?.payload))
    .toEqual({ topic, params: { code: 6000, message: 'User disconnected.' } });
  expect(await page.evaluate(() => (window as any).client.sessions())).toEqual([]);
  expect(JSON.parse((await readIndexedDb(page, 'wc@2:client:0.3//session')).value as string)).toEqual([]);
  expect(await refusal(page, topic, 'personal_sign')).toEqual({
    isLatchError: true,
    message: `no session or pairing with topic ${topic}`,
    code: 'WC_UNKNOWN_TOPIC',
  });
  expect(await page.evaluate(() => (window as any).events.filter((e: any) => e.name === 'relay_error'))).toEqual([]);
});

test('bad options are LatchErrors, and a closed client says Sign Client not initialized', async ({ page, wasmPageUrl }) => {
  await openWasmPage(page, wasmPageUrl);
  const errors = await page.evaluate(async (relayUrl) => {
    const w = window as any;
    // The module is separate from @latch/wasm, but what it throws is @latch/wasm's very class.
    const core = await import(/* @vite-ignore */ '@latch/wasm' as string);
    const caught = async (run: () => Promise<unknown>) => {
      try {
        await run();
        return null;
      } catch (error: any) {
        const isLatchError = error instanceof w.wasm.LatchError && error instanceof core.LatchError;
        return { isLatchError, message: error.message, code: error.code };
      }
    };
    const metadata = { name: 'x', description: 'x', url: 'http://127.0.0.1', icons: [] };
    const badUrl = await caught(() => w.wasm.WalletConnectClient.create({ relayUrl: 'http://127.0.0.1/relay', metadata }));
    const noMetadata = await caught(() => w.wasm.WalletConnectClient.create({ relayUrl }));
    const client = await w.wasm.WalletConnectClient.create({ relayUrl, metadata, storage: 'memory' });
    client.close();
    const closed = await caught(() => client.connect({ requiredNamespaces: {} }));
    return { badUrl, noMetadata, closed };
  }, RELAY_URL);
  expect(errors.badUrl).toEqual({
    isLatchError: true,
    message: 'transport: relay URL must start with ws:// or wss://: http://127.0.0.1/relay',
    code: 'WC_TRANSPORT',
  });
  expect(errors.noMetadata).toMatchObject({ isLatchError: true, code: 'INVALID_INPUT' });
  expect(errors.noMetadata!.message).toContain('metadata');
  expect(errors.closed).toEqual({ isLatchError: true, message: 'Sign Client not initialized', code: 'WC_CLOSED' });
});

/** Creates the EIP-1193 provider on the page (IndexedDB) and records its events in `window.events`. */
function createProvider(page: Page) {
  return page.evaluate(
    async ({ relayUrl, gatewayUrl, secondRpc }) => {
      const w = window as any;
      w.provider = await w.wasm.WalletConnectProvider.create({
        relayUrl,
        projectId: 'demo',
        metadata: { name: 'latch wasm provider', description: 'the Rust provider in Chromium', url: location.origin, icons: [] },
        gatewayUrl,
        rpcMap: { 'eip155:31338': secondRpc },
      });
      for (const name of ['connect', 'accountsChanged', 'chainChanged', 'disconnect', 'session_event', 'relay_error']) {
        w.provider.on(name, (payload: unknown) => w.events.push({ name, payload }));
      }
      return { topic: w.provider.session?.topic as string | undefined, chainId: w.provider.chainId as string | undefined };
    },
    { relayUrl: RELAY_URL, gatewayUrl: E2E_SERVER_URL, secondRpc: E2E_SECOND_RPC_URL },
  );
}

/** `provider.request(args, chainId)`: its result, or what it threw as plain data. */
function providerRequest(page: Page, method: string, params: unknown[] = [], chainId?: string) {
  return page.evaluate(
    async ({ method, params, chainId }) => {
      const w = window as any;
      try {
        return { result: await w.provider.request({ method, params }, chainId) };
      } catch (error: any) {
        return { error: { isLatchError: error instanceof w.wasm.LatchError, message: error.message, code: error.code } };
      }
    },
    { method, params, chainId },
  );
}

function eventsNamed(page: Page, name: string) {
  return page.evaluate((name) => (window as any).events.filter((e: any) => e.name === name).map((e: any) => e.payload), name);
}

async function rpc(url: string, method: string, params: unknown[] = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

test('the wasm provider: connect, local answers, wallet and HTTP routing, chain switch kept across a reload, wallet disconnect', async ({
  page,
  wasmPageUrl,
}) => {
  test.setTimeout(90_000);
  await openWasmPage(page, wasmPageUrl);
  expect(await createProvider(page)).toEqual({ topic: undefined, chainId: undefined });

  // Before connect(): the documented messages.
  expect(await providerRequest(page, 'eth_accounts')).toEqual({
    error: { isLatchError: true, message: 'Please call connect() before request()', code: 'WC_REQUEST_BEFORE_CONNECT' },
  });
  expect(
    await page.evaluate(() => (window as any).provider.enable().catch((e: any) => ({ message: e.message, code: e.code }))),
  ).toEqual({ message: 'Please call connect() before enable()', code: 'WC_ENABLE_BEFORE_CONNECT' });

  // Connect: the wallet grants both devnet chains; 31337, asked for first, is the default.
  const uri = await page.evaluate(async () => {
    const w = window as any;
    const namespace = (chain: string) => ({
      chains: [chain],
      methods: ['personal_sign', 'eth_sendTransaction'],
      events: ['accountsChanged', 'chainChanged'],
    });
    const connecting = await w.provider.connect({
      requiredNamespaces: { eip155: namespace('eip155:31337') },
      optionalNamespaces: { eip155: namespace('eip155:31338') },
    });
    w.approval = connecting.approval;
    return connecting.uri as string;
  });
  await wallet.run(`pair ${uri}`);
  const session = await page.evaluate(() => (window as any).approval);
  expect((await wallet.expect('approved')).topic).toBe(session.topic);
  await expect.poll(() => eventsNamed(page, 'connect')).toEqual([{ session }]);
  expect(await page.evaluate(() => (window as any).provider.chainId)).toBe('eip155:31337');

  // Local answers, then the wallet (personal_sign, verified), then HTTP (gateway and rpcMap).
  expect(await providerRequest(page, 'eth_chainId')).toEqual({ result: '0x7a69' });
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ result: [WALLET_ADDRESS] });
  const signed = await providerRequest(page, 'personal_sign', ['0x68656c6c6f', WALLET_ADDRESS]);
  expect(await signedByWallet(signed.result)).toBe(true);
  expect(await wallet.expect('request')).toMatchObject({ method: 'personal_sign', chainId: 'eip155:31337' });
  const block = await providerRequest(page, 'eth_blockNumber');
  expect(block.result, 'through the Latch gateway').toBe(await rpc(E2E_RPC_URL, 'eth_blockNumber'));
  const balance = await providerRequest(page, 'eth_getBalance', [WALLET_ADDRESS, 'latest'], 'eip155:31338');
  expect(balance.result, 'through the rpcMap').toBe(await rpc(E2E_SECOND_RPC_URL, 'eth_getBalance', [WALLET_ADDRESS, 'latest']));
  expect(await providerRequest(page, 'eth_blockNumber', [], 'eip155:10')).toEqual({
    error: { isLatchError: true, message: 'JSON-RPC provider for eip155:10 not found', code: 'WC_NO_JSON_RPC_PROVIDER' },
  });
  expect(await providerRequest(page, 'getSlot', [], 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toEqual({
    error: {
      isLatchError: true,
      message: "Namespace 'solana' is not configured. Please call connect() first with namespace config.",
      code: 'WC_NAMESPACE_NOT_CONFIGURED',
    },
  });

  // A user rejection keeps the wallet's numeric code.
  await wallet.run('reject');
  expect(await providerRequest(page, 'personal_sign', ['0x00', WALLET_ADDRESS])).toEqual({
    error: { isLatchError: true, message: 'User rejected.', code: 5000 },
  });
  expect(await wallet.expect('request')).toMatchObject({ method: 'personal_sign', chainId: 'eip155:31337' });
  await wallet.run('accept');

  // The wallet switches to 31338: chainChanged (hex), then that chain's accounts.
  await wallet.run('switch eip155:31338');
  await expect.poll(() => eventsNamed(page, 'chainChanged')).toEqual(['0x7a6a']);
  await expect.poll(() => eventsNamed(page, 'accountsChanged')).toContainEqual([WALLET_ADDRESS]);
  expect(await page.evaluate(() => (window as any).provider.chainId)).toBe('eip155:31338');

  // Reload: the session and the switched chain come back from IndexedDB, no new pairing.
  await page.reload();
  await page.waitForFunction(() => (window as any).wcReady === true);
  expect(await createProvider(page)).toEqual({ topic: session.topic, chainId: 'eip155:31338' });
  expect(await providerRequest(page, 'eth_chainId')).toEqual({ result: '0x7a6a' });
  expect(await signedByWallet((await providerRequest(page, 'personal_sign', ['0x68656c6c6f', WALLET_ADDRESS])).result)).toBe(true);
  expect(await wallet.expect('request')).toMatchObject({ method: 'personal_sign', chainId: 'eip155:31338' });

  // The wallet disconnects: `disconnect`, and the provider is back to before connect().
  await wallet.run('delete');
  await expect.poll(() => eventsNamed(page, 'disconnect')).toEqual([{ code: 6000, message: 'User disconnected.' }]);
  expect(await page.evaluate(() => (window as any).provider.session)).toBeUndefined();
  expect(await providerRequest(page, 'eth_chainId')).toEqual({
    error: { isLatchError: true, message: 'Please call connect() before request()', code: 'WC_REQUEST_BEFORE_CONNECT' },
  });
  expect(await readIndexedDb(page, 'wc@2:universal_provider:/defaultChain')).toMatchObject({ value: undefined });
  expect(await eventsNamed(page, 'relay_error')).toEqual([]);
});
