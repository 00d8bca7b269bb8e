import type { MessageKey, Messages } from './en.js';
import { enPage } from './enPage.js';

export type { MessageKey, Messages };

/**
 * Every locale the modal speaks. A page ships with `enPage` (what shows before the modal); every
 * whole catalogue, English included, is a chunk loaded with the modal or when chosen.
 */
export const LOCALES = ['en', 'de', 'es', 'fr', 'pt', 'ja', 'zh-CN', 'ko', 'tr', 'ru'] as const;

export type Locale = (typeof LOCALES)[number];

// One dynamic import per locale, so a page pays only for the catalogue it shows.
const lazyCatalogues: Record<Locale, () => Promise<Messages>> = {
  en: () => import('./en.js').then((module) => module.en),
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

// Catalogues already loaded, so a later Latch instance (or a re-render) needs no wait: a cache of
// code, like the module system's own; no state of any instance.
const loadedCatalogues = new Map<Locale, Messages>();

/** The whole catalogue of a locale, from its own chunk. */
export async function loadCatalogue(locale: Locale): Promise<Messages> {
  const catalogue = await lazyCatalogues[locale]();
  loadedCatalogues.set(locale, catalogue);
  return catalogue;
}

/** A catalogue `loadCatalogue` has already loaded on this page. */
export function loadedCatalogue(locale: Locale): Messages | undefined {
  return loadedCatalogues.get(locale);
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

/**
 * The page's English with the host's overrides: what shows until a whole catalogue has loaded.
 * Only the `enPage` keys are there; the modal waits for its catalogue (`LocaleController.ready`).
 */
export function pageEnglishWith(overrides: Partial<Messages> = {}): Messages {
  return { ...enPage, ...overrides } as Messages;
}

/** Replaces each `{name}` in a template with `values.name`; unknown names stay visible. */
export function interpolate(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

export type Translate = (key: MessageKey, values?: Record<string, string>) => string;

export function createTranslate(messages: Messages | (() => Messages)): Translate {
  const current = typeof messages === 'function' ? messages : () => messages;
  // A key whose catalogue has not loaded shows as itself rather than breaking the page.
  return (key, values) => interpolate(current()[key] ?? key, values);
}
