// Behaviour 6.2: the server's refusals reach the modal as the documented alerts. The page runs with a
// project that does not exist (401) and with one whose allowlist excludes this origin (403).
import { expect, test } from '@playwright/test';
import { E2E_RPC_URL, latchCommand, readDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

test.beforeAll(() => {
  latchCommand('project', 'add', '--id', 'elsewhere', '--origin', 'https://elsewhere.example');
});

for (const [project, alert] of [
  ['unknown-project', 'Invalid Project ID'],
  ['elsewhere', 'Invalid App Configuration'],
] as const) {
  test(`project ${project}: the Account view shows "${alert}"`, async ({ page }) => {
    await installTestWallet(page, { privateKey: readDevnet().accounts[3]!.privateKey, rpcUrl: E2E_RPC_URL });
    await page.goto(`/?projectId=${project}`);
    await page.getByTestId('connect-button').click();
    await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
    await expect(page.getByTestId('account-address')).toBeVisible();
    await expect(page.getByTestId('account-balance').getByRole('alert')).toHaveText(alert);
  });
}
