// Issue 32: every locale the modal speaks, switched at runtime from the demo's picker
// (latch.setLocale). Each catalogue but English is its own chunk, loaded when chosen; the
// expected texts come straight from the package's catalogues.
import { expect, test } from '@playwright/test';
import { axeViolations } from '../fixtures/axe.js';
import { de } from '../../packages/react/src/locales/de.js';
import { en, type Messages } from '../../packages/react/src/locales/en.js';
import { es } from '../../packages/react/src/locales/es.js';
import { fr } from '../../packages/react/src/locales/fr.js';
import { LOCALES, type Locale } from '../../packages/react/src/locales/index.js';
import { ja } from '../../packages/react/src/locales/ja.js';
import { ko } from '../../packages/react/src/locales/ko.js';
import { pt } from '../../packages/react/src/locales/pt.js';
import { ru } from '../../packages/react/src/locales/ru.js';
import { tr } from '../../packages/react/src/locales/tr.js';
import { zhCN } from '../../packages/react/src/locales/zh-CN.js';

const catalogues: Record<Locale, Messages> = { en, de, es, fr, pt, ja, 'zh-CN': zhCN, ko, tr, ru };
/** The CJK locale whose dialog axe audits (glyphs, lang= and contrast in another script). */
const AUDITED: Locale = 'ja';

test('switches the modal through every locale from the demo picker, a screenshot each', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const chunks: string[] = [];
  page.on('request', (request) => {
    const chunk = /\/assets\/(de|es|fr|pt|ja|zh-CN|ko|tr|ru)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname);
    if (chunk) chunks.push(chunk[1]!);
  });
  await page.goto('/');
  const picker = page.getByTestId('demo-locale');
  const button = page.getByTestId('connect-button');
  const modal = page.getByTestId('latch-modal');
  expect(await picker.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([...LOCALES]);

  for (const locale of LOCALES) {
    const messages = catalogues[locale];
    await picker.selectOption(locale);
    await expect(button).toHaveText(messages.connectWallet);
    await expect(button).toHaveAttribute('lang', locale);
    await button.click();
    await expect(modal).toBeVisible();
    await expect(page.getByRole('dialog', { name: messages.connectTitle })).toBeVisible();
    await expect(modal.locator('.latch-header-title')).toHaveText(messages.connectTitle);
    await expect(page.getByTestId('modal-close')).toHaveAttribute('aria-label', messages.close);
    await testInfo.attach(`connect-${locale}.png`, { body: await page.screenshot(), contentType: 'image/png' });
    if (locale === AUDITED) expect(await axeViolations(modal), `${locale} Connect view is axe-clean`).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
  }
  // English ships with the page; each other catalogue came as its own chunk, once.
  expect(chunks.sort()).toEqual(LOCALES.filter((locale) => locale !== 'en').sort());
});
