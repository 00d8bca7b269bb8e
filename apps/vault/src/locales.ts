// The approval panel's words in every locale the modal speaks (packages/react/src/locales): only
// the panel's strings, copied here, so the frame does not load the modal's whole catalogues.
// "To" is the modal's `sendReceiver`; the rest are the panel's own. The modal passes its locale
// in SYNC_DAPP_DATA; a locale the frame lacks shows English. English is here; each other locale is
// a chunk of its own (panelLocales/), fetched when the host names it, so the page every visitor
// loads carries one language rather than ten (BENCHMARKS.md "The wallet frame").

const en = {
  titleMessage: 'Sign message',
  titleTypedData: 'Sign typed data',
  titleTransaction: 'Approve transaction',
  requestedBy: 'Requested by {origin}',
  message: 'Message',
  messageHex: 'Message (hex)',
  type: 'Type',
  to: 'To',
  newContract: 'New contract',
  value: 'Value',
  tokenTransferTo: 'Token transfer to',
  tokenAmount: 'Token amount (base units)',
  reject: 'Reject',
  approve: 'Approve',
  sign: 'Sign',
  titleCalls: 'Approve {count} transactions',
  callNumber: 'Transaction {n} of {count}',
  recoverySetTitle: 'Set a recovery password',
  recoverySetHint: 'You need this password to use your wallet on a new device. It never leaves this secure frame and cannot be reset: keep it safe.',
  recoverySetSubmit: 'Save password',
  recoveryEnterTitle: 'Enter your recovery password',
  recoveryEnterHint: 'This is a new device: your recovery password unlocks your wallet here.',
  recoveryEnterSubmit: 'Unlock wallet',
  recoveryPassword: 'Recovery password',
  recoveryConfirm: 'Repeat the password',
  recoveryTooShort: 'Use at least {n} characters',
  recoveryMismatch: 'The passwords do not match',
  recoveryRequired: 'Required',
  recoverySaving: 'Saving…',
  recoveryUnlocking: 'Unlocking…',
  recoveryWrong: 'Wrong recovery password. {left} tries left.',
  recoveryWrongLast: 'Wrong recovery password. 1 try left.',
  titleSolanaSign: 'Sign transaction',
  titleSolanaSignAll: 'Sign {count} transactions',
  feePayer: 'Fee payer',
  recentBlockhash: 'Recent blockhash',
  solTransfer: 'SOL transfer',
  splTransfer: 'Token transfer',
  from: 'From',
  amount: 'Amount',
  mint: 'Token mint',
  program: 'Program',
  accounts: 'Accounts',
  dataBytes: 'Data: {n} bytes',
  lookupTables: 'Some accounts come from {count} lookup tables',
};

export type PanelKey = keyof typeof en;
export type PanelMessages = Record<PanelKey, string>;

/** The other locales' tables, one chunk each. */
const LOADERS: Record<string, () => Promise<{ default: PanelMessages }>> = {
  de: () => import('./panelLocales/de'),
  es: () => import('./panelLocales/es'),
  fr: () => import('./panelLocales/fr'),
  pt: () => import('./panelLocales/pt'),
  ja: () => import('./panelLocales/ja'),
  'zh-CN': () => import('./panelLocales/zh-CN'),
  ko: () => import('./panelLocales/ko'),
  tr: () => import('./panelLocales/tr'),
  ru: () => import('./panelLocales/ru'),
};

/** Every locale the panel speaks. */
export const PANEL_LOCALES = ['en', ...Object.keys(LOADERS)];

const loaded: Record<string, PanelMessages> = { en };

/** The table `locale` names: the exact tag, then its language (`pt-BR` → `pt`); null if none. */
function tagFor(locale: string): string | null {
  if (locale in LOADERS || locale === 'en') return locale;
  const language = locale.split('-')[0] ?? '';
  return language in LOADERS || language === 'en' ? language : null;
}

/**
 * Fetches `locale`'s table (SYNC_DAPP_DATA awaits it, so a panel shown after the host's answer
 * speaks it). A failed fetch leaves English and is tried again at the next call.
 */
export async function loadPanelLocale(locale: string | null | undefined): Promise<void> {
  const tag = locale ? tagFor(locale) : null;
  if (!tag || loaded[tag]) return;
  loaded[tag] = (await LOADERS[tag]!()).default;
}

/** The panel's words for `locale` once loaded (loadPanelLocale), else English. */
export function panelMessages(locale: string | null | undefined): PanelMessages {
  const tag = locale ? tagFor(locale) : null;
  return (tag && loaded[tag]) || en;
}

/** `template` with each `{name}` replaced by its value. */
export function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
