// Solana wallets in the modal, end to end: the demo configured with the local Solana devnet, a
// Wallet Standard wallet registered in the page (signing in Node with a devnet fixture key), the
// real `latch` server reading the balance through its gateway from the real Solana devnet and
// verifying the CAIP-122 sign-in (ed25519).
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from '../fixtures/axe.js';
import { sessionCookie, sessionOnServer, verifyOnServer } from '../fixtures/siwx.js';
import {
  installSolanaTestWallet,
  SOLANA_TEST_WALLET_NAME,
  SOLANA_TEST_WALLET_SELECTOR,
} from '../fixtures/solana-wallet.js';
import { lamportsOf } from '../fixtures/solana-devnet.js';
import { E2E_SERVER_URL, readSolanaDevnet } from '../fixtures/stack.js';

const solana = () => readSolanaDevnet();

/** The oracle for the displayed balance, read from the devnet directly: lamports floored to 3 decimals. */
async function expectedBalance(address: string) {
  const lamports = await lamportsOf(address);
  const milli = (lamports % 1_000_000_000n) / 1_000_000n;
  return `${lamports / 1_000_000_000n}.${String(milli).padStart(3, '0')} SOL`;
}

test('connects a Wallet Standard Solana wallet: Account shows the base58 address and its devnet balance', async ({ page }, testInfo) => {
  const { caipNetworkId, accounts } = solana();
  const account = accounts[1]!;
  const wallet = await installSolanaTestWallet(page, { account });
  const gatewayCalls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/v1/') gatewayCalls.push(url.searchParams.get('chainId') ?? '');
  });

  await page.goto('/');
  await page.getByTestId('connect-button').click();
  const modal = page.getByTestId('latch-modal');
  const row = page.getByTestId(SOLANA_TEST_WALLET_SELECTOR);
  await expect(row).toBeVisible();
  await expect(row).toContainText(SOLANA_TEST_WALLET_NAME);
  await expect(row).toContainText('Solana');
  expect(await axeViolations(modal), 'Connect view with a Solana wallet is axe-clean').toEqual([]);

  await row.click();
  await expect(page.getByTestId('account-address')).toHaveText(`${account.address.slice(0, 4)}...${account.address.slice(-6)}`);
  await expect(page.getByTestId('account-address')).toHaveAttribute('title', account.address);
  await expect(page.getByTestId('account-balance')).toHaveText(await expectedBalance(account.address));
  await expect(page.getByTestId('account-balance')).toHaveText('1000.000 SOL');
  await expect(page.getByTestId('state-caip-address')).toHaveText(`${caipNetworkId}:${account.address}`);
  await expect(page.getByTestId('state-balance')).toHaveText('1000 SOL');
  expect(gatewayCalls).toContain(caipNetworkId);
  expect(wallet.requests).toEqual(['standard:connect']);
  // Tokens come from the server's chain data for the Solana chain: SOL and the fixture USDC.
  await expect(page.getByTestId('token-SOL')).toContainText('1,000.00 SOL');
  await expect(page.getByTestId('token-USDC')).toContainText('10,000.00 USDC');
  expect(await axeViolations(modal), 'Account view for a Solana account is axe-clean').toEqual([]);
  await modal.screenshot({ path: testInfo.outputPath('solana-account-dark.png') });

  // The network picker offers Solana networks only, and says why.
  await page.getByTestId('account-network').click();
  const picker = page.getByTestId('network-picker');
  await expect(picker.getByRole('button')).toHaveCount(1);
  await expect(page.getByTestId(`network-${caipNetworkId}`)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('networks-other-namespace')).toHaveText(
    'Networks of other chains are hidden: this wallet connects to Solana networks only.',
  );
  expect(await axeViolations(modal), 'Networks view for a Solana account is axe-clean').toEqual([]);

  // A reload reconnects without a prompt (`standard:connect` with `silent`).
  await page.reload();
  await expect(page.getByTestId('state-status')).toHaveText('connected');
  await expect(page.getByTestId('state-caip-address')).toHaveText(`${caipNetworkId}:${account.address}`);
  await expect(modal).toBeHidden();
  expect(wallet.requests).toEqual(['standard:connect', 'standard:connect (silent)']);

  // Disconnecting ends it at the wallet (`standard:disconnect`): the next reload stays disconnected.
  await page.getByTestId('connect-button').click();
  await page.getByTestId('account-disconnect').click();
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
  expect(wallet.requests.at(-1)).toBe('standard:disconnect');
  await page.reload();
  await page.waitForTimeout(1_200);
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
});

test('opening for Solana lists the Solana wallets only (behaviour 1.4 namespace filter)', async ({ page }) => {
  const { accounts } = solana();
  await installSolanaTestWallet(page, { account: accounts[1]! });
  await page.goto('/');
  await page.getByTestId('connect-solana').click();
  await expect(page.getByTestId(SOLANA_TEST_WALLET_SELECTOR)).toBeVisible();
  await expect(page.getByTestId('wallet-selector-walletconnect')).toHaveCount(0);
  await expect(page.getByTestId('all-wallets')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Wallets' }).getByRole('listitem')).toHaveCount(1);
  // The usual button offers every wallet again.
  await page.keyboard.press('Escape');
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId('wallet-selector-walletconnect')).toBeVisible();
  await expect(page.getByTestId('all-wallets')).toBeVisible();
});

test('revoking the site in the wallet (standard:events change, no accounts) disconnects the page', async ({ page }) => {
  const wallet = await installSolanaTestWallet(page, { account: solana().accounts[3]! });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();
  await expect(page.getByTestId('state-status')).toHaveText('connected');
  await wallet.revoke();
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
  await expect(page.getByTestId('state-caip-address')).toHaveText('—');
  // Forgotten: a reload does not reconnect.
  await page.reload();
  await page.waitForTimeout(1_200);
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
});

test('the Connect and Account views with a Solana wallet are axe-clean in the light theme', async ({ page }) => {
  await installSolanaTestWallet(page, { account: solana().accounts[1]! });
  await page.goto('/?theme=light');
  await page.getByTestId('connect-button').click();
  const modal = page.getByTestId('latch-modal');
  await expect(page.getByTestId(SOLANA_TEST_WALLET_SELECTOR)).toBeVisible();
  expect(await axeViolations(modal), 'Connect view (light)').toEqual([]);
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();
  await expect(page.getByTestId('account-balance')).toHaveText('1000.000 SOL');
  expect(await axeViolations(modal), 'Account view (light)').toEqual([]);
});

test('signs in with a Solana wallet: the server verifies the ed25519 signature, a reload keeps the session, signing out revokes it', async ({
  page,
}) => {
  const { caipNetworkId, accounts } = solana();
  const account = accounts[2]!;
  const wallet = await installSolanaTestWallet(page, { account });
  await page.goto('/?signIn=optional');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();

  const modal = page.getByTestId('latch-modal');
  await expect(page.getByTestId('siwx-sign-message')).toBeVisible();
  expect(await axeViolations(modal), 'SIWXSignMessage for a Solana account is axe-clean').toEqual([]);
  await page.getByTestId('siwx-sign').click();

  await expect(modal).toBeHidden();
  await expect(page.getByTestId('siwx-status')).toHaveText('authenticated');
  await expect(page.getByTestId('siwx-account')).toHaveText(`${caipNetworkId}:${account.address}`);
  expect(wallet.requests.filter((feature) => feature === 'solana:signMessage')).toHaveLength(1);

  // The host's backend checks the token: the session is the Solana account's, on a CAIP-122 message.
  const token = (await sessionCookie(page.context()))!.value;
  const verified = await verifyOnServer(token);
  expect(verified.status).toBe(200);
  expect(verified.body.session?.account).toBe(`${caipNetworkId}:${account.address}`);
  const own = await sessionOnServer(token);
  expect(own.body.session?.message).toContain(
    `${new URL(E2E_SERVER_URL).host} wants you to sign in with your Solana account:\n${account.address}`,
  );
  expect(own.body.session?.message).toContain(`Chain ID: ${caipNetworkId.slice('solana:'.length)}`);

  // A reload reconnects silently and finds the session: no second signature.
  await page.reload();
  await expect(page.getByTestId('state-status')).toHaveText('connected');
  await expect(page.getByTestId('siwx-status')).toHaveText('authenticated');
  await expect(modal).toBeHidden();
  expect(wallet.requests.filter((feature) => feature === 'solana:signMessage')).toHaveLength(1);

  // Signing out revokes it on the server.
  await page.getByTestId('siwx-sign-out').click();
  await expect(page.getByTestId('siwx-status')).toHaveText('unauthenticated');
  expect((await verifyOnServer(token)).status).toBe(401);
  expect(await sessionCookie(page.context())).toBeUndefined();
});

test('a declined Solana signature shows Signature declined and keeps the sign-in open', async ({ page }) => {
  await installSolanaTestWallet(page, { account: solana().accounts[2]!, rejectSign: true });
  await page.goto('/?signIn=optional');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();
  await page.getByTestId('siwx-sign').click();
  await expect(page.getByTestId('toast')).toHaveText('Signature declined');
  await expect(page.getByTestId('siwx-error')).toHaveText('Signature declined');
  await expect(page.getByTestId('siwx-status')).toHaveText('unauthenticated');
});
