// Names end to end (behaviour 5.12 "Name registration", issue 27): the modal's RegisterAccountName with
// the injected test wallet and with the official WalletConnect wallet client (2.21.8, anvil's
// account 1) signing for real, against the real `latch` (which verifies the
// signature and keeps the name) and the devnet. The injected-wallet tests register from fresh
// accounts; the WalletConnect one names account 1, which no other spec expects to be nameless.
import { expect, test, type Page } from '@playwright/test';
import { type Hex } from 'viem';
import { axeViolations } from '../fixtures/axe.js';
import { freshAccount } from '../fixtures/devnet.js';
import { E2E_RELAY_URL, E2E_RPC_URL, E2E_SERVER_URL } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';
import { OfficialWallet, WALLET_ADDRESS } from '../fixtures/wc-wallet.js';

const ZONE = 'latch.id';
/** A label no earlier run of this database holds (the database is fresh per run; tests share it). */
const freshLabel = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 8)}`;

async function connect(page: Page, privateKey: Hex) {
  await installTestWallet(page, { privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
}

async function openRegister(page: Page) {
  await page.getByTestId('account-register-name').click();
  await expect(page.getByTestId('register-name-view')).toBeVisible();
}

/** Registers `label` from the open RegisterAccountName view. */
async function register(page: Page, label: string) {
  await page.getByTestId('register-name-input').fill(label);
  await expect(page.getByTestId('register-name-status')).toHaveText(`${label}.${ZONE} is available`);
  await page.getByTestId('register-name-submit').click();
  await expect(page.getByTestId('register-name-success')).toContainText(`You registered ${label}.${ZONE}.`);
}

test('registers a name with the injected wallet; Account shows it, also after a reload', async ({ page }) => {
  const account = await freshAccount('1');
  const label = freshLabel('alice');
  await connect(page, account.privateKey);
  await expect(page.getByTestId('account-name')).toHaveCount(0);
  await openRegister(page);
  expect(await axeViolations(page.getByTestId('latch-modal')), 'RegisterAccountName is axe-clean').toEqual([]);
  await register(page, label);
  expect(await axeViolations(page.getByTestId('latch-modal')), 'RegisterAccountNameSuccess is axe-clean').toEqual([]);
  await page.getByTestId('register-name-done').click();
  await expect(page.getByTestId('account-name')).toHaveText(`${label}.${ZONE}`);
  await expect(page.getByTestId('account-register-name')).toHaveCount(0);

  // The server holds it: forward and reverse lookups answer it, and a reload shows it again.
  const profile = await (await fetch(`${E2E_SERVER_URL}/v1/profile/account/${label}.${ZONE}?projectId=demo`)).json();
  expect(Object.values(profile.addresses).map((entry) => (entry as { address: string }).address)).toEqual([account.address]);
  const reverse = await (await fetch(`${E2E_SERVER_URL}/v1/profile/reverse/${account.address}?projectId=demo`)).json();
  expect(reverse.map((entry: { name: string }) => entry.name)).toEqual([`${label}.${ZONE}`]);
  await page.reload();
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId('account-name')).toHaveText(`${label}.${ZONE}`);
});

test('a taken name and an invalid one give their messages; a suggestion is free; Send takes the name', async ({ browser, page: firstPage }) => {
  const first = await freshAccount('1');
  const label = freshLabel('bob');
  await connect(firstPage, first.privateKey);
  await openRegister(firstPage);
  await register(firstPage, label);

  // A second visitor, in a browser context of their own, wants the same name.
  const second = await freshAccount('1');
  const context = await browser.newContext();
  const page = await context.newPage();
  await connect(page, second.privateKey);
  await openRegister(page);
  await page.getByTestId('register-name-input').fill('ab');
  await expect(page.getByTestId('register-name-error')).toHaveText('Name must be at least 4 characters');
  await page.getByTestId('register-name-input').fill('bob_smith');
  await expect(page.getByTestId('register-name-error')).toHaveText('Name can only contain letters, digits and hyphens');
  await expect(page.getByTestId('register-name-submit')).toBeDisabled();
  await page.getByTestId('register-name-input').fill(label);
  await expect(page.getByTestId('register-name-error')).toHaveText(`${label}.${ZONE} is already taken`);
  await expect(page.getByTestId('register-name-submit')).toBeDisabled();
  expect(await axeViolations(page.getByTestId('latch-modal')), 'the taken-name state is axe-clean').toEqual([]);
  const suggestions = page.getByTestId('register-name-suggestion');
  await expect(suggestions.first()).toHaveText(`${label}.${ZONE} (taken)`);
  await expect(suggestions.nth(1)).toHaveText(`${label}app.${ZONE}`);
  await suggestions.nth(1).click();
  await expect(page.getByTestId('register-name-status')).toHaveText(`${label}app.${ZONE} is available`);
  await page.getByTestId('register-name-submit').click();
  await expect(page.getByTestId('register-name-success')).toContainText(`You registered ${label}app.${ZONE}.`);

  // Send's receiver field resolves the first visitor's name to their address.
  await page.getByTestId('register-name-done').click();
  await page.getByTestId('account-action-send').click();
  await page.getByTestId('send-receiver').fill(`${label}.${ZONE}`);
  await page.getByTestId('send-receiver').blur();
  const shown = page.getByTestId('send-receiver-name');
  await expect(shown).toContainText(`${label}.${ZONE}`);
  await expect(shown.locator('[title]')).toHaveAttribute('title', first.address);
  await context.close();
});

test('a refused signature returns to RegisterAccountName with "Error registering name {name}"', async ({ page }) => {
  const account = await freshAccount('1');
  const label = freshLabel('carol');
  await installTestWallet(page, { privateKey: account.privateKey, rpcUrl: E2E_RPC_URL, rejectSign: true });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await openRegister(page);
  await page.getByTestId('register-name-input').fill(label);
  await expect(page.getByTestId('register-name-status')).toHaveText(`${label}.${ZONE} is available`);
  await page.getByTestId('register-name-submit').click();
  await expect(page.getByTestId('register-name-error')).toHaveText(`Error registering name ${label}.${ZONE}`);
  await expect(page.getByTestId('register-name-view')).toBeVisible();
});

test.describe('over WalletConnect', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('registers a name with the official WalletConnect wallet signing', async ({ page }) => {
    const wallet = await OfficialWallet.start(E2E_RELAY_URL, E2E_RPC_URL);
    try {
      const label = freshLabel('wc');
      await page.goto('/');
      await wallet.pairWith(page);
      await openRegister(page);
      await register(page, label);
      await page.getByTestId('register-name-done').click();
      await expect(page.getByTestId('account-name')).toHaveText(`${label}.${ZONE}`);
      const reverse = await (await fetch(`${E2E_SERVER_URL}/v1/profile/reverse/${WALLET_ADDRESS}?projectId=demo`)).json();
      expect(reverse.map((entry: { name: string }) => entry.name)).toContain(`${label}.${ZONE}`);
    } finally {
      await wallet.stop();
    }
  });
});
