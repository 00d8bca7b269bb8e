// The dev wallet (apps/devwallet, served by the e2e `latch serve` at /devwallet/) as the wallet,
// driven by role and label like a person, and the Rust WalletConnect engine in the browser as
// the dapp (fixtures/wasm-dapp.ts), through the real relay; transactions land on the devnet.
import { expect, type Page } from '@playwright/test';
import { createPublicClient, http, stringToHex, verifyMessage, verifyTypedData, type Hex } from 'viem';
import { axeViolations } from '../fixtures/axe.js';
import { E2E_RPC_URL, E2E_SERVER_URL } from '../fixtures/stack.js';
import { createWasmClient, openWasmPage, test } from '../fixtures/wasm-dapp.js';

const WALLET_URL = `${E2E_SERVER_URL}/devwallet/`;
// anvil's accounts 1 (the wallet's default) and 2.
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const DAPP = 'latch wasm dapp';

/** Opens the wallet and waits until its client is up. */
async function openWallet(wallet: Page) {
  await wallet.goto(WALLET_URL);
  await expect(wallet.getByRole('heading', { name: 'Latch dev wallet' })).toBeVisible();
  // Switch chain is enabled once the wallet client is up.
  await expect(wallet.getByRole('button', { name: 'Switch chain' })).toBeEnabled();
}

const walletStatus = (wallet: Page) => wallet.getByRole('status', { name: 'Wallet status' });

/** The dapp proposes; resolves with the URI (its approval waits in `window.approval`). */
function propose(dapp: Page) {
  return dapp.evaluate(async () => {
    const w = window as any;
    const connecting = await w.client.connect({
      requiredNamespaces: {
        eip155: {
          chains: ['eip155:31337'],
          methods: ['personal_sign', 'eth_sendTransaction', 'wallet_switchEthereumChain'],
          events: ['chainChanged', 'accountsChanged'],
        },
      },
      optionalNamespaces: { eip155: { chains: ['eip155:31338'], methods: ['eth_signTypedData_v4'], events: [] } },
    });
    w.approval = connecting.approval.then(
      (session: unknown) => ({ session }),
      (error: any) => ({ error: { message: error.message, code: error.code } }),
    );
    return connecting.uri as string;
  });
}

/** Starts a request on the dapp without waiting for the answer (it waits in `window.pending[key]`). */
function startRequest(dapp: Page, topic: string, chainId: string, method: string, params: unknown, key = 'last') {
  return dapp.evaluate(
    ({ topic, chainId, method, params, key }) => {
      const w = window as any;
      w.pending ??= {};
      w.pending[key] = w.client.request({ topic, chainId, request: { method, params } }).then(
        (result: unknown) => ({ result }),
        (error: any) => ({ error: { message: error.message, code: error.code } }),
      );
    },
    { topic, chainId, method, params, key },
  );
}

function answer(dapp: Page, key = 'last'): Promise<{ result?: unknown; error?: { message: string; code: string } }> {
  return dapp.evaluate((key) => (window as any).pending[key], key);
}

/** The dapp's session events so far, as `[name, chainId, data]`. */
function sessionEvents(dapp: Page) {
  return dapp.evaluate(() =>
    (window as any).events
      .filter((e: any) => e.name === 'session_event')
      .map((e: any) => [e.payload.params.event.name, e.payload.params.chainId, e.payload.params.event.data]),
  );
}

/** Pastes the URI into the wallet and approves the proposal; resolves with the dapp's session. */
async function pairAndApprove(dapp: Page, wallet: Page) {
  const uri = await propose(dapp);
  await wallet.getByLabel('WalletConnect URI').fill(uri);
  await wallet.getByRole('button', { name: 'Pair' }).click();
  const proposal = wallet.getByRole('article', { name: `Connection request from ${DAPP}` });
  await expect(proposal).toContainText('eip155:31337');
  await expect(proposal).toContainText('personal_sign');
  await proposal.getByRole('button', { name: 'Approve' }).click();
  const approved = await dapp.evaluate(() => (window as any).approval);
  expect(approved.error).toBeUndefined();
  await expect(wallet.getByRole('listitem', { name: `Session with ${DAPP}` })).toBeVisible();
  return approved.session as { topic: string; namespaces: { eip155: { accounts: string[]; chains: string[]; methods: string[] } } };
}

/** Two tabs of one browser: the dapp's page and the wallet's. */
async function openBoth(page: Page, wasmPageUrl: string) {
  await openWasmPage(page, wasmPageUrl);
  await createWasmClient(page, DAPP);
  const wallet = await page.context().newPage();
  // Everything the wallet page fetches or opens, to check it talks only to the Latch server.
  const contacted: string[] = [];
  wallet.on('request', (request) => contacted.push(request.url()));
  wallet.on('websocket', (socket) => contacted.push(socket.url()));
  await openWallet(wallet);
  return { dapp: page, wallet, contacted };
}

test('the dev wallet pairs with the wasm dapp, signs, sends on the devnet, switches chain, refuses, survives a reload and disconnects', async ({
  page,
  wasmPageUrl,
}) => {
  test.setTimeout(120_000);
  const { dapp, wallet, contacted } = await openBoth(page, wasmPageUrl);
  await expect(wallet.getByRole('note')).toContainText('public test keys');
  await expect(wallet.getByLabel('Account', { exact: true })).toHaveValue('1');
  expect(await axeViolations(wallet.locator('body')), 'the wallet page is axe-clean').toEqual([]);

  // Pair: the session grants the wallet's account on both devnet chains.
  const session = await pairAndApprove(dapp, wallet);
  const { topic } = session;
  expect(session.namespaces.eip155.accounts).toEqual([`eip155:31337:${ACCOUNT}`, `eip155:31338:${ACCOUNT}`]);
  expect(session.namespaces.eip155.methods).toEqual(
    expect.arrayContaining(['personal_sign', 'eth_sendTransaction', 'eth_signTypedData_v4', 'wallet_switchEthereumChain']),
  );
  expect(await axeViolations(wallet.locator('body')), 'with a session, still axe-clean').toEqual([]);

  // Two requests at once: both wait in the wallet's queue.
  const text = 'Sign in to the Latch e2e';
  await startRequest(dapp, topic, 'eip155:31337', 'personal_sign', [stringToHex(text), ACCOUNT], 'sign');
  await startRequest(
    dapp,
    topic,
    'eip155:31337',
    'eth_sendTransaction',
    [{ from: ACCOUNT, to: RECIPIENT, value: '0x2386f26fc10000' }],
    'send',
  );
  const signCard = wallet.getByRole('article', { name: `personal_sign request from ${DAPP}` });
  const txCard = wallet.getByRole('article', { name: `eth_sendTransaction request from ${DAPP}` });
  await expect(signCard).toBeVisible();
  await expect(txCard).toBeVisible();
  expect(await axeViolations(wallet.locator('body')), 'with requests, still axe-clean').toEqual([]);

  // personal_sign: the wallet shows the decoded text; the signature recovers to the account.
  await expect(signCard.getByLabel('Message')).toHaveValue(text);
  await signCard.getByRole('button', { name: 'Approve' }).click();
  const signed = await answer(dapp, 'sign');
  expect(signed.error).toBeUndefined();
  expect(await verifyMessage({ address: ACCOUNT, message: text, signature: signed.result as Hex })).toBe(true);
  await expect(signCard).toHaveCount(0);

  // eth_sendTransaction: sent through the Latch gateway; the hash is mined on anvil.
  await expect(txCard).toContainText(RECIPIENT);
  await expect(txCard).toContainText('0.01 ETH');
  await txCard.getByRole('button', { name: 'Approve' }).click();
  const sent = await answer(dapp, 'send');
  expect(sent.error).toBeUndefined();
  expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/);
  const receipt = await createPublicClient({ transport: http(E2E_RPC_URL) }).waitForTransactionReceipt({
    hash: sent.result as Hex,
  });
  expect(receipt.status).toBe('success');
  expect(receipt.from.toLowerCase()).toBe(ACCOUNT.toLowerCase());
  expect(receipt.to?.toLowerCase()).toBe(RECIPIENT.toLowerCase());
  await expect(wallet.getByText('No requests waiting.')).toBeVisible();

  // eth_signTypedData_v4 as dapps send it (JSON text, EIP712Domain listed): the signature verifies.
  const typedData = {
    domain: { name: 'Latch e2e', version: '1', chainId: 31337 },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Greeting: [
        { name: 'to', type: 'address' },
        { name: 'text', type: 'string' },
      ],
    },
    primaryType: 'Greeting',
    message: { to: RECIPIENT, text: 'gm' },
  } as const;
  await startRequest(dapp, topic, 'eip155:31337', 'eth_signTypedData_v4', [ACCOUNT, JSON.stringify(typedData)]);
  const typedCard = wallet.getByRole('article', { name: `eth_signTypedData_v4 request from ${DAPP}` });
  await expect(typedCard).toContainText('Greeting');
  await typedCard.getByRole('button', { name: 'Approve' }).click();
  const typedSigned = await answer(dapp);
  expect(typedSigned.error).toBeUndefined();
  const { EIP712Domain: _domainType, ...types } = typedData.types;
  expect(
    await verifyTypedData({ ...typedData, types, address: ACCOUNT, signature: typedSigned.result as Hex }),
  ).toBe(true);

  // A refusal: the dapp hears the wallet's `User rejected.`.
  await startRequest(dapp, topic, 'eip155:31337', 'personal_sign', [stringToHex('no'), ACCOUNT]);
  await wallet
    .getByRole('article', { name: `personal_sign request from ${DAPP}` })
    .getByRole('button', { name: 'Reject' })
    .click();
  expect(await answer(dapp)).toEqual({ error: { message: 'User rejected.', code: 'WC_PEER' } });

  // Switch chain in the wallet: chainChanged, then accountsChanged, on the new chain.
  await wallet.getByLabel('Switch to').selectOption('eip155:31338');
  await wallet.getByRole('button', { name: 'Switch chain' }).click();
  await expect(wallet.getByLabel('Active chain')).toContainText('eip155:31338');
  await expect
    .poll(() => sessionEvents(dapp))
    .toEqual([
      ['chainChanged', 'eip155:31338', 31338],
      ['accountsChanged', 'eip155:31338', [`eip155:31338:${ACCOUNT}`]],
    ]);

  // The dapp asks to switch back (wallet_switchEthereumChain): approved, and announced the same way.
  await startRequest(dapp, topic, 'eip155:31338', 'wallet_switchEthereumChain', [{ chainId: '0x7a69' }]);
  const switchCard = wallet.getByRole('article', { name: `wallet_switchEthereumChain request from ${DAPP}` });
  await expect(switchCard).toContainText('Latch Devnet (eip155:31337)');
  await switchCard.getByRole('button', { name: 'Approve' }).click();
  expect(await answer(dapp)).toEqual({ result: null });
  await expect
    .poll(async () => (await sessionEvents(dapp)).slice(2))
    .toEqual([
      ['chainChanged', 'eip155:31337', 31337],
      ['accountsChanged', 'eip155:31337', [`eip155:31337:${ACCOUNT}`]],
    ]);

  // Reload: the sign-client's own storage brings the session (and the chain) back, and it still signs.
  await wallet.reload();
  await expect(wallet.getByRole('button', { name: 'Switch chain' })).toBeEnabled();
  await expect(wallet.getByRole('listitem', { name: `Session with ${DAPP}` })).toBeVisible();
  await expect(wallet.getByLabel('Active chain')).toContainText('eip155:31337');
  await startRequest(dapp, topic, 'eip155:31337', 'personal_sign', [stringToHex('after a reload'), ACCOUNT]);
  await wallet
    .getByRole('article', { name: `personal_sign request from ${DAPP}` })
    .getByRole('button', { name: 'Approve' })
    .click();
  const again = await answer(dapp);
  expect(await verifyMessage({ address: ACCOUNT, message: 'after a reload', signature: again.result as Hex })).toBe(true);

  // The wallet disconnects: the dapp hears session_delete with USER_DISCONNECTED.
  await wallet
    .getByRole('listitem', { name: `Session with ${DAPP}` })
    .getByRole('button', { name: 'Disconnect' })
    .click();
  await expect
    .poll(() => dapp.evaluate(() => (window as any).events.find((e: any) => e.name === 'session_delete')?.payload))
    .toEqual({ topic, params: { code: 6000, message: 'User disconnected.' } });
  await expect(wallet.getByText('No active sessions.')).toBeVisible();
  expect(await dapp.evaluate(() => (window as any).client.sessions())).toEqual([]);

  // No telemetry, verify or other vendor host: only the serving Latch server (page, relay, gateway).
  const server = new URL(E2E_SERVER_URL).host;
  expect(contacted.filter((url) => new URL(url).host !== server)).toEqual([]);
  expect(contacted.some((url) => url.startsWith(`ws://${server}/relay?`))).toBe(true);
});

test('a rejected proposal reaches the dapp, and a dapp-side disconnect empties the wallet', async ({ page, wasmPageUrl }) => {
  test.setTimeout(90_000);
  const { dapp, wallet } = await openBoth(page, wasmPageUrl);

  // Reject: the dapp's approval fails with the wallet's reason.
  const uri = await propose(dapp);
  await wallet.getByLabel('WalletConnect URI').fill(uri);
  await wallet.getByRole('button', { name: 'Pair' }).click();
  const proposal = wallet.getByRole('article', { name: `Connection request from ${DAPP}` });
  await expect(proposal).toContainText(new URL(wasmPageUrl).origin);
  await proposal.getByRole('button', { name: 'Reject' }).click();
  expect(await dapp.evaluate(() => (window as any).approval)).toEqual({
    error: { message: 'User rejected.', code: 'WC_PEER' },
  });
  await expect(proposal).toHaveCount(0);

  // Another account, then approve; the dapp ends the session and the wallet shows it gone.
  await wallet.getByLabel('Account', { exact: true }).selectOption('2');
  const session = await pairAndApprove(dapp, wallet);
  expect(session.namespaces.eip155.accounts[0]).toBe(`eip155:31337:${RECIPIENT}`);
  await dapp.evaluate((topic) => (window as any).client.disconnect({ topic }), session.topic);
  await expect(wallet.getByText('No active sessions.')).toBeVisible();
  await expect(walletStatus(wallet)).toContainText('The dapp ended session');
});
