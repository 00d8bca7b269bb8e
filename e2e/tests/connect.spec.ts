// The first vertical slice, end to end: a real browser, the demo built from
// @latch/react + @latch/wasm, a real `latch` server and a real anvil devnet.
import { expect, test } from '@playwright/test';
import { createPublicClient, formatEther, http } from 'viem';
import { foundry } from 'viem/chains';
import { E2E_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { axeViolations } from '../fixtures/axe.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

const devnet = () => readDevnet();
const accountOne = () => devnet().accounts[1]!;

/** The oracle for the displayed balance, computed independently of latch-core: floor to 3 decimals. */
async function expectedBalance(address: `0x${string}`) {
  const wei = await createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) }).getBalance({ address });
  const [whole, fraction = ''] = formatEther(wei).split('.');
  return `${whole}.${fraction.padEnd(3, '0').slice(0, 3)} ETH`;
}

test('connects an EIP-6963 wallet and shows its address and balance read through the gateway', async ({ page }, testInfo) => {
  const { address, privateKey } = accountOne();
  const wallet = await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL });
  const gatewayCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1')) gatewayCalls.push(request.url());
  });

  await page.goto('/');
  await page.getByTestId('connect-button').click();
  const modal = page.getByTestId('latch-modal');
  await expect(modal).toBeVisible();
  await expect(modal).toHaveAttribute('role', 'dialog');
  await expect(modal).toHaveAttribute('aria-modal', 'true');
  await expect(modal).toHaveCSS('width', '360px');
  await expect(page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`)).toBeVisible();
  expect(await axeViolations(modal), 'Connect view is axe-clean').toEqual([]);

  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();

  const truncated = `${address.slice(0, 4)}...${address.slice(-6)}`;
  await expect(page.getByTestId('account-address')).toHaveText(truncated);
  await expect(page.getByTestId('account-balance')).toHaveText(await expectedBalance(address));
  expect(truncated).toBe('0x70...dc79C8');
  expect(wallet.requests).toContain('eth_requestAccounts');
  expect(gatewayCalls.some((url) => url.includes('chainId=eip155%3A31337') || url.includes('chainId=eip155:31337'))).toBe(true);
  expect(gatewayCalls.every((url) => url.includes('projectId=demo'))).toBe(true);

  expect(await axeViolations(modal), 'Account view is axe-clean').toEqual([]);
  await modal.screenshot({ path: testInfo.outputPath('connected-modal.png') });
  await page.screenshot({ path: testInfo.outputPath('connected-page.png') });

  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expect(page.getByTestId('connect-button')).toContainText(truncated);
});

test('a wallet that refuses the connection leaves the visitor on Connect with a message', async ({ page }) => {
  const { privateKey } = accountOne();
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, rejectConnect: true });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`)).toBeVisible();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByTestId('account-address')).toHaveCount(0);
  await page.getByTestId('modal-close').click();
  await expect(page.getByTestId('latch-modal')).toBeHidden();
});
