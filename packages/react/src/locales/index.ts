import { en, type MessageKey, type Messages } from './en.js';

export type { MessageKey, Messages };

/** Every locale the modal speaks. English ships with the page; the others load when chosen. */
export const LOCALES = ['en', 'de', 'es', 'fr', 'pt', 'ja', 'zh-CN', 'ko', 'tr', 'ru'] as const;

export type Locale = (typeof LOCALES)[number];

// One dynamic import per locale, so a page pays only for the catalogue it shows.
const lazyCatalogues: Record<Exclude<Locale, 'en'>, () => Promise<Messages>> = {
  de: () => import('./de.js').then((module) => module.de),
  es: () => import('./es.js').then((module) => module.es),
  fr: () => import('./fr.js').then((module) => module.fr),
  pt: () => import('./pt.js').then((module) => module.pt),
  ja: () => import('./ja.js').then((module) => module.ja),
  'zh-CN': () => import('./zh-CN.js').then((module) => module.zhCN),
  ko: () => import('./ko.js').then((module) => module.ko),
  tr: () => import('./tr.js').then((module) => module.tr),
  ru: () => import('./ru.js').then((module) => module.ru),
};

/** The catalogue of a locale: English at once, the others from their own chunk. */
export function loadCatalogue(locale: Locale): Promise<Messages> {
  return locale === 'en' ? Promise.resolve(en) : lazyCatalogues[locale]();
}

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/**
 * The first of the visitor's preferred languages (`navigator.languages`, best first) that the
 * modal speaks: an exact tag first (`de`, `zh-CN`), else the locale of its language (`de-AT` → `de`,
 * `pt-PT` → `pt`, `zh-TW` or `zh` → `zh-CN`); English otherwise.
 */
export function negotiateLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    const exact = LOCALES.find((locale) => locale.toLowerCase() === lower);
    if (exact) return exact;
    const language = lower.split('-')[0];
    const sameLanguage = LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === language);
    if (language && sameLanguage) return sameLanguage;
  }
  return 'en';
}

/** English with the host's overrides: what the modal shows until the chosen catalogue has loaded. */
export function englishWith(overrides: Partial<Messages> = {}): Messages {
  return { ...en, ...overrides };
}

/** Replaces each `{name}` in a template with `values.name`; unknown names stay visible. */
export function interpolate(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

export type Translate = (key: MessageKey, values?: Record<string, string>) => string;

export function createTranslate(messages: Messages | (() => Messages)): Translate {
  const current = typeof messages === 'function' ? messages : () => messages;
  return (key, values) => interpolate(current()[key], values);
}
