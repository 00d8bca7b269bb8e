// @latch/wagmi end to end: the wagmi example app (apps/wagmi-example), built once against wagmi v2
// and once against wagmi v3, connects through the Latch modal with the injected test wallet; its
// own wagmi hooks then sign, send ETH and call USDC `transfer` on the real devnet (receipts read
// from anvil here), switch chains, and disconnect — with Latch and wagmi following each other.
import { expect, test, type Page } from '@playwright/test';
import { parseEther, parseUnits, verifyMessage, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { axeViolations } from '../fixtures/axe.js';
import { anvil, freshAccount, usdcAddress, usdcOf } from '../fixtures/devnet.js';
import { E2E_RPC_URL, E2E_SECOND_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

const devnet = readDevnet();
const usdc = usdcAddress();
const HASH = /^0x[0-9a-f]{64}$/;

const VARIANTS = [
  { major: 2, path: '/wagmi-example/', version: /^2\./ },
  { major: 3, path: '/wagmi3-example/', version: /^3\./ },
] as const;

/** Opens the example with the test wallet installed and connects through the Latch modal. */
async function connectThroughLatch(page: Page, path: string) {
  // 2 ETH and 100 USDC, so the fixture accounts other specs read stay as they are.
  const account = await freshAccount('2', '100');
  const wallet = await installTestWallet(page, {
    privateKey: account.privateKey,
    rpcUrl: E2E_RPC_URL,
    chains: { 31338: E2E_SECOND_RPC_URL },
  });
  await page.goto(path);
  await expect(page.getByTestId('wagmi-status')).toHaveText('disconnected');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await page.getByTestId('modal-close').click();
  await expect(page.getByTestId('wagmi-status')).toHaveText('connected');
  return { ...account, wallet };
}

for (const { major, path, version } of VARIANTS) {
  test.describe(`wagmi v${major}`, () => {
    test('connects through the Latch modal; wagmi signs, sends ETH and calls USDC transfer on anvil', async ({ page }) => {
      const { address } = await connectThroughLatch(page, path);
      await expect(page.getByTestId('wagmi-version')).toHaveText(version);
      await expect(page.getByTestId('wagmi-address')).toHaveText(address);
      await expect(page.getByTestId('wagmi-chain')).toHaveText('31337');
      await expect(page.getByTestId('wagmi-connector')).toHaveText('Latch');
      // useBalance reads through the Latch gateway: the 2 ETH set on anvil.
      await expect(page.getByTestId('wagmi-balance')).toHaveText('2 ETH');
      expect(await axeViolations(page.locator('main')), 'the example page is axe-clean').toEqual([]);

      await page.getByTestId('wagmi-sign').click();
      await expect(page.getByTestId('wagmi-signature')).toHaveText(/^0x[0-9a-f]{130}$/);
      const signature = (await page.getByTestId('wagmi-signature').textContent()) as Hex;
      expect(await verifyMessage({ address, message: 'Hello from wagmi', signature })).toBe(true);

      const receiver = privateKeyToAccount(generatePrivateKey()).address;
      await page.getByTestId('wagmi-receiver').fill(receiver);
      await page.getByTestId('wagmi-amount').fill('0.25');
      await page.getByTestId('wagmi-send-eth').click();
      await expect(page.getByTestId('wagmi-eth-hash')).toHaveText(HASH);
      const ethHash = (await page.getByTestId('wagmi-eth-hash').textContent()) as Hex;
      const ethReceipt = await anvil.waitForTransactionReceipt({ hash: ethHash });
      expect(ethReceipt).toMatchObject({ status: 'success', from: address.toLowerCase(), to: receiver.toLowerCase() });
      expect(await anvil.getBalance({ address: receiver })).toBe(parseEther('0.25'));

      await page.getByTestId('wagmi-amount').fill('12.5');
      await page.getByTestId('wagmi-send-usdc').click();
      await expect(page.getByTestId('wagmi-usdc-hash')).toHaveText(HASH);
      const usdcHash = (await page.getByTestId('wagmi-usdc-hash').textContent()) as Hex;
      const usdcReceipt = await anvil.waitForTransactionReceipt({ hash: usdcHash });
      expect(usdcReceipt).toMatchObject({ status: 'success', to: usdc.toLowerCase() });
      expect(await usdcOf(receiver)).toBe(parseUnits('12.5', 6));
    });

    test('switching chain in wagmi moves the wallet and Latch, and switching in the modal moves wagmi', async ({ page }) => {
      const { wallet } = await connectThroughLatch(page, path);
      await page.getByTestId('wagmi-switch-31338').click();
      await expect(page.getByTestId('wagmi-chain')).toHaveText('31338');
      expect(wallet.requests).toEqual(expect.arrayContaining(['wallet_switchEthereumChain', 'wallet_addEthereumChain']));
      await page.getByTestId('connect-button').click();
      await expect(page.getByTestId('account-network')).toHaveText('Network: Latch Devnet B');

      await page.getByTestId('account-network').click();
      await page.getByTestId('network-eip155:31337').click();
      await expect(page.getByTestId('account-network')).toHaveText('Network: Latch Devnet');
      await page.getByTestId('modal-close').click();
      await expect(page.getByTestId('wagmi-chain')).toHaveText('31337');
    });

    test("wagmi's disconnect disconnects Latch, and Latch's disconnect disconnects wagmi", async ({ page }) => {
      await connectThroughLatch(page, path);
      await page.getByTestId('wagmi-disconnect').click();
      await expect(page.getByTestId('wagmi-status')).toHaveText('disconnected');
      await expect(page.getByTestId('connect-button')).toHaveAttribute('data-status', 'disconnected');

      // wagmi's useConnect opens the Latch modal; the wallet picked there is wagmi's connection.
      await page.getByTestId('wagmi-connect').click();
      await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
      await expect(page.getByTestId('account-address')).toBeVisible();
      await expect(page.getByTestId('wagmi-status')).toHaveText('connected');
      await page.getByTestId('account-disconnect').click();
      await expect(page.getByTestId('connect-button')).toHaveAttribute('data-status', 'disconnected');
      await expect(page.getByTestId('wagmi-status')).toHaveText('disconnected');
      await expect(page.getByTestId('wagmi-address')).toHaveText('—');
    });

    test("closing the modal opened by wagmi's connect is wagmi's rejected connect", async ({ page }) => {
      await installTestWallet(page, { privateKey: devnet.accounts[5]!.privateKey, rpcUrl: E2E_RPC_URL });
      await page.goto(path);
      await page.getByTestId('wagmi-connect').click();
      await expect(page.getByTestId('latch-modal')).toBeVisible();
      await page.getByTestId('modal-close').click();
      await expect(page.getByTestId('wagmi-connect-error')).toContainText('User rejected');
      await expect(page.getByTestId('wagmi-status')).toHaveText('disconnected');
    });

    test('a reload restores the connection in Latch and wagmi', async ({ page }) => {
      const { address } = await connectThroughLatch(page, path);
      await page.reload();
      await expect(page.getByTestId('wagmi-status')).toHaveText('connected');
      await expect(page.getByTestId('wagmi-address')).toHaveText(address);
      await expect(page.getByTestId('connect-button')).toHaveAttribute('data-status', 'connected');
    });
  });
}
