import {
  createTranslate,
  englishWith,
  loadCatalogue,
  negotiateLocale,
  type Locale,
  type Messages,
  type Translate,
} from '../locales/index.js';
import { createStore, type Store } from './store.js';

export interface LocaleState {
  /** The locale whose catalogue the modal shows now. */
  locale: Locale;
  messages: Messages;
}

export interface LocaleController {
  readonly store: Store<LocaleState>;
  readonly t: Translate;
  /** Loads a locale's catalogue (or the browser's choice for `'auto'`) and shows it. */
  setLocale(locale: Locale | 'auto'): Promise<void>;
}

export interface LocaleOptions {
  /** A locale, or `'auto'` for the visitor's browser languages. */
  locale: Locale | 'auto';
  /** The host's overrides, kept on top of every catalogue. */
  overrides?: Partial<Messages>;
  /** The visitor's preferred languages, best first. */
  languages: () => readonly string[];
}

/**
 * The modal's language. English is in the page from the start (and all a server render shows);
 * another locale's catalogue loads on its own, and the modal switches when it arrives. A host
 * that must show another language from the first frame passes that catalogue as `messages`.
 */
export function createLocale({ locale, overrides = {}, languages }: LocaleOptions): LocaleController {
  const store = createStore<LocaleState>({ locale: 'en', messages: englishWith(overrides) });
  let latestRequest = 0;

  async function setLocale(requested: Locale | 'auto'): Promise<void> {
    const target = requested === 'auto' ? negotiateLocale(languages()) : requested;
    const request = ++latestRequest;
    const catalogue = await loadCatalogue(target);
    // A later choice wins even when its catalogue arrived first.
    if (request !== latestRequest) return;
    store.setState({ locale: target, messages: { ...catalogue, ...overrides } });
  }

  const initial = locale === 'auto' ? negotiateLocale(languages()) : locale;
  // A catalogue that fails to load leaves the modal in English, which is complete.
  if (initial !== 'en') setLocale(initial).catch(() => undefined);

  return { store, t: createTranslate(() => store.getState().messages), setLocale };
}

/** `navigator.languages` where there is a browser; none on a server. */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}
