// Send (EVM) end to end: the modal's Send view with the injected test wallet, against the real
// devnet and `latch` (balances, gas through the gateway, ENS names through the profile API).
// Each test sends from a fresh account funded here, so the fixture accounts other specs read
// stay as they are.
import { expect, test, type Page } from '@playwright/test';
import { parseEther, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { axeViolations } from '../fixtures/axe.js';
import { anvil, freshAccount, usdcOf } from '../fixtures/devnet.js';
import { E2E_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS, type TestWalletOptions } from '../fixtures/test-wallet.js';

const devnet = readDevnet();
const freshReceiver = () => privateKeyToAccount(generatePrivateKey()).address;

async function openSend(page: Page, privateKey: Hex, options: Partial<TestWalletOptions> = {}) {
  const wallet = await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, ...options });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await page.getByTestId('account-action-send').click();
  await expect(page.getByTestId('send-view')).toBeVisible();
  // The gas price and limit came through the gateway and are priced from the devnet pools.
  await expect(page.getByTestId('send-fee')).toContainText(/ETH \(\$\d/);
  return wallet;
}

async function fillAndPreview(page: Page, token: 'ETH' | 'USDC', amount: string | null, receiver: string) {
  await page.getByTestId('send-token').selectOption({ label: token });
  if (amount !== null) await page.getByTestId('send-amount').fill(amount);
  await page.getByTestId('send-receiver').fill(receiver);
  await page.getByTestId('send-receiver').blur();
  await page.getByTestId('send-submit').click();
}

test('sends ETH: the receiver holds it on anvil and the modal shows the new balance', async ({ page }) => {
  const sender = await freshAccount('2', '0');
  const receiver = freshReceiver();
  await openSend(page, sender.privateKey);
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Send form is axe-clean').toEqual([]);
  await fillAndPreview(page, 'ETH', '0.25', receiver);
  await expect(page.getByTestId('send-preview')).toContainText('0.25 ETH');
  await expect(page.getByTestId('send-preview')).toContainText(receiver);
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Send preview is axe-clean').toEqual([]);
  await page.getByTestId('send-submit').click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await expect.poll(() => anvil.getBalance({ address: receiver })).toBe(parseEther('0.25'));
  // The modal reads the balance again once the transaction is mined: 2 − 0.25 − gas.
  await expect(page.getByTestId('account-balance')).toHaveText('1.749 ETH');
});

test('sends USDC through the token contract', async ({ page }) => {
  const sender = await freshAccount('1', '100');
  const receiver = freshReceiver();
  await openSend(page, sender.privateKey);
  await fillAndPreview(page, 'USDC', '12.5', receiver);
  await page.getByTestId('send-submit').click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect.poll(() => usdcOf(receiver)).toBe(12_500_000n);
  expect(await usdcOf(sender.address)).toBe(87_500_000n);
  // The Tokens tab reads past the server's cache after the send.
  await expect(page.getByTestId('token-USDC')).toContainText('87.50 USDC');
});

test('sends to latch-dev.eth, showing the resolved name and avatar', async ({ page }) => {
  const sender = await freshAccount('1', '10');
  const owner = devnet.accounts[0]!.address;
  const before = await usdcOf(owner);
  await openSend(page, sender.privateKey);
  await page.getByTestId('send-token').selectOption({ label: 'USDC' });
  await page.getByTestId('send-amount').fill('3');
  await page.getByTestId('send-receiver').fill('latch-dev.eth');
  await page.getByTestId('send-receiver').blur();
  const shown = page.getByTestId('send-receiver-name');
  await expect(shown).toContainText('latch-dev.eth');
  await expect(page.getByRole('img', { name: 'Avatar of latch-dev.eth' })).toHaveAttribute('src', /latch-dev\.png$/);
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('send-preview')).toContainText('latch-dev.eth');
  await page.getByTestId('send-submit').click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect.poll(() => usdcOf(owner)).toBe(before + 3_000_000n);
});

test('Max sends everything but the gas', async ({ page }) => {
  const sender = await freshAccount('1', '0');
  const receiver = freshReceiver();
  await openSend(page, sender.privateKey);
  await page.getByTestId('send-receiver').fill(receiver);
  await page.getByTestId('send-receiver').blur();
  await page.getByTestId('send-max').click();
  const amount = page.getByTestId('send-amount');
  await expect(amount).toHaveValue(/^0\.9999/);
  const max = parseEther(await amount.inputValue());
  expect(max).toBeLessThan(parseEther('1'));
  await page.getByTestId('send-submit').click();
  await page.getByTestId('send-submit').click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect.poll(() => anvil.getBalance({ address: receiver })).toBe(max);
  // Exactly the gas the Max kept was paid: nothing is left.
  await expect.poll(() => anvil.getBalance({ address: sender.address })).toBe(0n);
});

test('refuses an invalid address and an amount above the balance', async ({ page }) => {
  const sender = await freshAccount('1', '5');
  await openSend(page, sender.privateKey);
  await fillAndPreview(page, 'ETH', '0.1', '0x1234');
  await expect(page.getByTestId('send-error')).toHaveText('Invalid address');
  await fillAndPreview(page, 'USDC', '6', freshReceiver());
  await expect(page.getByTestId('send-error')).toHaveText('Amount exceeds balance');
  await fillAndPreview(page, 'ETH', '5', freshReceiver());
  await expect(page.getByTestId('send-error')).toHaveText('Amount exceeds balance');
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Send with an error is axe-clean').toEqual([]);
});

test('refuses a token send whose gas the account cannot pay', async ({ page }) => {
  const sender = await freshAccount('0', '50');
  await installTestWallet(page, { privateKey: sender.privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await page.getByTestId('account-action-send').click();
  await fillAndPreview(page, 'USDC', '1', freshReceiver());
  await expect(page.getByTestId('send-error')).toHaveText('Insufficient funds for the network fee');
  expect(await usdcOf(sender.address)).toBe(50_000_000n);
});

test('a rejection in the wallet gets its own calm message and sends nothing', async ({ page }) => {
  const sender = await freshAccount('1', '0');
  const receiver = freshReceiver();
  const wallet = await openSend(page, sender.privateKey, { rejectTransaction: true });
  await fillAndPreview(page, 'ETH', '0.1', receiver);
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('send-error')).toHaveText('You declined the transaction in your wallet. Nothing was sent.');
  expect(wallet.requests).toContain('eth_sendTransaction');
  expect(await anvil.getBalance({ address: receiver })).toBe(0n);
  await expect(page.getByTestId('send-preview')).toBeVisible();
});

test('hosts sign and send through the connected wallet with the hooks', async ({ page }) => {
  const sender = await freshAccount('1', '0');
  await openSend(page, sender.privateKey);
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('latch-modal')).toBeHidden();
  await page.getByTestId('demo-sign').click();
  await expect(page.getByTestId('demo-sign-result')).toHaveText(/^0x[0-9a-f]{130}$/);
  await page.getByTestId('demo-send-self').click();
  await expect(page.getByTestId('demo-send-result')).toHaveText(/^0x[0-9a-f]{64}$/);
  const hash = (await page.getByTestId('demo-send-result').textContent()) as Hex;
  const receipt = await anvil.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  expect(receipt.to?.toLowerCase()).toBe(sender.address.toLowerCase());
});

test('open({ view: "Send", data }) from the page: the form starts prefilled and sends to latch-dev.eth', async ({ page }) => {
  const sender = await freshAccount('1', '0');
  const owner = devnet.accounts[0]!.address;
  const before = await anvil.getBalance({ address: owner });
  await installTestWallet(page, { privateKey: sender.privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await page.getByTestId('latch-modal').getByRole('button', { name: 'Close' }).click();

  // The demo's button calls latch.modal.open({ view: 'Send', data: { token: 'ETH', amount: '0.01', receiver: 'latch-dev.eth' } }).
  await page.getByTestId('demo-open-send-prefilled').click();
  await expect(page.getByTestId('send-view')).toBeVisible();
  await expect(page.getByTestId('send-token')).toHaveValue('native');
  await expect(page.getByTestId('send-amount')).toHaveValue('0.01');
  await expect(page.getByTestId('send-receiver')).toHaveValue('latch-dev.eth');
  await expect(page.getByTestId('send-receiver-name')).toContainText('latch-dev.eth');
  await expect(page.getByTestId('send-fee')).toContainText(/ETH \(\$\d/);
  expect(await axeViolations(page.getByTestId('latch-modal')), 'the prefilled Send form is axe-clean').toEqual([]);
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('send-preview')).toContainText('0.01 ETH');
  await expect(page.getByTestId('send-preview')).toContainText('latch-dev.eth');
  await page.getByTestId('send-submit').click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect.poll(() => anvil.getBalance({ address: owner })).toBe(before + parseEther('0.01'));
});
