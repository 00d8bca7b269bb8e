// Behaviour 4.8: a visitor whose clock is wrong signs a message the Latch server refuses
// (ISSUED_AT_OUT_OF_WINDOW: more than 10 minutes from the server's clock); SIWXSignMessage says
// "Session Expired" with the hint to check the clock and reconnect, in the modal's language.
import { expect, test } from '@playwright/test';
import { axeViolations } from '../fixtures/axe.js';
import { E2E_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';
import { enPage } from '../../packages/react/src/locales/enPage.js';
import { de } from '../../packages/react/src/locales/de.js';

const TWO_HOURS_MS = 2 * 60 * 60 * 1000;

test('a page whose clock runs two hours ahead is told the session expired and to check the clock', async ({ page }) => {
  // Only the page's clock moves; the server and the devnet keep the real time.
  await page.clock.install({ time: Date.now() + TWO_HOURS_MS });
  const wallet = await installTestWallet(page, { privateKey: readDevnet().accounts[3]!.privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/?signIn=optional');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('siwx-sign-message')).toBeVisible();
  await page.getByTestId('siwx-sign').click();

  const error = page.getByTestId('siwx-error');
  await expect(error).toHaveText(`${enPage.sessionExpired}${enPage.sessionExpiredHint}`);
  await expect(error).toHaveAttribute('role', 'alert');
  expect(wallet.requests.filter((method) => method === 'personal_sign')).toHaveLength(1);
  await expect(page.getByTestId('siwx-status')).toHaveText('unauthenticated');
  expect(await axeViolations(page.getByTestId('latch-modal')), 'the expiry message is axe-clean').toEqual([]);

  // The same refusal in another language.
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('latch-modal')).toBeHidden();
  await page.getByTestId('demo-locale').selectOption('de');
  await page.getByTestId('siwx-sign-in').click();
  await page.getByTestId('siwx-sign').click();
  await expect(page.getByTestId('siwx-error')).toHaveText(`${de.sessionExpired}${de.sessionExpiredHint}`);
});
