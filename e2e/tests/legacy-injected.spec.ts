// A legacy browser wallet: `window.ethereum` without EIP-6963 (behaviour 2.3) is offered as the
// "Browser Wallet" and connects; one that also announces itself is listed once, by its
// announcement; with neither, there is no such entry.
import { expect, test } from '@playwright/test';
import { E2E_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

const account = () => readDevnet().accounts[7]!;

test('a window.ethereum that does not announce is the Browser Wallet, and connects', async ({ page }) => {
  const { address, privateKey } = account();
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, legacyInjection: 'only' });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`)).toHaveCount(0);
  await page.getByTestId('wallet-selector-injected').click();
  await expect(page.getByTestId('account-address')).toHaveAttribute('title', address);
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31337:${address}`);
});

test('a wallet that announces and sets window.ethereum is listed once', async ({ page }) => {
  const { privateKey } = account();
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, legacyInjection: 'also' });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`)).toBeVisible();
  // Past the wait for announcing wallets: still no second entry for the same provider.
  await page.waitForTimeout(600);
  await expect(page.getByTestId('wallet-selector-injected')).toHaveCount(0);
});

test('without any browser wallet there is no Browser Wallet entry', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId('wallet-selector-walletconnect')).toBeVisible();
  await page.waitForTimeout(600);
  await expect(page.getByTestId('wallet-selector-injected')).toHaveCount(0);
});
