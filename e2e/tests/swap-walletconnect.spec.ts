// Swap through WalletConnect: the modal pairs with the dev wallet (apps/devwallet) in a second tab
// over the real `latch serve` relay; the Swap view's transaction is approved there and lands on
// the devnet. Swaps move the devnet's pools, whose prices other specs assert (account.spec.ts):
// the devnet goes back to its state before this file when it is done.
import { expect, test } from '@playwright/test';
import { parseEther, type Hex } from 'viem';
import { anvil, usdcAddress, usdcOf } from '../fixtures/devnet.js';
import { readDevnet } from '../fixtures/stack.js';
import { approveInDevWallet, copyPairingLink, openDevWallet } from '../fixtures/wc-wallet.js';

const contracts = readDevnet().contracts as Record<string, unknown>;
const weth = contracts.weth as Hex;
const router = contracts.uniswapV2Router as Hex;
const routerAbi = [
  { type: 'function', name: 'getAmountsOut', stateMutability: 'view', inputs: [{ type: 'uint256' }, { type: 'address[]' }], outputs: [{ type: 'uint256[]' }] },
] as const;

let beforeSwap: Hex;
test.beforeAll(async () => {
  beforeSwap = await anvil.snapshot();
});
test.afterAll(async () => {
  await anvil.revert({ id: beforeSwap });
});

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('swaps ETH for USDC from the Swap view through the dev wallet in a second tab', async ({ page, context }) => {
  // The dev wallet holds anvil's public test keys; account 8 is one no other test spends from.
  const trader: Hex = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f';
  const devWallet = await openDevWallet(context, '8');

  await page.goto('/');
  await approveInDevWallet(devWallet, await copyPairingLink(page));
  await expect(page.getByTestId('account-address')).toHaveAttribute('title', trader);

  const before = await usdcOf(trader);
  await page.getByTestId('account-action-swap').click();
  await expect(page.getByTestId('swap-from-token')).not.toHaveValue('');
  await page.getByTestId('swap-to-token').selectOption({ label: 'USDC' });
  await page.getByTestId('swap-amount').fill('0.1');
  await expect(page.getByTestId('swap-quote')).toBeVisible();
  const [, expected] = await anvil.readContract({ address: router, abi: routerAbi, functionName: 'getAmountsOut', args: [parseEther('0.1'), [weth, usdcAddress()]] });
  await page.getByTestId('swap-submit').click();

  // The request waits in the dev wallet until its user approves it there.
  await devWallet.getByRole('article', { name: 'eth_sendTransaction request from Latch demo' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect.poll(() => usdcOf(trader)).toBe(before + expected!);
});
