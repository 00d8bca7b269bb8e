// Swap end to end: the modal's Swap view with the injected test wallet, against the real devnet
// pools and `latch` (quotes from the chain, approvals and swaps built by /v1/convert/*). Each test
// swaps from a fresh account funded here. Swaps move the devnet's pools, whose prices other specs
// assert (account.spec.ts): the devnet goes back to its state before this file when it is done.
import { expect, test, type Page } from '@playwright/test';
import { erc20Abi, parseEther, parseUnits, type Hex } from 'viem';
import { axeViolations } from '../fixtures/axe.js';
import { anvil, freshAccount, usdcAddress } from '../fixtures/devnet.js';
import { E2E_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

const contracts = readDevnet().contracts as Record<string, unknown>;
const usdc = usdcAddress();
const ltk = (contracts.ltk as { address: Hex }).address;
const weth = contracts.weth as Hex;
const router = contracts.uniswapV2Router as Hex;
const routerAbi = [
  {
    type: 'function',
    name: 'getAmountsOut',
    stateMutability: 'view',
    inputs: [{ type: 'uint256' }, { type: 'address[]' }],
    outputs: [{ type: 'uint256[]' }],
  },
] as const;

const balanceOf = (token: Hex, owner: Hex) => anvil.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
/** What the router itself says `amount` buys along `path` now. */
const routerQuote = async (amount: bigint, path: Hex[]) =>
  (await anvil.readContract({ address: router, abi: routerAbi, functionName: 'getAmountsOut', args: [amount, path] })).at(-1)!;
/** The integer part as the modal writes it (`1,478`), for amounts whose decimals it rounds. */
const whole = (amount: bigint, decimals: number) => (amount / 10n ** BigInt(decimals)).toLocaleString('en-US');

let beforeSwaps: Hex;
test.beforeAll(async () => {
  beforeSwaps = await anvil.snapshot();
});
test.afterAll(async () => {
  await anvil.revert({ id: beforeSwaps });
});

async function openSwap(page: Page, privateKey: Hex) {
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await page.getByTestId('account-action-swap').click();
  await expect(page.getByTestId('swap-view')).toBeVisible();
  await expect(page.getByTestId('swap-from-token')).not.toHaveValue('');
}

test('swaps ETH for USDC: the quote is the router’s, and the USDC lands on anvil and in the modal', async ({ page }) => {
  const trader = await freshAccount('2', '0');
  await openSwap(page, trader.privateKey);
  await expect(page.getByTestId('swap-from-token').locator('option:checked')).toHaveText('ETH');
  await page.getByTestId('swap-to-token').selectOption({ label: 'USDC' });
  await page.getByTestId('swap-amount').fill('0.5');
  const expected = await routerQuote(parseEther('0.5'), [weth, usdc]);
  await expect(page.getByTestId('swap-quote-amount')).toContainText(`${whole(expected, 6)}.`);
  await expect(page.getByTestId('swap-price-impact')).toContainText('%');
  await expect(page.getByTestId('swap-fee')).toContainText(/\$\d/);
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Swap view with a quote is axe-clean').toEqual([]);
  await page.getByTestId('swap-submit').click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await expect.poll(() => balanceOf(usdc, trader.address)).toBe(expected);
  await expect(page.getByTestId('token-USDC')).toContainText(`${whole(expected, 6)}.`);
});

test('swaps USDC for LTK through WETH: approve first, then the swap', async ({ page }) => {
  const trader = await freshAccount('1', '100');
  await openSwap(page, trader.privateKey);
  await page.getByTestId('swap-from-token').selectOption({ label: 'USDC' });
  await page.getByTestId('swap-to-token').selectOption({ label: 'LTK' });
  await page.getByTestId('swap-amount').fill('40');
  await expect(page.getByTestId('swap-quote')).toBeVisible();
  await page.getByTestId('swap-approve').click();
  await expect.poll(() => anvil.readContract({ address: usdc, abi: erc20Abi, functionName: 'allowance', args: [trader.address, router] })).toBe(
    parseUnits('40', 6),
  );
  // The allowance covers the amount now: the approve step gives way to the swap.
  await expect(page.getByTestId('swap-submit')).toBeEnabled();
  const expected = await routerQuote(parseUnits('40', 6), [usdc, weth, ltk]);
  await expect(page.getByTestId('swap-quote-amount')).toContainText(`${whole(expected, 18)}.`);
  await page.getByTestId('swap-submit').click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect.poll(() => balanceOf(ltk, trader.address)).toBe(expected);
  expect(await balanceOf(usdc, trader.address)).toBe(parseUnits('60', 6));
  await expect(page.getByTestId('token-LTK')).toContainText(`${whole(expected, 18)}.`);
  await expect(page.getByTestId('token-USDC')).toContainText('60.00 USDC');
});

test('explains an amount above the balance', async ({ page }) => {
  const trader = await freshAccount('1', '0');
  await openSwap(page, trader.privateKey);
  await page.getByTestId('swap-to-token').selectOption({ label: 'USDC' });
  await page.getByTestId('swap-amount').fill('5');
  await expect(page.getByTestId('swap-error')).toHaveText('Insufficient balance');
  await expect(page.getByTestId('swap-submit')).toBeDisabled();
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Swap error is axe-clean').toEqual([]);
});
