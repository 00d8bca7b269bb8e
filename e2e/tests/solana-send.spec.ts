// Solana sends end to end, first as a visitor makes them: the demo's modal, its Account view's
// Send action and the Send view. Then the transfer module on its own, @latch/react's
// sendSolanaTransfer in a real page (fixtures/
// solana-send-page.ts) builds SOL and SPL transfers with the built @latch/wasm `extra` module,
// reads the blockhash and the receiver's token account through the real `latch` gateway, and a
// Wallet Standard wallet registered with the official `@wallet-standard/wallet` signs them with
// a devnet fixture key and sends them (its own node, or back through the gateway). Balances are
// read from the Solana devnet itself afterwards.
import { expect, type Page } from '@playwright/test';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import type { SolanaSendRequest, SolanaSendResult } from '../fixtures/solana-send-app.js';
import { test } from '../fixtures/solana-send-page.js';
import {
  installSolanaTestWallet,
  SOLANA_TEST_WALLET_NAME,
  SOLANA_TEST_WALLET_SELECTOR,
  type SolanaTestWalletOptions,
} from '../fixtures/solana-wallet.js';
import { lamportsOf as lamports, solanaRpc as rpc } from '../fixtures/solana-devnet.js';
import { E2E_SERVER_URL, readSolanaDevnet, type SolanaDevnet } from '../fixtures/stack.js';

type Fixture = SolanaDevnet & { genesisHash: string; usdc: { mint: string; decimals: number } };
const solana = () => readSolanaDevnet() as Fixture;


/** A token account's balance in base units; 0 when the account does not exist. */
async function tokenUnits(account: string): Promise<bigint> {
  const info = await rpc<{ value: unknown }>('getAccountInfo', [account, { encoding: 'base64' }]);
  if (info.value === null) return 0n;
  return BigInt((await rpc<{ value: { amount: string } }>('getTokenAccountBalance', [account])).value.amount);
}

const usdcAccount = (owner: string) =>
  getAssociatedTokenAddressSync(new PublicKey(solana().usdc.mint), new PublicKey(owner), true).toBase58();

/** The fee the transaction paid, as the chain recorded it. */
async function feeOf(signature: string): Promise<bigint> {
  const transaction = await rpc<{ meta: { fee: number; err: unknown } } | null>('getTransaction', [
    signature,
    { encoding: 'json', commitment: 'confirmed' },
  ]);
  expect(transaction, `transaction ${signature} landed`).not.toBeNull();
  expect(transaction!.meta.err).toBeNull();
  return BigInt(transaction!.meta.fee);
}

async function openPage(page: Page, url: string, options: Partial<SolanaTestWalletOptions> = {}) {
  const { accounts, rpcUrl, caipNetworkId } = solana();
  const wallet = await installSolanaTestWallet(page, { account: accounts[3]!, rpcUrl, chains: [caipNetworkId], ...options });
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { latchSolanaSendReady?: boolean }).latchSolanaSendReady);
  return wallet;
}

function send(page: Page, fields: Pick<SolanaSendRequest, 'token' | 'amount' | 'receiver'>): Promise<SolanaSendResult> {
  const { caipNetworkId, rpcUrl } = solana();
  const request: SolanaSendRequest = {
    serverUrl: E2E_SERVER_URL,
    network: {
      id: caipNetworkId.slice('solana:'.length),
      caipNetworkId: caipNetworkId as `solana:${string}`,
      chainNamespace: 'solana',
      name: 'Solana Devnet',
      nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
      rpcUrls: { default: { http: [rpcUrl] } },
    },
    walletName: SOLANA_TEST_WALLET_NAME,
    ...fields,
  };
  return page.evaluate(
    (r) => (window as unknown as { latchSolanaSend(r: SolanaSendRequest): Promise<SolanaSendResult> }).latchSolanaSend(r),
    request,
  );
}

const signatureOf = (result: SolanaSendResult) => {
  expect(result).toHaveProperty('signature');
  return (result as { signature: string }).signature;
};

test('sends SOL to a new account with solana:signAndSendTransaction; both balances change on the devnet', async ({
  page,
  solanaSendPageUrl,
}) => {
  const wallet = await openPage(page, solanaSendPageUrl);
  const sender = wallet.address;
  const receiver = Keypair.generate().publicKey.toBase58();
  const before = await lamports(sender);

  const signature = signatureOf(await send(page, { token: { type: 'native' }, amount: '1.25', receiver }));

  expect(wallet.requests).toContain('solana:signAndSendTransaction');
  expect(wallet.transactionChains).toEqual([solana().caipNetworkId]);
  expect(await lamports(receiver)).toBe(1_250_000_000n);
  expect(await lamports(sender)).toBe(before - 1_250_000_000n - (await feeOf(signature)));
});

test("sends USDC to an owner without a token account: the account is created, both token balances change", async ({
  page,
  solanaSendPageUrl,
}) => {
  const wallet = await openPage(page, solanaSendPageUrl);
  const receiver = Keypair.generate().publicKey.toBase58();
  const [senderTokens, receiverTokens] = [usdcAccount(wallet.address), usdcAccount(receiver)];
  expect(await tokenUnits(receiverTokens)).toBe(0n);
  const before = await tokenUnits(senderTokens);
  const token = { type: 'spl' as const, mint: solana().usdc.mint, decimals: solana().usdc.decimals };

  const first = signatureOf(await send(page, { token, amount: '12.5', receiver }));
  await feeOf(first);
  expect(await tokenUnits(receiverTokens)).toBe(12_500_000n);
  expect(await tokenUnits(senderTokens)).toBe(before - 12_500_000n);

  // The account exists now: a second send goes to it without creating it again.
  const second = signatureOf(await send(page, { token, amount: '0.000001', receiver }));
  await feeOf(second);
  expect(await tokenUnits(receiverTokens)).toBe(12_500_001n);
  expect(await tokenUnits(senderTokens)).toBe(before - 12_500_001n);
});

test('a wallet with solana:signTransaction only signs; the gateway sends', async ({ page, solanaSendPageUrl }) => {
  const wallet = await openPage(page, solanaSendPageUrl, { transactionFeatures: ['solana:signTransaction'] });
  const receiver = Keypair.generate().publicKey.toBase58();
  const gatewaySends: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/' && request.postData()?.includes('"sendTransaction"')) {
      gatewaySends.push(request.url());
    }
  });

  const signature = signatureOf(await send(page, { token: { type: 'native' }, amount: '0.5', receiver }));

  expect(wallet.requests).toContain('solana:signTransaction');
  expect(wallet.requests).not.toContain('solana:signAndSendTransaction');
  expect(gatewaySends).toHaveLength(1);
  await feeOf(signature);
  expect(await lamports(receiver)).toBe(500_000_000n);
});

test('a declined transaction is a rejection and moves nothing; a bad amount is refused before the wallet', async ({
  page,
  solanaSendPageUrl,
}) => {
  const wallet = await openPage(page, solanaSendPageUrl, { rejectTransaction: true });
  const receiver = Keypair.generate().publicKey.toBase58();
  const before = await lamports(wallet.address);

  expect(await send(page, { token: { type: 'native' }, amount: '1', receiver })).toEqual({
    error: { name: 'SolanaSendRejectedError', message: 'The wallet declined the transaction', code: 'SOLANA_SEND_REJECTED' },
  });
  expect(await send(page, { token: { type: 'native' }, amount: '', receiver })).toEqual({
    error: { name: 'LatchError', message: 'Please enter a valid amount and receiver address', code: 'INCOMPLETE_SEND_DRAFT' },
  });
  expect(wallet.requests.filter((r) => r.startsWith('solana:sign'))).toEqual(['solana:signAndSendTransaction']);
  expect(await lamports(receiver)).toBe(0n);
  expect(await lamports(wallet.address)).toBe(before);
});

/** Fills the Send view and confirms its preview. */
async function sendFromModal(page: Page, token: 'SOL' | 'USDC', amount: string, receiver: string) {
  await page.getByTestId('account-action-send').click();
  await expect(page.getByTestId('send-view')).toBeVisible();
  await page.getByTestId('send-token').selectOption({ label: token });
  await page.getByTestId('send-amount').fill(amount);
  await page.getByTestId('send-receiver').fill(receiver);
  await page.getByTestId('send-receiver').blur();
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('send-preview')).toContainText(`${amount} ${token}`);
  await page.getByTestId('send-submit').click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  // Behaviour 5.6: after a send the flow returns to Account.
  await expect(page.getByTestId('account-address')).toBeVisible();
}

test('the modal sends SOL, then USDC to an owner without a token account; the balances change on the devnet', async ({ page }) => {
  const { accounts, rpcUrl, caipNetworkId } = solana();
  const wallet = await installSolanaTestWallet(page, { account: accounts[3]!, rpcUrl, chains: [caipNetworkId] });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();
  await expect(page.getByTestId('account-balance')).toContainText('SOL');
  const receiver = Keypair.generate().publicKey.toBase58();
  const before = await lamports(wallet.address);

  await sendFromModal(page, 'SOL', '1.5', receiver);
  await expect.poll(() => lamports(receiver)).toBe(1_500_000_000n);
  expect(await lamports(wallet.address)).toBeLessThan(before - 1_500_000_000n);
  expect(wallet.requests).toContain('solana:signAndSendTransaction');

  const [senderTokens, receiverTokens] = [usdcAccount(wallet.address), usdcAccount(receiver)];
  const tokensBefore = await tokenUnits(senderTokens);
  await sendFromModal(page, 'USDC', '2.25', receiver);
  await expect.poll(() => tokenUnits(receiverTokens)).toBe(2_250_000n);
  expect(await tokenUnits(senderTokens)).toBe(tokensBefore - 2_250_000n);
});

test('a Solana send declined in the wallet gets its calm message in the modal and moves nothing', async ({ page }) => {
  const { accounts, rpcUrl, caipNetworkId } = solana();
  const wallet = await installSolanaTestWallet(page, { account: accounts[3]!, rpcUrl, chains: [caipNetworkId], rejectTransaction: true });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();
  await page.getByTestId('account-action-send').click();
  const receiver = Keypair.generate().publicKey.toBase58();
  await page.getByTestId('send-token').selectOption({ label: 'SOL' });
  await page.getByTestId('send-amount').fill('1');
  await page.getByTestId('send-receiver').fill(receiver);
  await page.getByTestId('send-submit').click();
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('send-error')).toBeVisible();
  await expect(page.getByTestId('send-error')).toHaveText('You declined the transaction in your wallet. Nothing was sent.');
  expect(wallet.requests.filter((r) => r.startsWith('solana:sign'))).toEqual(['solana:signAndSendTransaction']);
  expect(await lamports(receiver)).toBe(0n);
});
