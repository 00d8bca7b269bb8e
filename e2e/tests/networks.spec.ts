// The network picker with the injected test wallet: switching asks the wallet
// (wallet_switchEthereumChain), adds a chain it does not know first
// (wallet_addEthereumChain after 4902), and the balance then comes from the new
// chain through the gateway — a second real anvil (eip155:31338).
import { expect, test, type Page } from '@playwright/test';
import { createPublicClient, formatEther, http } from 'viem';
import { axeViolations } from '../fixtures/axe.js';
import { E2E_RPC_URL, E2E_SECOND_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

const account = () => readDevnet().accounts[3]!;
const SECOND_CHAIN = { 31338: E2E_SECOND_RPC_URL };

/** The displayed balance, computed independently of latch-core: floored to 3 decimals. */
async function expectedBalance(rpcUrl: string, address: `0x${string}`) {
  const wei = await createPublicClient({ transport: http(rpcUrl) }).getBalance({ address });
  const [whole, fraction = ''] = formatEther(wei).split('.');
  return `${whole}.${fraction.padEnd(3, '0').slice(0, 3)} ETH`;
}

test('switches to a network the wallet must add first, and the balance follows', async ({ page }) => {
  const { address, privateKey } = account();
  // Make the two chains' balances differ, so the shown one proves which chain it came from.
  const second = createPublicClient({ transport: http(E2E_SECOND_RPC_URL) });
  await second.request({ method: 'anvil_setBalance' as never, params: [address, '0xde0b6b3a7640000'] as never });
  const wallet = await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, chains: SECOND_CHAIN });
  // Analytics events the real `latch` accepted (2xx on POST /e).
  const accepted: { event: string; properties: unknown }[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname !== '/e' || !response.ok()) return;
    const { props } = JSON.parse(response.request().postData() ?? '{}');
    accepted.push({ event: props?.event, properties: props?.properties });
  });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-balance')).toHaveText(await expectedBalance(E2E_RPC_URL, address));
  await expect.poll(() => accepted.map(({ event }) => event)).toContain('INITIALIZE');

  await page.getByTestId('account-network').click();
  const modal = page.getByTestId('latch-modal');
  await expect(page.getByRole('dialog', { name: 'Choose network' })).toBeVisible();
  await expect(page.getByTestId('network-eip155:31337')).toHaveAttribute('aria-current', 'true');
  expect(await axeViolations(modal), 'the network picker is axe-clean').toEqual([]);

  await page.getByTestId('network-eip155:31338').click();
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31338:${address}`);
  await expect(page.getByTestId('account-balance')).toHaveText('1.000 ETH');
  await expect(page.getByTestId('account-network')).toHaveText('Network: Latch Devnet B');
  expect(wallet.requests).toEqual(
    expect.arrayContaining(['wallet_switchEthereumChain', 'wallet_addEthereumChain']),
  );
  const switches = wallet.requests.filter((method) => method.startsWith('wallet_'));
  expect(switches).toEqual(['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'wallet_switchEthereumChain']);
  await expect
    .poll(() => accepted.filter(({ event }) => event === 'SWITCH_NETWORK'))
    .toEqual([{ event: 'SWITCH_NETWORK', properties: { caipNetworkId: 'eip155:31338' } }]);
});

test('from an unsupported network, the picker brings the wallet back to a supported one', async ({ page }) => {
  const { address, privateKey } = account();
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, startChainId: 1 });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByRole('dialog', { name: 'Switch network' })).toBeVisible();

  await page.getByTestId('unsupported-switch').click();
  await page.getByTestId('network-eip155:31337').click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31337:${address}`);
  await expect(page.getByTestId('account-balance')).toHaveText(await expectedBalance(E2E_RPC_URL, address));
});

test('a wallet that cannot add the chain shows Chain is not supported', async ({ page }) => {
  const { privateKey } = account();
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, chains: SECOND_CHAIN, failAddChain: true });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await page.getByTestId('account-network').click();
  await page.getByTestId('network-eip155:31338').click();
  await expect(page.getByTestId('network-error')).toHaveText('Chain is not supported');
  await expect(page.getByTestId('state-caip-address')).toContainText('eip155:31337:');
});

test('the network picker is axe-clean in the light theme too', async ({ page }, testInfo) => {
  const { privateKey } = account();
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/?theme=light');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await page.getByTestId('account-network').click();
  const modal = page.getByTestId('latch-modal');
  await expect(page.getByTestId('network-picker')).toBeVisible();
  expect(await axeViolations(modal), 'the network picker is axe-clean (light)').toEqual([]);
  await modal.screenshot({ path: testInfo.outputPath('networks-light.png') });
});

test('a network added at run time (latch.addNetwork) is offered and switched to; removed, it leaves the picker', async ({ page }) => {
  const { address, privateKey } = account();
  const second = createPublicClient({ transport: http(E2E_SECOND_RPC_URL) });
  await second.request({ method: 'anvil_setBalance' as never, params: [address, '0x1bc16d674ec80000'] as never });
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, chains: SECOND_CHAIN });
  // The demo starts without Latch Devnet B here and adds it from the page.
  await page.goto('/?runtimeNetworks');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-balance')).toHaveText(await expectedBalance(E2E_RPC_URL, address));
  await page.getByTestId('account-network').click();
  const evmNetworks = () =>
    page.getByTestId('network-picker').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.dataset.testid));
  expect(await evmNetworks()).toEqual(['network-eip155:31337']);
  await page.getByTestId('latch-modal').getByRole('button', { name: 'Close' }).click();

  await page.getByTestId('demo-add-network').click();
  await expect(page.getByTestId('demo-network-result')).toHaveText('added');
  await page.getByTestId('connect-button').click();
  await page.getByTestId('account-network').click();
  await expect.poll(evmNetworks).toEqual(['network-eip155:31337', 'network-eip155:31338']);
  await page.getByTestId('network-eip155:31338').click();
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31338:${address}`);
  await expect(page.getByTestId('account-balance')).toHaveText('2.000 ETH');
  await expect(page.getByTestId('account-network')).toHaveText('Network: Latch Devnet B');
  await page.getByTestId('latch-modal').getByRole('button', { name: 'Close' }).click();

  // Removing the network the wallet is on: the wallet is on an unsupported network (behaviour 3.4).
  await page.getByTestId('demo-remove-network').click();
  await expect(page.getByTestId('demo-network-result')).toHaveText('removed Latch Devnet B');
  await expect(page.getByRole('dialog', { name: 'Switch network' })).toBeVisible();
  await page.getByTestId('unsupported-switch').click();
  await expect.poll(evmNetworks).toEqual(['network-eip155:31337']);
  await page.getByTestId('network-eip155:31337').click();
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31337:${address}`);
});

/** What Latch stored in the page's localStorage under `key`. */
const stored = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

test('reload on another network: the stored network is restored, with the wallet and without it (behaviour 2.14, 3.6)', async ({ page }) => {
  const { address, privateKey } = account();
  const wallet = await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, chains: SECOND_CHAIN });
  await page.goto('/');
  // Nothing stored: the first network the demo asks for.
  await expect(page.getByTestId('network-button')).toHaveText('Latch Devnet');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  expect(await stored(page, '@latch/connected-namespaces')).toBe('["eip155"]');
  expect(await stored(page, '@latch/connector-id/eip155')).toBe(TEST_WALLET_RDNS);

  await page.getByTestId('account-network').click();
  await page.getByTestId('network-eip155:31338').click();
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31338:${address}`);
  await expect(page.getByTestId('network-button')).toHaveText('Latch Devnet B');
  expect(await stored(page, '@latch/active-network')).toBe('eip155:31338');
  expect(await stored(page, '@latch/active-namespace')).toBe('eip155');

  await page.reload();
  // The wallet reconnects silently, still on the second chain, and so is the modal.
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31338:${address}`);
  await expect(page.getByTestId('state-active-network')).toHaveText('eip155:31338');
  await expect(page.getByTestId('network-button')).toHaveText('Latch Devnet B');
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId('account-balance')).toHaveText(await expectedBalance(E2E_SECOND_RPC_URL, address));
  await expect(page.getByTestId('account-network')).toHaveText('Network: Latch Devnet B');
  // No switch was asked for after the reload: the wallet was on it.
  expect(wallet.requests.filter((method) => method === 'wallet_switchEthereumChain')).toHaveLength(2);

  // Disconnected, the next visit still starts on the stored network (no wallet to say otherwise).
  await page.getByTestId('account-disconnect').click();
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
  expect(await stored(page, '@latch/connected-namespaces')).toBeNull();
  expect(await stored(page, '@latch/connector-id/eip155')).toBeNull();
  await page.reload();
  await expect(page.getByTestId('state-active-network')).toHaveText('eip155:31338');
  await expect(page.getByTestId('network-button')).toHaveText('Latch Devnet B');
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
});

test('unsupported network placeholder: with allowUnsupportedChain the wallet stays on Account, the button says unsupported (behaviour 3.3, 3.4)', async ({ page }) => {
  const { address, privateKey } = account();
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, startChainId: 1 });
  await page.goto('/?allowUnsupportedChain=1');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Switch network' })).toHaveCount(0);
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:1:${address}`);
  await expect(page.getByTestId('account-network')).toHaveText('Network: Unsupported network');
  // No balance is read there, and none is shown as loading.
  await expect(page.getByTestId('account-balance')).toHaveText('—');
  const button = page.getByTestId('network-button');
  await expect(button).toHaveText('Unsupported network');
  await expect(button).toHaveAttribute('data-unsupported', 'true');
  // The placeholder keeps the wallet's network id.
  await expect(button).toHaveAttribute('data-caip-network-id', 'eip155:1');
  await expect(page.getByTestId('state-active-network')).toHaveText('eip155:1');
  expect(await axeViolations(page.getByTestId('latch-modal')), 'Account on the placeholder is axe-clean').toEqual([]);

  // The picker still brings the wallet to a supported network.
  await page.getByTestId('account-network').click();
  await page.getByTestId('network-eip155:31337').click();
  await expect(page.getByTestId('state-caip-address')).toHaveText(`eip155:31337:${address}`);
  await expect(button).toHaveText('Latch Devnet');
  await expect(button).not.toHaveAttribute('data-unsupported', 'true');
});

test('unsupported network placeholder: without the option the placeholder is active behind UnsupportedChain, and a reload restores it', async ({ page }) => {
  const { privateKey } = account();
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL, startChainId: 1 });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByRole('dialog', { name: 'Switch network' })).toBeVisible();
  await expect(page.getByTestId('network-button')).toHaveText('Unsupported network');
  expect(await stored(page, '@latch/active-network')).toBe('eip155:1');
  // Behaviour 3.6: a stored network of a known namespace the app does not list restores as the placeholder.
  await page.getByRole('dialog', { name: 'Switch network' }).getByRole('button', { name: 'Disconnect' }).click();
  await page.reload();
  await expect(page.getByTestId('state-status')).toHaveText('disconnected');
  await expect(page.getByTestId('network-button')).toHaveText('Unsupported network');
  await expect(page.getByTestId('state-active-network')).toHaveText('eip155:1');
});
