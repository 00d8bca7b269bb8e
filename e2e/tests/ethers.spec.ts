// @latch/ethers end to end: the ethers example (apps/ethers-example) connects through the Latch
// modal, then ethers v6 (`getLatchSigner`) and ethers v5 (`Web3Provider` from the npm alias
// `ethers5`) sign — signatures checked here with viem — and send on the real devnet, with the
// injected test wallet and with the official WalletConnect wallet client over the Latch relay.
import { expect, test, type Page } from '@playwright/test';
import { parseEther, verifyMessage, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { axeViolations } from '../fixtures/axe.js';
import { anvil, freshAccount } from '../fixtures/devnet.js';
import { E2E_RPC_URL } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';
import { officialWalletForEachTest, WALLET_ADDRESS } from '../fixtures/wc-wallet.js';

const PATH = '/ethers-example/';
const MESSAGE = 'Hello from ethers';
const HASH = /^0x[0-9a-f]{64}$/;

/** Signs with v6 and v5 and checks both signatures recover to `address`. */
async function signWithBoth(page: Page, address: Hex) {
  for (const major of ['v6', 'v5']) {
    await page.getByTestId(`ethers-${major}-sign-button`).click();
    await expect(page.getByTestId(`ethers-${major}-sign`)).toHaveText(/^0x[0-9a-f]{130}$/);
    const signature = (await page.getByTestId(`ethers-${major}-sign`).textContent()) as Hex;
    expect(await verifyMessage({ address, message: MESSAGE, signature }), `${major} signature`).toBe(true);
  }
}

/** Sends 0.1 ETH with v6 then v5 to a new receiver; both receipts are read from anvil. */
async function sendWithBoth(page: Page, from: Hex) {
  const receiver = privateKeyToAccount(generatePrivateKey()).address;
  await page.getByTestId('ethers-receiver').fill(receiver);
  for (const major of ['v6', 'v5']) {
    await page.getByTestId(`ethers-${major}-send-button`).click();
    await expect(page.getByTestId(`ethers-${major}-send`)).toHaveText(HASH);
    const hash = (await page.getByTestId(`ethers-${major}-send`).textContent()) as Hex;
    const receipt = await anvil.waitForTransactionReceipt({ hash });
    expect(receipt, `${major} receipt`).toMatchObject({ status: 'success', from: from.toLowerCase(), to: receiver.toLowerCase() });
  }
  expect(await anvil.getBalance({ address: receiver })).toBe(parseEther('0.2'));
}

test('injected: ethers v6 and v5 sign and send through the Latch connection, and follow disconnect', async ({ page }) => {
  const { privateKey, address } = await freshAccount('1');
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto(PATH);
  await expect(page.getByTestId('ethers-status')).toHaveText('Not connected');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await page.getByTestId('modal-close').click();
  await expect(page.getByTestId('ethers-address')).toHaveText(address);
  await expect(page.getByTestId('ethers-chain')).toHaveText('31337');
  expect(await axeViolations(page.locator('main')), 'the example page is axe-clean').toEqual([]);

  await signWithBoth(page, address);
  await sendWithBoth(page, address);

  await page.getByTestId('connect-button').click();
  await page.getByTestId('account-disconnect').click();
  await expect(page.getByTestId('ethers-status')).toHaveText('Not connected');
});

test.describe('WalletConnect', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
  const wallet = officialWalletForEachTest(E2E_RPC_URL);

  test('ethers v6 and v5 sign and send through a WalletConnect session', async ({ page }) => {
    await page.goto(PATH);
    await wallet().pairWith(page);
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('ethers-address')).toHaveText(WALLET_ADDRESS);

    await signWithBoth(page, WALLET_ADDRESS);
    await sendWithBoth(page, WALLET_ADDRESS);
  });
});
