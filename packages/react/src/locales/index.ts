import { de } from './de.js';
import { en, type MessageKey, type Messages } from './en.js';

export type { MessageKey, Messages };

const catalogues = { en, de } satisfies Record<string, Messages>;

export type Locale = keyof typeof catalogues;

export function resolveMessages(locale: Locale = 'en', overrides: Partial<Messages> = {}): Messages {
  return { ...catalogues[locale], ...overrides };
}

/** Replaces each `{name}` in a template with `values.name`; unknown names stay visible. */
export function interpolate(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

export type Translate = (key: MessageKey, values?: Record<string, string>) => string;

export function createTranslate(messages: Messages): Translate {
  return (key, values) => interpolate(messages[key], values);
}
