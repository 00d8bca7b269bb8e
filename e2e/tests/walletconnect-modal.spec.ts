// WalletConnect in the modal, end to end: the demo (its Rust engine from @latch/wasm-walletconnect
// in Chromium) pairs through the real `latch serve` relay with the official wallet client
// (@walletconnect/sign-client 2.21.8, Node, signing with a devnet key). The link is taken the way
// a person would: the modal's copy button.
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from '../fixtures/axe.js';
import { sessionCookie, verifyOnServer } from '../fixtures/siwx.js';
import { approveInDevWallet, officialWalletForEachTest, openDevWallet } from '../fixtures/wc-wallet.js';
/** The devnet account the official wallet client holds (anvil's account 1). */
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const wallet = officialWalletForEachTest();

/** Opens the plain QR code and returns the pairing link the copy button puts on the clipboard. */
async function copiedLink(page: Page): Promise<string> {
  await page.getByTestId('connect-button').click();
  await page.getByTestId('wallet-selector-walletconnect').click();
  await expect(page.getByRole('img', { name: 'QR code of the connection link' })).toBeVisible();
  await page.getByTestId('wc-copy').click();
  await expect(page.getByTestId('toast')).toHaveText('Link copied');
  return page.evaluate(() => navigator.clipboard.readText());
}

async function pair(page: Page) {
  const uri = await copiedLink(page);
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/);
  await wallet().run(`pair ${uri}`);
  await wallet().expect('approved');
}

test('pairs from the copied link, signs in, survives a reload and ends when the wallet disconnects', async ({
  page,
}) => {
  await page.goto('/?signIn=optional');
  const modal = page.getByTestId('latch-modal');
  await pair(page);
  expect(await axeViolations(modal), 'ConnectingWalletConnectBasic is axe-clean').toEqual([]);

  // Connected: the session's account on the devnet, then the sign-in is a personal_sign round
  // trip through the relay that the Latch server verifies.
  await expect(page.getByTestId('state-status')).toHaveText('connected');
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31337:${ADDRESS}`);
  // A WalletConnect wallet signs in on ConnectingSiwe (behaviour 4.4): the request goes to its app.
  await expect(page.getByTestId('connecting-siwe')).toContainText('have the app at hand');
  expect(await axeViolations(modal), 'ConnectingSiwe is axe-clean').toEqual([]);
  await page.getByTestId('siwx-sign').click();
  await expect(page.getByTestId('siwx-status')).toHaveText('authenticated');
  await expect(page.getByTestId('siwx-account')).toHaveText(`eip155:31337:${ADDRESS}`);
  await expect(modal).toBeHidden();
  const token = (await sessionCookie(page.context()))!.value;
  expect((await verifyOnServer(token)).status, 'the host backend sees the session').toBe(200);

  // A reload restores the persisted session: no new pairing, no new signature.
  await page.reload();
  await expect(page.getByTestId('state-status')).toHaveText('connected');
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31337:${ADDRESS}`);
  await expect(page.getByTestId('siwx-status')).toHaveText('authenticated');
  await expect(modal).toBeHidden();

  // The wallet ends the session: the page is disconnected (and signed out on the server), and the
  // modal offers Connect again.
  await wallet().run('delete');
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
  await expect.poll(async () => (await verifyOnServer(token)).status).toBe(401);
  await page.getByTestId('connect-button').click();
  await expect(page.getByRole('dialog', { name: 'Connect a wallet' })).toBeVisible();
});

test('required sign-in on ConnectingSiwe cannot be closed; Cancel disconnects and ends the session at the wallet', async ({
  page,
}) => {
  await page.goto('/?signIn=required');
  await pair(page);
  const modal = page.getByTestId('latch-modal');
  await expect(page.getByTestId('connecting-siwe')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modal).toHaveAttribute('data-shake', 'true');
  await page.getByTestId('modal-close').click();
  await expect(page.getByTestId('connecting-siwe')).toBeVisible();
  await expect(page.getByTestId('state-status')).toHaveText('connected');

  await page.getByTestId('siwx-cancel').click();
  await expect(modal).toBeHidden();
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
  await wallet().expect('deleted');
});

test('a disconnect in the modal ends the session at the wallet', async ({ page }) => {
  await page.goto('/');
  await pair(page);
  await expect(page.getByTestId('account-address')).toBeVisible();
  await page.getByTestId('account-disconnect').click();
  await wallet().expect('deleted');
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
  // Nothing is restored on reload.
  await page.reload();
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
});

test('a wallet chosen from the catalogue shows its QR code and its downloads', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId('all-wallets').click();
  await page.getByTestId('all-wallets-search').fill('rainbow');
  await page.getByTestId('all-wallets-item-rainbow').click();
  const view = page.getByTestId('connecting-walletconnect');
  await expect(view).toContainText('Scan this code with Rainbow on your phone.');
  await expect(view.getByRole('img', { name: 'QR code of the connection link' })).toBeVisible();
  expect(await axeViolations(page.getByTestId('latch-modal')), 'ConnectingWalletConnect is axe-clean').toEqual([]);
  await page.getByTestId('wc-get-wallet').click();
  await expect(page.getByRole('dialog', { name: 'Get a wallet' })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' });

  test("a wallet's deep link carries the pairing link to its app", async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('connect-button').click();
    await page.getByTestId('wallet-selector-rainbow').click();
    const open = page.getByTestId('wc-open-app');
    await expect(open).toHaveText('Open Rainbow');
    await page.getByTestId('wc-copy').click();
    const uri = await page.evaluate(() => navigator.clipboard.readText());
    await expect(open).toHaveAttribute('href', `rainbow://wc?uri=${encodeURIComponent(uri)}`);
  });
});

test('the demo pairs with the dev wallet in a second tab, follows its chain and its disconnect', async ({
  page,
  context,
}) => {
  const devWallet = await openDevWallet(context);

  await page.goto('/');
  await approveInDevWallet(devWallet, await copiedLink(page));
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31337:${ADDRESS}`);
  await expect(page.getByTestId('state-balance')).not.toHaveText('—');

  // The wallet moves to the devnet's second chain: the page follows (chainChanged through the relay).
  await devWallet.getByLabel('Switch to').selectOption('eip155:31338');
  await devWallet.getByRole('button', { name: 'Switch chain' }).click();
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31338:${ADDRESS}`);

  await devWallet
    .getByRole('listitem', { name: 'Session with Latch demo' })
    .getByRole('button', { name: 'Disconnect' })
    .click();
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
});
