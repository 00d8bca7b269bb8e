// The Receive view end to end: the demo on the real devnet and `latch`, the injected test wallet
// (and a Wallet Standard Solana wallet), the QR code read back from a screenshot of what Chromium
// drew with jsQR (Apache-2.0, tests only), the copy button through the real clipboard.
import { expect, test, type Locator, type Page } from '@playwright/test';
import jsqr from 'jsqr';
import { axeViolations } from '../fixtures/axe.js';
import { installSolanaTestWallet, SOLANA_TEST_WALLET_SELECTOR } from '../fixtures/solana-wallet.js';
import { E2E_RPC_URL, readDevnet, readSolanaDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

// jsqr is CommonJS: its function is `module.exports`, also exported as `default`, which TypeScript types.
const jsQR = jsqr.default;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** The demo's networks (apps/demo/src/main.tsx), by namespace. */
const EVM_NETWORKS = ['eip155:31337', 'eip155:31338'];

/** Reads the QR code as the page shows it: a screenshot, decoded to pixels by the browser, read by jsQR. */
async function readQr(page: Page, qr: Locator): Promise<string | undefined> {
  const png = (await qr.screenshot()).toString('base64');
  const { width, height, data } = await page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return { width: pixels.width, height: pixels.height, data: Array.from(pixels.data) };
  }, png);
  return jsQR(Uint8ClampedArray.from(data), width, height)?.data;
}

async function openReceive(page: Page) {
  await page.getByTestId('account-action-receive').click();
  const view = page.getByTestId('receive-view');
  await expect(view).toBeVisible();
  await expect(page.getByTestId('receive-qr')).toHaveAttribute('aria-busy', 'false');
  return view;
}

test('an EVM account: the QR code reads back as the address, copy puts it on the clipboard', async ({ page }) => {
  const { address, privateKey } = readDevnet().accounts[1]!;
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();

  // Buy, Swap, Receive and Send are on by default and supported on eip155, in the documented order.
  const actions = page.getByRole('group', { name: 'Wallet actions' }).getByRole('button');
  await expect(actions).toHaveText(['Buy', 'Swap', 'Receive', 'Send']);
  const modal = page.getByTestId('latch-modal');
  expect(await axeViolations(modal), 'Account view with its actions is axe-clean').toEqual([]);

  await openReceive(page);
  await expect(page.getByTestId('receive-address')).toHaveText(address);
  const qr = page.getByTestId('receive-qr');
  await expect(qr.getByRole('img', { name: `QR code of the address ${address}` })).toBeVisible();
  expect(await readQr(page, qr)).toBe(address);
  await expect(page.getByTestId('receive-network')).toHaveText('Connected on Latch Devnet');
  const listed = page.getByTestId('receive-networks').getByRole('listitem');
  await expect(listed).toHaveText(['Latch Devnet', 'Latch Devnet B']);
  for (const id of EVM_NETWORKS) await expect(page.getByTestId(`receive-network-${id}`)).toBeVisible();
  await expect(page.getByRole('note')).toContainText('Only send EVM assets');
  expect(await axeViolations(modal), 'Receive view is axe-clean').toEqual([]);

  await page.getByTestId('receive-copy').click();
  await expect(page.getByTestId('toast')).toContainText('Address copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

  // Back returns to Account.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
});

test('a Solana account: the QR code reads back as the base58 address; only Solana networks can send to it', async ({ page }) => {
  const { caipNetworkId, accounts } = readSolanaDevnet();
  const account = accounts[1]!;
  await installSolanaTestWallet(page, { account });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(SOLANA_TEST_WALLET_SELECTOR).click();
  await expect(page.getByTestId('account-address')).toHaveAttribute('title', account.address);

  await openReceive(page);
  await expect(page.getByTestId('receive-address')).toHaveText(account.address);
  expect(await readQr(page, page.getByTestId('receive-qr'))).toBe(account.address);
  await expect(page.getByTestId('receive-networks').getByRole('listitem')).toHaveText(['Latch Solana Devnet']);
  await expect(page.getByTestId(`receive-network-${caipNetworkId}`)).toHaveAttribute('aria-current', 'true');
  for (const id of EVM_NETWORKS) await expect(page.getByTestId(`receive-network-${id}`)).toHaveCount(0);
  await expect(page.getByRole('note')).toContainText('Only send Solana assets');
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Receive view for a Solana account is axe-clean').toEqual([]);
});
