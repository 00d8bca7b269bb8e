// Buy end to end: the demo on the real devnet and `latch --dev`, whose built-in sandbox provider
// serves the checkout page; confirming it sends devnet ETH from anvil's account #9 to a fresh
// account, which the modal then shows in its balance and, marked as a purchase, in Activity.
import { expect, test, type Page } from '@playwright/test';
import { generatePrivateKey } from 'viem/accounts';
import { axeViolations } from '../fixtures/axe.js';
import { E2E_RPC_URL } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

async function openBuy(page: Page) {
  // A fresh account each time: nothing but the purchase ever reaches it.
  await installTestWallet(page, { privateKey: generatePrivateKey(), rpcUrl: E2E_RPC_URL });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await expect(page.getByTestId('account-balance')).toContainText('ETH');
  const before = await page.getByTestId('account-balance').textContent();
  await page.getByTestId('account-action-buy').click();
  await expect(page.getByTestId('buy-view')).toBeVisible();
  await expect(page.getByTestId('buy-asset')).toHaveValue('ETH');
  await expect(page.getByTestId('buy-network')).toHaveValue('eip155:31337');
  return before;
}

test('amounts outside the limits say so, and the view is axe-clean', async ({ page }) => {
  await openBuy(page);
  await page.getByTestId('buy-amount').fill('5');
  await expect(page.getByTestId('buy-error')).toHaveText('The smallest amount is 10.00 USD');
  await expect(page.getByTestId('buy-submit')).toBeDisabled();
  await page.getByTestId('buy-amount').fill('7500.01');
  await expect(page.getByTestId('buy-error')).toHaveText('The largest amount is 7500.00 USD');
  // A bank transfer allows more than a card.
  await page.getByTestId('buy-method').selectOption('ACH_BANK_ACCOUNT');
  await expect(page.getByTestId('buy-error')).toHaveCount(0);
  await expect(page.getByTestId('buy-quote')).toContainText('7,500.01 USD');
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Buy view with a quote is axe-clean').toEqual([]);
});

test('the sandbox checkout delivers ETH: the balance grows and Activity marks the purchase', async ({ page }) => {
  const before = await openBuy(page);
  await page.getByTestId('buy-amount').fill('25');
  await expect(page.getByTestId('buy-quote')).toContainText('ETH');
  await expect(page.getByTestId('buy-quote')).toContainText('25.00 USD');
  const popupOpened = page.waitForEvent('popup');
  await page.getByTestId('buy-submit').click();
  const popup = await popupOpened;
  await expect(popup.getByTestId('sandbox-notice')).toContainText('Test purchase');
  await expect(popup.getByTestId('sandbox-amount')).toHaveValue('25.00');
  await popup.getByTestId('sandbox-confirm').click();
  await expect(popup.getByTestId('sandbox-done')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('buy-following')).toBeVisible();
  await popup.close();
  await expect(page.getByTestId('buy-following')).toHaveCount(0);

  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByTestId('account-balance')).not.toHaveText(before ?? '');
  await page.getByRole('tab', { name: 'Activity' }).click();
  const purchase = page.locator('[data-testid="activity-row"][data-purchase="true"]');
  await expect(purchase).toHaveCount(1, { timeout: 15_000 });
  await expect(purchase).toContainText('Purchase');
  await expect(purchase).toContainText('ETH');
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Activity with a purchase is axe-clean').toEqual([]);
});

test('closing the checkout without buying leaves the modal usable', async ({ page }) => {
  await openBuy(page);
  await page.getByTestId('buy-amount').fill('20');
  await expect(page.getByTestId('buy-submit')).toBeEnabled();
  const popupOpened = page.waitForEvent('popup');
  await page.getByTestId('buy-submit').click();
  const popup = await popupOpened;
  await expect(popup.getByTestId('sandbox-confirm')).toBeVisible();
  await popup.close();
  await expect(page.getByTestId('buy-following')).toHaveCount(0);
  await page.getByTestId('buy-amount').fill('30');
  await expect(page.getByTestId('buy-quote')).toContainText('30.00 USD');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
});
