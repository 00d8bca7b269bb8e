import {
  ConnectButton,
  createLatch,
  LatchProvider,
  LOCALES,
  NetworkButton,
  useLatch,
  useLatchNetwork,
  useLatchSIWX,
  type Locale,
} from '@latch/react';
import { lazy, StrictMode, Suspense, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { latchDevnet, latchDevnetB, solanaDevnet } from '../../shared/devnets.js';
import '../../shared/page.css';

const query = new URLSearchParams(window.location.search);
/** `?signIn=optional|required` turns on sign-in with the wallet against this Latch server. */
const signInMode = query.get('signIn');
/** `?runtimeNetworks` starts without Latch Devnet B: the page adds it with `latch.addNetwork`. */
const runtimeNetworks = query.has('runtimeNetworks');

const latch = createLatch({
  // `?projectId=` tries the page with another project of the same server.
  projectId: query.get('projectId') ?? 'demo',
  networks: runtimeNetworks ? [latchDevnet, solanaDevnet] : [latchDevnet, latchDevnetB, solanaDevnet],
  // `?theme=light` shows the light theme (the default is dark).
  themeMode: query.get('theme') === 'light' ? 'light' : undefined,
  // `?allowUnsupportedChain=1`: a wallet on a network not listed here stays connected, shown as unsupported.
  allowUnsupportedChain: query.get('allowUnsupportedChain') === '1',
  // Unset in production, where the Latch server serves this page and the API on one origin;
  // set it when running `vite` against a separately started server.
  serverUrl: import.meta.env.VITE_LATCH_SERVER_URL,
  // The embedded wallet's frame: `latch --dev` serves it on its own origin, the API's port + 2.
  embeddedWallet: {
    vaultUrl: import.meta.env.VITE_LATCH_VAULT_URL ?? `http://127.0.0.1:${Number(location.port || 80) + 2}/`,
  },
  siwx:
    signInMode === 'optional' || signInMode === 'required'
      ? { required: signInMode === 'required', statement: 'Sign in to the Latch demo.' }
      : undefined,
});

function LatchState() {
  const { status, caipAddress, balance, balanceSymbol } = useLatch();
  const { activeNetwork } = useLatchNetwork();
  return (
    <dl className="state" aria-label="Latch state">
      <dt>status</dt>
      <dd data-testid="state-status">{status}</dd>
      <dt>caipAddress</dt>
      <dd data-testid="state-caip-address">{caipAddress ?? '—'}</dd>
      <dt>active network</dt>
      <dd data-testid="state-active-network">{activeNetwork.caipNetworkId}</dd>
      <dt>balance</dt>
      <dd data-testid="state-balance">{balance === undefined ? '—' : `${balance} ${balanceSymbol}`}</dd>
    </dl>
  );
}

function SignInState() {
  const { enabled, status, session, signOut } = useLatchSIWX();
  const { status: connection } = useLatch();
  if (!enabled) {
    return (
      <p>
        Sign-in with the wallet is off. Try it: <a href="?signIn=optional">optional</a> or{' '}
        <a href="?signIn=required">required</a>.
      </p>
    );
  }
  return (
    <section aria-label="Sign-in">
      <dl className="state">
        <dt>sign-in</dt>
        <dd data-testid="siwx-status">{status}</dd>
        <dt>session account</dt>
        <dd data-testid="siwx-account">{session?.account ?? '—'}</dd>
        <dt>session expires</dt>
        <dd data-testid="siwx-expires">{session?.expiresAt ? new Date(session.expiresAt).toISOString() : '—'}</dd>
      </dl>
      {status === 'authenticated' ? (
        <button type="button" data-testid="siwx-sign-out" onClick={() => void signOut()}>
          Sign out
        </button>
      ) : connection === 'connected' ? (
        <button type="button" data-testid="siwx-sign-in" onClick={() => latch.modal.open({ view: 'SIWXSignMessage' })}>
          Sign in
        </button>
      ) : null}
      <p>
        <a href="/">Sign-in off</a> · <a href="?signIn=optional">optional</a> · <a href="?signIn=required">required</a>
      </p>
    </section>
  );
}

/** Each locale in its own language, as a visitor looks for it. */
const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  pt: 'Português (Brasil)',
  ja: '日本語',
  'zh-CN': '简体中文',
  ko: '한국어',
  tr: 'Türkçe',
  ru: 'Русский',
};

/** `latch.setLocale`: the modal's language at runtime (each catalogue but English loads when chosen). */
function LocalePicker() {
  const locale = useSyncExternalStore(latch.locale.subscribe, () => latch.locale.getState().locale);
  return (
    <label className="locale-picker">
      Language{' '}
      <select data-testid="demo-locale" value={locale} onChange={(event) => void latch.setLocale(event.target.value as Locale)}>
        {LOCALES.map((id) => (
          <option key={id} value={id} lang={id}>
            {LOCALE_NAMES[id]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** `open({ namespace })`: a button that offers Solana wallets only. */
function ConnectSolana() {
  const { open, status } = useLatch();
  if (status === 'connected') return null;
  return (
    <button type="button" data-testid="connect-solana" onClick={() => open({ namespace: 'solana' })}>
      Connect a Solana wallet
    </button>
  );
}

// The host-signing showcase is its own chunk, loaded once a wallet is connected: it is not part
// of what the page needs before the first click (make bench-ui measures that).
const HostSigning = lazy(() => import('./HostSigning.js').then((module) => ({ default: module.HostSigning })));

// The showcase (ways in without a browser wallet, each feature) is a chunk of its own too.
const Showcase = lazy(() => import('./Showcase.js').then((module) => ({ default: module.Showcase })));

function HostSigningWhenConnected() {
  const { status } = useLatch();
  if (status !== 'connected') return null;
  return (
    <Suspense fallback={null}>
      <HostSigning latch={latch} extraNetwork={latchDevnetB} />
    </Suspense>
  );
}

function App() {
  return (
    <main>
      <h1>Latch demo</h1>
      <p>
        A host page using <code>@latch/react</code>. Connect a browser wallet on the Latch Devnet
        (eip155:31337), or a Solana wallet on the Latch Solana Devnet; the native balance is read
        through the Latch server's chain gateway. No browser wallet?{' '}
        <a href="#no-wallet-heading">Two ways in</a>.
      </p>
      <LocalePicker />
      <ConnectButton /> <NetworkButton /> <ConnectSolana />
      <LatchState />
      <SignInState />
      <HostSigningWhenConnected />
      <Suspense fallback={null}>
        <Showcase latch={latch} />
      </Suspense>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LatchProvider latch={latch}>
      <App />
    </LatchProvider>
  </StrictMode>,
);
