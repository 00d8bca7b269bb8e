// The analytics loop end to end: the modal in Chromium reports its events to the real `latch`,
// which stores them, and the dashboard page shows them.
import { expect, test } from '@playwright/test';
import { E2E_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { axeViolations } from '../fixtures/axe.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

/** The token `latch serve --dev` uses (crates/latch-server config DEV_ADMIN_TOKEN). */
const DEV_ADMIN_TOKEN = 'latch-dev-admin';

test('the dashboard shows the opens and connections the modal just reported', async ({ page }, testInfo) => {
  const { privateKey } = readDevnet().accounts[2]!;
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL });
  const reported: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/e') reported.push(JSON.parse(request.postData() ?? '{}').props?.event);
  });

  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId('all-wallets').click();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await expect
    .poll(() => reported)
    .toEqual(expect.arrayContaining(['INITIALIZE', 'MODAL_OPEN', 'CLICK_ALL_WALLETS', 'SELECT_WALLET', 'CONNECT_SUCCESS']));

  await page.goto('/dashboard');
  await page.getByTestId('dashboard-token').fill('wrong-token-value');
  await page.getByTestId('dashboard-login').click();
  await expect(page.getByRole('alert')).toHaveText('That token is not valid.');
  await page.getByTestId('dashboard-token').fill(DEV_ADMIN_TOKEN);
  await page.getByTestId('dashboard-login').click();
  await page.getByTestId('dashboard-project').selectOption('demo');

  const connects = page.getByTestId('kpi-connects');
  await expect(connects).not.toHaveText('–');
  expect(Number(await connects.textContent())).toBeGreaterThanOrEqual(1);
  expect(Number(await page.getByTestId('kpi-opens').textContent())).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('by-wallet')).toContainText('Latch Test Wallet');
  await expect(page.getByTestId('by-connector')).toContainText('ANNOUNCED');
  expect(await axeViolations(page.locator('body')), 'the dashboard is axe-clean').toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('dashboard.png'), fullPage: true });
});
