// @latch/solana end to end: the Solana example (apps/solana-example), a @solana/web3.js app holding
// the @solana/wallet-adapter-base adapter, connects through the Latch modal with the Wallet Standard
// test wallet, signs a message (verified here, ed25519 from node:crypto) and sends SOL with
// `adapter.sendTransaction(SystemProgram.transfer(…), connection)` on the real Solana devnet (the
// receiver's balance read from the devnet node); disconnecting on either side, the other follows.
import { createPublicKey, verify } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { axeViolations } from '../fixtures/axe.js';
import { installSolanaTestWallet, SOLANA_TEST_WALLET_NAME, SOLANA_TEST_WALLET_SELECTOR } from '../fixtures/solana-wallet.js';
import { lamportsOf, solanaRpc } from '../fixtures/solana-devnet.js';
import { readSolanaDevnet } from '../fixtures/stack.js';

const PATH = '/solana-example/';
const MESSAGE = 'Hello from web3.js';
const BASE58_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{86,88}$/;
// RFC 8410 SPKI prefix of a raw 32-byte ed25519 public key.
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

const devnetBalance = async (address: string) => Number(await lamportsOf(address));

/** The names of the Wallet Standard wallets registered in the page, as an app discovering them sees them. */
function standardWalletNames(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const names: string[] = [];
    const api = { register: (...wallets: { name: string }[]) => (wallets.forEach(({ name }) => names.push(name)), () => undefined) };
    window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }));
    return names;
  });
}

test('a web3.js app connects, signs and sends SOL through the Latch adapter, and disconnect follows both ways', async ({ page }) => {
  const { caipNetworkId, rpcUrl, accounts } = readSolanaDevnet();
  const account = accounts[2]!;
  const wallet = await installSolanaTestWallet(page, { account, rpcUrl, chains: [caipNetworkId] });
  await page.goto(PATH);
  await expect(page.getByTestId('solana-status')).toHaveText('Not connected');

  // The adapter's connect() opens the Latch modal on its Solana wallets; "Latch" itself is not one.
  await page.getByTestId('solana-connect-button').click();
  const modal = page.getByTestId('latch-modal');
  await expect(page.getByTestId(SOLANA_TEST_WALLET_SELECTOR)).toBeVisible();
  await expect(page.getByTestId('wallet-selector-wallet-standard:Latch')).toHaveCount(0);
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();
  // connect() resolved: the page shows the adapter's publicKey (behind the modal, on its Account view).
  await expect(page.getByTestId('solana-address')).toHaveText(account.address);
  await expect(page.getByTestId('account-address')).toHaveAttribute('title', account.address);
  await page.getByTestId('modal-close').click();
  await expect(modal).toBeHidden();
  await expect(page.getByTestId('solana-adapter')).toHaveText('Latch');
  expect(await axeViolations(page.locator('main')), 'the example page is axe-clean').toEqual([]);
  // Wallet Standard apps see the Latch wallet (registerLatchStandardWallet) beside the real one.
  expect((await standardWalletNames(page)).sort()).toEqual(['Latch', SOLANA_TEST_WALLET_NAME].sort());

  // signMessage: an ed25519 signature by the account, checked against its public key.
  await page.getByTestId('solana-sign-button').click();
  await expect(page.getByTestId('solana-sign')).toHaveText(/^[0-9a-f]{128}$/);
  const signature = Buffer.from((await page.getByTestId('solana-sign').textContent())!, 'hex');
  const publicKey = createPublicKey({
    key: Buffer.concat([SPKI_ED25519, new PublicKey(account.address).toBuffer()]),
    format: 'der',
    type: 'spki',
  });
  expect(verify(null, Buffer.from(MESSAGE), publicKey, signature)).toBe(true);
  expect(verify(null, Buffer.from('another message'), publicKey, signature)).toBe(false);

  // sendTransaction: the wallet signs and sends it to the Latch network's chain; the devnet has it.
  const receiver = Keypair.generate().publicKey.toBase58();
  const before = await devnetBalance(account.address);
  await page.getByTestId('solana-receiver').fill(receiver);
  await page.getByTestId('solana-send-button').click();
  await expect(page.getByTestId('solana-send')).toHaveText(BASE58_SIGNATURE);
  await expect.poll(() => devnetBalance(receiver)).toBe(LAMPORTS_PER_SOL / 4);
  // The signature the adapter returned is the chain's transaction: the sender paid amount and fee.
  const sent = await solanaRpc<{ meta: { fee: number; err: unknown } } | null>('getTransaction', [
    await page.getByTestId('solana-send').textContent(),
    { encoding: 'json', commitment: 'confirmed' },
  ]);
  expect(sent?.meta.err).toBeNull();
  expect(before - (await devnetBalance(account.address))).toBe(LAMPORTS_PER_SOL / 4 + sent!.meta.fee);
  expect(wallet.requests).toEqual(['standard:connect', 'solana:signMessage', 'solana:signAndSendTransaction']);
  expect(wallet.transactionChains).toEqual([caipNetworkId]);

  // A reload: Latch restores the wallet without a prompt and the adapter follows (its connect event).
  await page.reload();
  await expect(page.getByTestId('solana-address')).toHaveText(account.address);
  expect(wallet.requests.at(-1)).toBe('standard:connect (silent)');

  // The adapter's disconnect ends the Latch connection: the modal opens on the wallet list again.
  await page.getByTestId('solana-disconnect-button').click();
  await expect(page.getByTestId('solana-status')).toHaveText('Not connected');
  expect(wallet.requests.at(-1)).toBe('standard:disconnect');
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId(SOLANA_TEST_WALLET_SELECTOR)).toBeVisible();

  // Connecting in the modal connects the adapter too, and the modal's disconnect reaches it.
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();
  await expect(page.getByTestId('solana-address')).toHaveText(account.address);
  await page.getByTestId('account-disconnect').click();
  await expect(page.getByTestId('solana-status')).toHaveText('Not connected');
});

test('closing the modal without connecting rejects the adapter connect with WalletConnectionError', async ({ page }) => {
  const { caipNetworkId, rpcUrl, accounts } = readSolanaDevnet();
  await installSolanaTestWallet(page, { account: accounts[3]!, rpcUrl, chains: [caipNetworkId] });
  await page.goto(PATH);
  await page.getByTestId('solana-connect-button').click();
  await expect(page.getByTestId(SOLANA_TEST_WALLET_SELECTOR)).toBeVisible();
  await page.getByTestId('modal-close').click();
  await expect(page.getByTestId('solana-connect')).toHaveText(
    'WalletConnectionError: The Latch modal was closed before a Solana wallet connected',
  );
  await expect(page.getByTestId('solana-status')).toHaveText('Not connected');
});
