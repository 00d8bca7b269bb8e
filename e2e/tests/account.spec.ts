// The Account view's data end to end: balances priced from the devnet's Uniswap pools, the
// ENS identity of account #0, and activity read by latch's indexer, all through the real server.
import { expect, test } from '@playwright/test';
import { E2E_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { axeViolations } from '../fixtures/axe.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

async function connectAs(page: import('@playwright/test').Page, index: number) {
  const { privateKey } = readDevnet().accounts[index]!;
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
}

test('Tokens shows the fixture balances priced from the devnet pools', async ({ page }) => {
  await connectAs(page, 1);
  const usdc = page.getByTestId('token-USDC');
  await expect(usdc).toContainText('10,000.00 USDC');
  await expect(usdc).toContainText('$10,000.00');
  const ltk = page.getByTestId('token-LTK');
  await expect(ltk).toContainText('10,000.00 LTK');
  await expect(ltk).toContainText('$5,000.00'); // 1 LTK = 0.5 USDC through WETH
  await expect(page.getByTestId('token-ETH')).toContainText('ETH');
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Tokens tab is axe-clean').toEqual([]);
});

test('Activity lists the transfers latch indexed, grouped by month', async ({ page }) => {
  await connectAs(page, 1);
  await page.getByRole('tab', { name: 'Activity' }).click();
  const rows = page.getByTestId('activity-row');
  // #1 received its USDC and LTK during the fixture deployment.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Received');
  await expect(rows.nth(0)).toContainText('+10,000.000 LTK');
  await expect(rows.nth(1)).toContainText('+10,000.000 USDC');
  await expect(page.getByRole('heading', { level: 3 }).first()).toBeVisible();
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Activity tab is axe-clean').toEqual([]);
});

test('NFTs shows the fixture NFT with the image its metadata names', async ({ page }) => {
  await connectAs(page, 0);
  await page.getByRole('tab', { name: 'NFTs' }).click();
  const nfts = page.getByTestId('account-nfts');
  await expect(nfts).toContainText('Latch Punks #0');
  // latch read tokenURI from the contract, fetched the metadata there and passed its image on.
  await expect(nfts.getByTestId('nft-image')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  expect(await axeViolations(page.getByTestId('latch-modal')), 'NFTs tab is axe-clean').toEqual([]);
});

test('the account shows its ENS name from the devnet registry', async ({ page }) => {
  await connectAs(page, 0);
  await expect(page.getByTestId('account-name')).toHaveText('latch-dev.eth');
  await expect(page.getByTestId('account-avatar')).toHaveAttribute('src', 'https://127.0.0.1:8787/avatar/latch-dev.png');
});
