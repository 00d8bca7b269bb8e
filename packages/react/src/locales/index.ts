import { en, type MessageKey, type Messages } from './en.js';

export type { MessageKey, Messages };

/** Every locale the modal speaks. English ships with the page; the others load when chosen. */
export const LOCALES = ['en', 'de'] as const;

export type Locale = (typeof LOCALES)[number];

// One dynamic import per locale, so a page pays only for the catalogue it shows.
const lazyCatalogues: Record<Exclude<Locale, 'en'>, () => Promise<Messages>> = {
  de: () => import('./de.js').then((module) => module.de),
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
 * modal speaks: an exact tag first (`de`), else its language (`de-AT` → `de`); English otherwise.
 */
export function negotiateLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    const exact = LOCALES.find((locale) => locale.toLowerCase() === lower);
    if (exact) return exact;
    const language = LOCALES.find((locale) => locale.toLowerCase() === lower.split('-')[0]);
    if (language) return language;
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
