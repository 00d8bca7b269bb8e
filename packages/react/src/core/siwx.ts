import { parseCaipAddress, parseCaipNetworkId } from '@latch/wasm';
import type { ConnectionController } from './connection.js';
import type { EventBus } from './events.js';
import { currentView, type ModalController, type ViewName } from './modal.js';
import { mayCloseSignIn, SIGN_IN_VIEWS, SiwxError } from './signIn.js';
import { HttpError } from './gateway.js';
import { declinedByUser } from './walletErrors.js';
import { createStore, type Store } from './store.js';
import type { ToastController } from './toasts.js';
import type { CaipAddress, CaipNetworkId, Network } from './types.js';
import type { MessageKey } from '../locales/index.js';

/** A verified sign-in (behaviour 4.3 "Sign-in session"). */
export interface SiwxSession {
  /** The CAIP-10 account that signed. */
  account: CaipAddress;
  /** The CAIP-2 network of the message. */
  chainId: CaipNetworkId;
  /** The signed message, exactly as signed. */
  message: string;
  signature: string;
  /** Unix milliseconds after which the session no longer counts, when the adapter knows. */
  expiresAt?: number;
  /** The adapter's id for the session, when it has one. */
  id?: string;
}

/** What a sign-in message is made from. */
export interface SiwxMessageInput {
  account: CaipAddress;
  /** The account's address as the message writes it (EIP-55 for eip155). */
  address: string;
  chainId: CaipNetworkId;
  nonce: string;
  /** RFC 3986 authority of the page, e.g. `app.example.com`. */
  domain: string;
  /** The page's URI. */
  uri: string;
  statement?: string;
  /** RFC 3339. */
  issuedAt: string;
  /** RFC 3339. */
  expirationTime?: string;
}

/**
 * How sign-in talks to a backend. The default talks to the Latch server
 * (`createLatchAuthentication`); a host with its own backend passes its own.
 */
export interface AuthenticationAdapter {
  getNonce(input: { account: CaipAddress; domain: string }): Promise<string>;
  createMessage(input: SiwxMessageInput): string | Promise<string>;
  /** Verifies the signed message and opens a session; throws when refused. */
  verify(input: { account: CaipAddress; message: string; signature: string }): Promise<SiwxSession>;
  /** The still valid session of `account`, if any. Without it, every connection asks to sign in. */
  getSession?(account: CaipAddress): Promise<SiwxSession | null>;
  signOut(): Promise<void>;
}

/** The `siwx` option. */
export interface SiwxOptions {
  /** Defaults to the Latch server's sign-in endpoints. */
  adapter?: AuthenticationAdapter;
  /** Required mode: a connected visitor must sign in; sign-in views cannot be closed without a session. */
  required?: boolean;
  /** The message's statement line. */
  statement?: string;
}

/** The legacy `siweConfig` option (EIP-4361 only), kept for hosts migrating from it. */
export interface SiweConfig {
  getNonce(address?: string): Promise<string>;
  createMessage(input: {
    address: string;
    chainId: number;
    nonce: string;
    domain: string;
    uri: string;
    version: '1';
    statement?: string;
    issuedAt: string;
    expirationTime?: string;
  }): string;
  verifyMessage(input: { message: string; signature: string }): Promise<boolean>;
  getSession(): Promise<{ address: string; chainId: number } | null>;
  signOut(): Promise<boolean>;
  required?: boolean;
  statement?: string;
}

export type SiwxStatus = 'loading' | 'unauthenticated' | 'authenticated';

export interface SiwxState {
  /** False when neither `siwx` nor `siweConfig` is set. */
  enabled: boolean;
  status: SiwxStatus;
  session?: SiwxSession;
  /** True from asking the backend for a nonce until the session is verified or refused. */
  signing: boolean;
  /** Why the last attempt failed, shown in SIWXSignMessage until the next attempt. */
  error?: MessageKey;
}

export interface SiwxController {
  store: Store<SiwxState>;
  /** Asks the wallet to sign a fresh message and opens a session. */
  signIn(): Promise<void>;
  /** The SIWXSignMessage cancel button: disconnects in required mode, else closes the modal. */
  cancel(): void;
  signOut(): Promise<void>;
  /** False while a required sign-in view is showing and no session exists: the modal stays open. */
  mayClose(): boolean;
}

export { SIGN_IN_VIEWS, SiwxError } from './signIn.js';


/** The Latch server's refusals of a message whose times do not fit its clock (behaviour 4.8). */
const CLOCK_CODES = new Set(['SESSION_EXPIRED', 'ISSUED_AT_OUT_OF_WINDOW']);

/**
 * Whether a refusal is behaviour 4.8's "Session Expired" (expired, not valid yet, or signed too far
 * from the verifier's clock): the Latch server's codes, or latch-core's words (`checkSiweTimes`)
 * from a host's own adapter.
 */
export function sessionExpired(cause: unknown): boolean {
  if (cause instanceof HttpError && cause.code && CLOCK_CODES.has(cause.code)) return true;
  const message = cause instanceof Error ? cause.message : '';
  return /^Session (Expired|not yet valid)/.test(message);
}

/** Adapts the legacy `siweConfig` to the adapter shape. */
export function siweConfigAdapter(config: SiweConfig): AuthenticationAdapter {
  return {
    getNonce: ({ account }) => config.getNonce(addressOf(account)),
    createMessage: (input) =>
      config.createMessage({
        address: input.address,
        chainId: Number(parseCaipNetworkId(input.chainId).reference),
        nonce: input.nonce,
        domain: input.domain,
        uri: input.uri,
        version: '1',
        statement: input.statement,
        issuedAt: input.issuedAt,
        expirationTime: input.expirationTime,
      }),
    async verify({ account, message, signature }) {
      if (!(await config.verifyMessage({ message, signature }))) throw new SiwxError('The signature was refused');
      return { account, chainId: networkOf(account), message, signature };
    },
    async getSession(account) {
      const session = await config.getSession();
      if (!session) return null;
      const sameAccount =
        session.address.toLowerCase() === addressOf(account).toLowerCase() &&
        `eip155:${session.chainId}` === networkOf(account);
      return sameAccount ? { account, chainId: networkOf(account), message: '', signature: '' } : null;
    },
    async signOut() {
      await config.signOut();
    },
  };
}

// CAIP ids are split by latch-core (the adapter runs after connecting, so the module is loaded).
const addressOf = (account: CaipAddress) => parseCaipAddress(account).address;
const networkOf = (account: CaipAddress) => parseCaipAddress(account).caipNetworkId as CaipNetworkId;

/** Whether a session belongs to the connected account (eip155 addresses compare case-insensitively). */
export function sessionMatches(session: SiwxSession, account: CaipAddress): boolean {
  if (session.account === account) return true;
  return parseCaipAddress(account).namespace === 'eip155' && session.account.toLowerCase() === account.toLowerCase();
}

export function createSiwxController({
  adapter,
  options,
  connection,
  modal,
  toasts,
  events,
  networks,
  location,
  now = () => Date.now(),
  store = createStore<SiwxState>({ enabled: adapter !== undefined, status: 'unauthenticated', signing: false }),
}: {
  /** Undefined when sign-in is off. */
  adapter: AuthenticationAdapter | undefined;
  options: { required?: boolean; statement?: string };
  connection: ConnectionController;
  modal: ModalController;
  toasts: ToastController;
  events: EventBus;
  networks: readonly Network[];
  /** The page's location, read when signing (never at creation, for SSR). */
  location: () => Pick<Location, 'host' | 'origin'>;
  now?: () => number;
  /** The state, when the caller made it before this controller's chunk loaded (`signIn.ts`). */
  store?: Store<SiwxState>;
}): SiwxController {
  const { account } = connection;
  // Counters let an answer about an account the visitor has since left be ignored.
  let evaluation = 0;
  let attempt = 0;
  // Whether a session was opened or found since the last sign-out: a disconnect then signs out.
  let hadSession = false;
  store.subscribe(() => {
    if (store.getState().status === 'authenticated') hadSession = true;
  });

  const isSupported = (caipNetworkId: CaipNetworkId | undefined) =>
    networks.some((network) => network.caipNetworkId === caipNetworkId);
  const isConnected = () => connection.connection.getState().status === 'connected';
  const required = () => adapter !== undefined && options.required === true;

  /** Behaviour 4.4: a wallet paired over WalletConnect signs in on ConnectingSiwe (the request goes to its app). */
  function signInView(): ViewName {
    const { connectors, activeConnectorId } = connection.connection.getState();
    const connector = connectors.find(({ id }) => id === activeConnectorId);
    return connector?.type === 'WALLET_CONNECT' ? 'ConnectingSiwe' : 'SIWXSignMessage';
  }

  function showSignIn() {
    const view = signInView();
    if (modal.store.getState().open) modal.reset(view);
    else modal.open({ view });
  }

  /** Behaviour 4.5: after connecting to a supported network without a session, SIWXSignMessage opens. */
  async function evaluate() {
    const run = ++evaluation;
    const { caipAddress, caipNetworkId } = account.getState();
    if (!adapter || !caipAddress || !isSupported(caipNetworkId)) {
      attempt++;
      store.setState({ status: 'unauthenticated', session: undefined, signing: false, error: undefined });
      return;
    }
    const current = store.getState().session;
    if (current && sessionMatches(current, caipAddress)) return;
    store.setState({ status: 'loading', session: undefined, error: undefined });
    let session: SiwxSession | null = null;
    try {
      session = (await adapter.getSession?.(caipAddress)) ?? null;
    } catch {
      // A backend that cannot answer is treated as "no session": the visitor signs in again.
    }
    if (run !== evaluation) return;
    // Behaviour 4.8: a session past its end is not used; the visitor is told why they sign again.
    const expired = session?.expiresAt !== undefined && session.expiresAt <= now();
    if (session && !expired && sessionMatches(session, caipAddress)) {
      store.setState({ status: 'authenticated', session });
      return;
    }
    store.setState({ status: 'unauthenticated', error: expired ? 'sessionExpired' : undefined });
    if (isConnected()) showSignIn();
  }

  let lastAccount: CaipAddress | undefined;
  account.subscribe(() => {
    const { caipAddress } = account.getState();
    if (caipAddress === lastAccount) return;
    lastAccount = caipAddress;
    void evaluate();
  });
  // Connecting sets the account before the connection counts as connected; evaluate again then.
  let wasConnected = false;
  connection.connection.subscribe(() => {
    const connected = isConnected();
    if (connected && !wasConnected && store.getState().status === 'unauthenticated') void evaluate();
    wasConnected = connected;
  });

  // Created after its chunk loaded, a restored wallet may already be connected: start from what is.
  wasConnected = isConnected();
  if (account.getState().caipAddress) {
    lastAccount = account.getState().caipAddress;
    void evaluate();
  } else if (store.getState().status === 'loading') {
    store.setState({ status: 'unauthenticated' });
  }

  events.subscribe((event) => {
    // An explicit disconnect ends the sign-in too: the next visitor of a shared device starts clean.
    if (event.type !== 'DISCONNECT_SUCCESS' || !adapter) return;
    attempt++;
    store.setState({ status: 'unauthenticated', session: undefined, signing: false, error: undefined });
    if (hadSession) adapter.signOut().catch(() => undefined);
    hadSession = false;
  });

  function fail(error: MessageKey, message: string) {
    store.setState({ signing: false, error });
    events.emit({ type: 'SIWX_AUTH_ERROR', data: { message } });
    // Behaviour 4.5: failure reopens the view and shows the error.
    if (!SIGN_IN_VIEWS.includes(currentView(modal.store.getState())) || !modal.store.getState().open) showSignIn();
  }

  async function signIn() {
    if (!adapter) throw new SiwxError('SIWX is not enabled');
    const { caipAddress, address, caipNetworkId } = account.getState();
    if (!caipAddress || !address) throw new SiwxError('No ActiveCaipAddress found');
    if (!caipNetworkId || !isSupported(caipNetworkId)) throw new SiwxError('No ActiveCaipNetwork or client found');
    const run = ++attempt;
    store.setState({ signing: true, error: undefined });

    let message: string;
    try {
      const { host, origin } = location();
      const nonce = await adapter.getNonce({ account: caipAddress, domain: host });
      message = await adapter.createMessage({
        account: caipAddress,
        address,
        chainId: caipNetworkId,
        nonce,
        domain: host,
        uri: origin,
        statement: options.statement,
        issuedAt: new Date().toISOString(),
      });
    } catch (cause) {
      if (run !== attempt) return;
      // Behaviour 4.7: this toast also disconnects and resets to Connect.
      store.setState({ signing: false });
      events.emit({ type: 'SIWX_AUTH_ERROR', data: { message: reason(cause) } });
      toasts.show({ variant: 'error', message: 'signInInitFailed' });
      connection.disconnect();
      modal.reset('Connect');
      return;
    }

    let signature: string;
    try {
      signature = await connection.signMessage(message);
    } catch (cause) {
      if (run !== attempt) return;
      const rejected = declinedByUser(cause);
      if (rejected) toasts.show({ variant: 'error', message: 'signatureDeclined' });
      fail(rejected ? 'signatureDeclined' : 'signInFailed', reason(cause));
      return;
    }

    let session: SiwxSession;
    try {
      session = await adapter.verify({ account: caipAddress, message, signature });
    } catch (cause) {
      if (run !== attempt) return;
      fail(sessionExpired(cause) ? 'sessionExpired' : 'signInRefused', reason(cause));
      return;
    }
    if (run !== attempt) return;
    store.setState({ status: 'authenticated', session, signing: false, error: undefined });
    events.emit({ type: 'SIWX_AUTH_SUCCESS', data: { caipNetworkId }, address });
    // Behaviour 4.5: success adds the session and closes the modal.
    modal.close();
  }

  return {
    store,
    signIn,
    cancel() {
      attempt++;
      store.setState({ signing: false, error: undefined });
      if (required()) connection.disconnect();
      else modal.close();
    },
    async signOut() {
      if (!adapter) throw new SiwxError('SIWX is not enabled');
      attempt++;
      store.setState({ status: 'unauthenticated', session: undefined, signing: false, error: undefined });
      hadSession = false;
      await adapter.signOut();
      // In required mode a connected visitor without a session is not allowed: sign out disconnects.
      if (required() && isConnected()) connection.disconnect();
    },
    mayClose: () => mayCloseSignIn(required(), isConnected(), store, modal),
  };
}

function reason(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
