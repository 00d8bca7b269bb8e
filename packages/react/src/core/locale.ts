import {
  createTranslate,
  loadCatalogue,
  loadedCatalogue,
  negotiateLocale,
  pageEnglishWith,
  type Locale,
  type Messages,
  type Translate,
} from '../locales/index.js';
import { createStore, type Store } from './store.js';

export interface LocaleState {
  /** The locale whose catalogue the modal shows now. */
  locale: Locale;
  messages: Messages;
  /** Whether `messages` is the locale's whole catalogue, not only the page's English. */
  complete: boolean;
}

export interface LocaleController {
  readonly store: Store<LocaleState>;
  readonly t: Translate;
  /** Loads a locale's catalogue (or the browser's choice for `'auto'`) and shows it. */
  setLocale(locale: Locale | 'auto'): Promise<void>;
  /** Resolves once the chosen locale's whole catalogue shows (the modal waits for it). */
  ready(): Promise<void>;
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
 * The modal's language. The page starts with the English it needs before the modal (all a server
 * render shows); whole catalogues, English too, are chunks: the modal's opening waits for the
 * chosen one (`ready`), and another locale chosen at start shows once it arrives. A host that must
 * show another language from the first frame passes that catalogue as `messages`.
 */
export function createLocale({ locale, overrides = {}, languages }: LocaleOptions): LocaleController {
  let wanted: Locale = locale === 'auto' ? negotiateLocale(languages()) : locale;
  const loaded = loadedCatalogue(wanted);
  const store = createStore<LocaleState>(
    loaded
      ? { locale: wanted, messages: { ...loaded, ...overrides }, complete: true }
      : { locale: 'en', messages: pageEnglishWith(overrides), complete: false },
  );
  let latestRequest = 0;

  async function setLocale(requested: Locale | 'auto'): Promise<void> {
    const target = requested === 'auto' ? negotiateLocale(languages()) : requested;
    wanted = target;
    const request = ++latestRequest;
    const catalogue = await loadCatalogue(target);
    // A later choice wins even when its catalogue arrived first.
    if (request !== latestRequest) return;
    store.setState({ locale: target, messages: { ...catalogue, ...overrides }, complete: true });
  }

  function ready(): Promise<void> {
    const { locale: shown, complete } = store.getState();
    return complete && shown === wanted ? Promise.resolve() : setLocale(wanted);
  }

  // A catalogue that fails to load leaves the page's English; the modal's opening tries again.
  if (!loaded && wanted !== 'en') setLocale(wanted).catch(() => undefined);

  return { store, t: createTranslate(() => store.getState().messages), setLocale, ready };
}

/** `navigator.languages` where there is a browser; none on a server. */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}
