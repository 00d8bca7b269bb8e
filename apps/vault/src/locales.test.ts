import { describe, expect, it } from 'vitest';
import { format, loadPanelLocale, PANEL_LOCALES, type PanelKey, type PanelMessages, panelMessages } from './locales';

// Every table: English, and each chunk of panelLocales/.
const PANEL_MESSAGES: Record<string, PanelMessages> = {
  en: panelMessages('en'),
  ...Object.fromEntries(
    Object.entries(import.meta.glob<PanelMessages>('./panelLocales/*.ts', { import: 'default', eager: true })).map(([path, table]) => [
      /([^/]+)\.ts$/.exec(path)![1]!,
      table,
    ]),
  ),
};

// The modal's catalogues as text (read, not imported: the frame never bundles them).
const modal = import.meta.glob<string>('../../../packages/react/src/locales/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The modal's locales: its LOCALES list in locales/index.ts. */
function modalLocales(): string[] {
  const index = Object.entries(modal).find(([path]) => path.endsWith('/index.ts'))?.[1] ?? '';
  const list = /export const LOCALES = \[([^\]]*)\]/.exec(index)?.[1] ?? '';
  return [...list.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

/** A key's text in the modal's catalogue of `locale`. */
function modalText(locale: string, key: string): string | undefined {
  const source = Object.entries(modal).find(([path]) => path.endsWith(`/${locale}.ts`))?.[1] ?? '';
  return new RegExp(`\\b${key}: '([^']*)'`).exec(source)?.[1];
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the approval panel in every locale', () => {
  it('has a table for each of the modal locales and no other', () => {
    const locales = modalLocales();
    expect(locales).toHaveLength(10);
    expect(Object.keys(PANEL_MESSAGES).sort()).toEqual([...locales].sort());
    expect([...PANEL_LOCALES].sort()).toEqual([...locales].sort());
  });

  it('fills every key in every locale, with the same placeholders as English', () => {
    const keys = Object.keys(PANEL_MESSAGES.en!).sort() as PanelKey[];
    for (const [locale, messages] of Object.entries(PANEL_MESSAGES)) {
      expect(Object.keys(messages).sort(), locale).toEqual(keys);
      for (const key of keys) {
        expect(messages[key].trim(), `${locale}.${key}`).not.toBe('');
        expect(placeholders(messages[key]), `${locale}.${key}`).toEqual(placeholders(PANEL_MESSAGES.en![key]));
      }
    }
  });

  it('says "To" as the modal does (its sendReceiver)', () => {
    for (const [locale, messages] of Object.entries(PANEL_MESSAGES)) {
      expect(messages.to, locale).toBe(modalText(locale, 'sendReceiver'));
    }
  });

  it('picks the exact tag, then its language, else English, once loaded', async () => {
    // Not loaded yet: English.
    expect(panelMessages('zh-CN').reject).toBe('Reject');
    for (const locale of ['zh-CN', 'de-AT', 'pt-BR', 'xx', 'fr', null]) await loadPanelLocale(locale);
    expect(panelMessages('zh-CN').reject).toBe('拒绝');
    expect(panelMessages('de-AT').reject).toBe('Ablehnen');
    expect(panelMessages('pt-BR').sign).toBe('Assinar');
    expect(panelMessages('xx').reject).toBe('Reject');
    expect(panelMessages(null).reject).toBe('Reject');
    expect(format(panelMessages('fr').requestedBy, { origin: 'https://shop.example' })).toBe('Demandé par https://shop.example');
  });
});
