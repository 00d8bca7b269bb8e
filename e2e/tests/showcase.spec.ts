// Issue 32: the demo as a showcase (ways in without a browser wallet, links to the dev wallet,
// the dev outbox and the dashboard, a switcher per feature), and the modal's motion (behaviour 1.8:
// its body's height follows the view over 150 ms; none under prefers-reduced-motion).
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from '../fixtures/axe.js';
import { E2E_RPC_URL, readDevnet } from '../fixtures/stack.js';
import { installTestWallet, TEST_WALLET_RDNS } from '../fixtures/test-wallet.js';

test('the demo explains how to connect without a browser wallet and links what it names', async ({ page, request }) => {
  await page.goto('/');
  const noWallet = page.getByRole('region', { name: 'No browser wallet? Two ways in' });
  await expect(noWallet).toContainText('WalletConnect URI');
  await expect(noWallet).toContainText('six-digit code');

  // Each target is served by the same `latch --dev` as the page. The outbox exists only without a
  // mail server (`make demo`); this stack sends over real SMTP, where it is the documented 404.
  const links = {
    'demo-link-devwallet': ['/devwallet/', 200],
    'demo-link-outbox': ['/v1/embedded/dev/outbox', 404],
    'demo-link-dashboard': ['/dashboard', 200],
  } as const;
  for (const [testId, [href, status]] of Object.entries(links)) {
    const link = page.getByTestId(testId);
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
    expect((await request.get(href)).status(), `${href} answers`).toBe(status);
  }

  // The dev wallet opens in a second tab, ready to pair.
  const [wallet] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('demo-link-devwallet').click()]);
  await expect(wallet.getByRole('heading', { name: 'Latch dev wallet' })).toBeVisible();
  await expect(wallet.getByLabel('WalletConnect URI')).toBeVisible();
  await wallet.close();

  // The in-page link jumps to the explanation.
  await page.getByRole('link', { name: 'Two ways in' }).click();
  await expect(page).toHaveURL(/#no-wallet-heading$/);
  expect(await axeViolations(page.locator('body')), 'the demo page is axe-clean').toEqual([]);
});

test('the features section: sign-in modes, the theme switcher, actions waiting for a connection', async ({ page }) => {
  await page.goto('/');
  const features = page.getByRole('region', { name: 'Features' });
  await expect(features.getByTestId('demo-actions-hint')).toBeVisible();
  await expect(features.getByRole('link', { name: 'optional' })).toHaveAttribute('href', '?signIn=optional');
  await expect(page.getByTestId('demo-theme-dark')).toBeChecked();

  await page.getByLabel('Light').check();
  await page.getByTestId('connect-button').click();
  await expect(page.locator('.latch-root')).toHaveAttribute('data-theme', 'light');
  await page.keyboard.press('Escape');
  await page.getByLabel('Dark').check();
  await page.getByTestId('connect-button').click();
  await expect(page.locator('.latch-root')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Escape');
});

test('once connected, each account action opens its view', async ({ page }) => {
  await installTestWallet(page, { privateKey: readDevnet().accounts[1]!.privateKey, rpcUrl: E2E_RPC_URL });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await page.getByTestId(`wallet-selector-${TEST_WALLET_RDNS}`).click();
  await expect(page.getByTestId('account-address')).toBeVisible();
  await page.keyboard.press('Escape');
  const views = {
    Account: 'account-address',
    Send: 'send-view',
    RegisterAccountName: 'register-name-view',
  };
  for (const [view, shown] of Object.entries(views)) {
    await page.getByTestId(`demo-action-${view}`).click();
    await expect(page.getByTestId(shown)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('latch-modal')).toHaveCount(0);
  }
  for (const [view, title] of [['Networks', 'Choose network'], ['Receive', 'Receive'], ['Swap', 'Swap'], ['Onramp', 'Buy']] as const) {
    await page.getByTestId(`demo-action-${view}`).click();
    await expect(page.getByRole('dialog', { name: title })).toBeVisible();
    await page.keyboard.press('Escape');
  }
  expect(await axeViolations(page.getByRole('region', { name: 'Features' })), 'the features section is axe-clean').toEqual([]);
});

/** The modal body's height transition as the browser computed it, and the inline height it follows. */
const bodyMotion = (page: Page) =>
  page.getByTestId('latch-modal-body').evaluate((body) => {
    const style = getComputedStyle(body);
    return { property: style.transitionProperty, duration: style.transitionDuration, height: (body as HTMLElement).style.height };
  });

test('the modal body animates its height over 150 ms between views', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId('all-wallets')).toBeVisible();
  const connect = await bodyMotion(page);
  expect(connect).toMatchObject({ property: 'height', duration: '0.15s' });
  expect(connect.height).toMatch(/^\d+(\.\d+)?px$/);

  // A view of another height starts a running height transition on the body.
  const running = await page.evaluate(async () => {
    const body = document.querySelector<HTMLElement>('[data-testid="latch-modal-body"]')!;
    const transitions: string[] = [];
    body.addEventListener('transitionrun', (event) => transitions.push((event as TransitionEvent).propertyName));
    document.querySelector<HTMLElement>('[data-testid="all-wallets"]')!.click();
    for (let i = 0; i < 60 && transitions.length === 0; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    return transitions;
  });
  expect(running).toContain('height');
  await expect.poll(async () => (await bodyMotion(page)).height).not.toBe(connect.height);
});

test('prefers-reduced-motion turns the height transition off', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId('all-wallets')).toBeVisible();
  expect(await bodyMotion(page)).toMatchObject({ duration: '0s' });
  expect(await page.getByTestId('latch-modal').evaluate((modal) => getComputedStyle(modal).animationName)).toBe('none');
});
