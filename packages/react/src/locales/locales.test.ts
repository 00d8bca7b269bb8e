import { beforeEach, describe, expect, it, vi } from 'vitest';
import { de } from './de.js';
import { en } from './en.js';
import { createTranslate, interpolate, loadCatalogue, LOCALES, negotiateLocale, pageEnglishWith } from './index.js';
import { enPage } from './enPage.js';

describe('messages', () => {
  it('interpolates {name} placeholders and leaves unknown ones visible', () => {
    expect(interpolate('Continue in {wallet}, {who}', { wallet: 'Test Wallet' })).toBe('Continue in Test Wallet, {who}');
  });

  it('translates through a catalogue with overrides', () => {
    const t = createTranslate({ ...de, retry: 'Nochmal' });
    expect(t('connectWallet')).toBe('Wallet verbinden');
    expect(t('retry')).toBe('Nochmal');
    expect(t('connectionFailed', { wallet: 'Test Wallet' })).toBe('Die Verbindung mit Test Wallet ist fehlgeschlagen.');
    expect(createTranslate(pageEnglishWith({ retry: 'Again' }))('retry')).toBe('Again');
    // A key whose catalogue has not loaded yet shows as itself.
    expect(createTranslate(pageEnglishWith())('sendTitle')).toBe('sendTitle');
  });

  it('keeps the page English a part of the English catalogue', () => {
    for (const [key, text] of Object.entries(enPage)) expect(en[key as keyof typeof en]).toBe(text);
  });

  it('keeps every catalogue complete and using the same placeholders', async () => {
    const placeholders = (text: string) => text.match(/\{\w+\}/g)?.sort() ?? [];
    for (const locale of LOCALES) {
      const catalogue = await loadCatalogue(locale);
      expect(Object.keys(catalogue).sort(), locale).toEqual(Object.keys(en).sort());
      for (const key of Object.keys(en) as (keyof typeof en)[]) {
        expect(placeholders(catalogue[key]), `${locale}.${key}`).toEqual(placeholders(en[key]));
        expect(catalogue[key].trim(), `${locale}.${key}`).not.toBe('');
      }
    }
  });

  it('picks the first browser language spoken, by tag then by language, else English', () => {
    expect(negotiateLocale(['nl-NL', 'de-CH', 'en'])).toBe('de');
    expect(negotiateLocale(['DE'])).toBe('de');
    expect(negotiateLocale(['en-GB', 'de'])).toBe('en');
    expect(negotiateLocale(['xx', ''])).toBe('en');
    expect(negotiateLocale([])).toBe('en');
  });

  it('matches every locale by its own tag and by language: zh-TW and zh → zh-CN, pt-PT → pt', () => {
    for (const locale of LOCALES) expect(negotiateLocale([locale.toUpperCase()])).toBe(locale);
    expect(negotiateLocale(['zh-CN'])).toBe('zh-CN');
    expect(negotiateLocale(['zh-TW', 'en'])).toBe('zh-CN');
    expect(negotiateLocale(['zh'])).toBe('zh-CN');
    expect(negotiateLocale(['zh-Hans-CN'])).toBe('zh-CN');
    expect(negotiateLocale(['pt-PT'])).toBe('pt');
    expect(negotiateLocale(['pt-BR'])).toBe('pt');
    expect(negotiateLocale(['es-MX'])).toBe('es');
    expect(negotiateLocale(['fr-CA'])).toBe('fr');
    expect(negotiateLocale(['ja-JP'])).toBe('ja');
    expect(negotiateLocale(['ko-KR'])).toBe('ko');
    expect(negotiateLocale(['tr-TR'])).toBe('tr');
    expect(negotiateLocale(['ru-RU'])).toBe('ru');
    expect(negotiateLocale(['nl', 'ja'])).toBe('ja');
    expect(negotiateLocale(['-CN'])).toBe('en');
  });

  it('names twelve months in every locale and keeps {month} and {year} in the year heading', async () => {
    for (const locale of LOCALES) {
      const catalogue = await loadCatalogue(locale);
      const months = Array.from({ length: 12 }, (_, i) => catalogue[`month${i + 1}` as keyof typeof en]);
      expect(new Set(months).size, locale).toBe(12);
    }
    expect((await loadCatalogue('ja')).activityMonthInYear).toBe('{year}年{month}');
  });

  it('loads each catalogue by its locale id, zh-CN included', async () => {
    expect((await loadCatalogue('zh-CN')).connectWallet).toBe('连接钱包');
    expect((await loadCatalogue('fr')).connectWallet).not.toBe(en.connectWallet);
    const texts = await Promise.all(LOCALES.map(async (locale) => (await loadCatalogue(locale)).connectWallet));
    expect(new Set(texts).size).toBe(LOCALES.length);
  });
});

describe('the locale controller', () => {
  // Each test starts with no catalogue loaded, as a page does.
  let createLocale: typeof import('../core/locale.js').createLocale;
  beforeEach(async () => {
    vi.resetModules();
    ({ createLocale } = await import('../core/locale.js'));
  });

  it('starts with the page English and switches once the chosen catalogue has loaded, overrides kept', async () => {
    const locale = createLocale({ locale: 'de', overrides: { retry: 'Nochmal' }, languages: () => [] });
    expect(locale.store.getState()).toMatchObject({ locale: 'en', complete: false });
    expect(locale.t('connectWallet')).toBe('Connect Wallet');
    await locale.ready();
    expect(locale.store.getState()).toMatchObject({ locale: 'de', complete: true });
    expect(locale.store.getState().locale).toBe('de');
    expect(locale.t('connectWallet')).toBe('Wallet verbinden');
    expect(locale.t('retry')).toBe('Nochmal');
  });

  it('loads the whole English catalogue when the modal asks for it', async () => {
    const locale = createLocale({ locale: 'en', languages: () => [] });
    expect(locale.t('sendTitle')).toBe('sendTitle');
    await locale.ready();
    expect(locale.store.getState().complete).toBe(true);
    expect(locale.t('sendTitle')).toBe(en.sendTitle);
  });

  it('lets the latest choice win when an earlier catalogue arrives later', async () => {
    const locale = createLocale({ locale: 'en', languages: () => ['de'] });
    const german = locale.setLocale('auto');
    const english = locale.setLocale('en');
    await Promise.all([german, english]);
    expect(locale.store.getState().locale).toBe('en');
  });
});
