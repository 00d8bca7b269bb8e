// Issue 30, the first click in a fresh browser: while the page is idle the modal is rendered
// ahead as an unseen standby, and the click shows that same tree, its entrance starting then.
import { expect, test } from '@playwright/test';
import { axeViolations } from '../fixtures/axe.js';

test('the modal rendered ahead is unseen and out of reach; the first click shows it, its entrance timed from the click', async ({ page }) => {
  await page.goto('/');
  const root = page.locator('.latch-root[data-standby]');
  await expect(root).toHaveCount(1, { timeout: 10_000 });
  const standby = page.getByTestId('latch-modal');
  // Transparent (Playwright counts an element at opacity 0 as visible; the browser does not).
  const rendered = () => standby.evaluate((element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
  expect(await rendered()).toBe(false);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await axeViolations(page.locator('body')), 'the page with the standby is axe-clean').toEqual([]);

  // Keyboard: Tab goes round the page's own controls and never into the standby.
  const button = page.getByTestId('connect-button');
  await button.focus();
  const focusables = await page.evaluate(() => document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]').length);
  for (let i = 0; i < focusables + 2; i++) {
    await page.keyboard.press('Tab');
    expect(await root.evaluate((element) => element.contains(document.activeElement))).toBe(false);
  }

  // The pointer reaches the page through it (Playwright's click checks nothing covers the button).
  await standby.evaluate((element) => ((element as unknown as { mark: boolean }).mark = true));
  // The click's timestamp, and the dialog's animations as the opening has committed them.
  const opening = page.evaluate(
    () =>
      new Promise<{ click: number; starts: number[] }>((resolve) => {
        let click = NaN;
        addEventListener('click', (event) => (click = event.timeStamp), { capture: true, once: true });
        new MutationObserver((_, observer) => {
          const dialog = document.querySelector('[data-testid="latch-modal"][data-state="open"]');
          if (!dialog) return;
          observer.disconnect();
          resolve({ click, starts: dialog.getAnimations().map((animation) => Number(animation.startTime)) });
        }).observe(document.body, { subtree: true, attributes: true });
      }),
  );
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet' });
  await expect(dialog).toBeVisible();
  expect(await rendered()).toBe(true);
  expect(await dialog.evaluate((element) => (element as unknown as { mark?: boolean }).mark), 'the same tree, shown').toBe(true);
  await expect(page.locator('.latch-root[data-standby]')).toHaveCount(0);
  await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

  // Behaviour 1.8: the movement (150 ms) and the fade start with the opening, not frames later.
  const { click, starts } = await opening;
  expect(starts.length).toBe(2);
  for (const start of starts) {
    expect(start).toBeGreaterThanOrEqual(click);
    expect(start - click).toBeLessThan(100);
  }
  expect(await axeViolations(dialog), 'Connect view is axe-clean').toEqual([]);

  // Closed, the modal is gone and focus is back on the button; the next opening mounts it again.
  await page.keyboard.press('Escape');
  await expect(standby).toHaveCount(0);
  await expect(button).toBeFocused();
  await button.click();
  await expect(dialog).toBeVisible();
});
