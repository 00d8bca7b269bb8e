// Send (EVM) through WalletConnect: the modal pairs with the official wallet client
// (@walletconnect/sign-client 2.21.8, in Node) over the real `latch serve` relay, and the wallet
// signs the Send view's transaction and sends it to the devnet; then the same with the dev
// wallet (apps/devwallet) in a second tab, where its user approves the request.
import { expect, test } from '@playwright/test';
import { createPublicClient, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { E2E_RPC_URL } from '../fixtures/stack.js';
import { approveInDevWallet, copyPairingLink, officialWalletForEachTest, openDevWallet, WALLET_ADDRESS } from '../fixtures/wc-wallet.js';
const devnet = createPublicClient({ transport: http(E2E_RPC_URL) });

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const wallet = officialWalletForEachTest(E2E_RPC_URL);

test('sends ETH from the Send view through a WalletConnect wallet', async ({ page }) => {
  const receiver = privateKeyToAccount(generatePrivateKey()).address;
  await page.goto('/');
  await wallet().pairWith(page);

  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByTestId('demo-open-send').click();
  await expect(page.getByTestId('send-fee')).toContainText(/ETH \(\$\d/);
  await page.getByTestId('send-amount').fill('0.01');
  await page.getByTestId('send-receiver').fill(receiver);
  await page.getByTestId('send-receiver').blur();
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('send-preview')).toContainText('0.01 ETH');
  await page.getByTestId('send-submit').click();

  const request = await wallet().expect('request');
  expect(request.method).toBe('eth_sendTransaction');
  expect(request.params).toMatchObject([{ from: WALLET_ADDRESS, to: receiver, value: '0x2386f26fc10000', data: '0x' }]);
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect.poll(() => devnet.getBalance({ address: receiver })).toBe(parseEther('0.01'));
});

test('sends ETH from the Send view through the dev wallet in a second tab', async ({ page, context }) => {
  const receiver = privateKeyToAccount(generatePrivateKey()).address;
  // The dev wallet holds anvil's public test keys; account 6 is one no other test spends from.
  const sender = '0x976EA74026E726554dB657fA54763abd0C3a0aa9';
  const devWallet = await openDevWallet(context, '6');

  await page.goto('/');
  await approveInDevWallet(devWallet, await copyPairingLink(page));
  await expect(page.getByTestId('account-address')).toHaveAttribute('title', sender);

  await page.getByTestId('account-action-send').click();
  await expect(page.getByTestId('send-fee')).toContainText(/ETH \(\$\d/);
  await page.getByTestId('send-amount').fill('0.02');
  await page.getByTestId('send-receiver').fill(receiver);
  await page.getByTestId('send-receiver').blur();
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('send-preview')).toContainText('0.02 ETH');
  await page.getByTestId('send-submit').click();

  // The request waits in the dev wallet until its user approves it there.
  await devWallet
    .getByRole('article', { name: 'eth_sendTransaction request from Latch demo' })
    .getByRole('button', { name: 'Approve' })
    .click();
  await expect(page.getByText('Transaction started')).toBeVisible();
  await expect.poll(() => devnet.getBalance({ address: receiver })).toBe(parseEther('0.02'));
  await expect(page.getByTestId('account-address')).toBeVisible();
});
