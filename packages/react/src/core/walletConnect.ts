import { canRetryPairing, init, isPairingNearExpiry, LATCH_CONSTANTS, pairingExpiry } from '@latch/wasm';
import type { CatalogueWallet } from './catalogue.js';
import type { ConnectionController } from './connection.js';
import type { ModalController } from './modal.js';
import { onceUntilFailure } from './onceUntilFailure.js';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import { createStore, type Store } from './store.js';
import type { Connector, Network } from './types.js';
import type * as Engine from '@latch/wasm-walletconnect';

/** The connector id of WalletConnect sessions (also what a reload looks for in storage). */
export const WALLET_CONNECT_CONNECTOR_ID = 'walletConnect';

/** The dapp as wallets show it in their approval screen. */
export type WalletConnectMetadata = Engine.WalletConnectMetadata;

export interface WalletConnectOptions {
  /** Defaults to the page's title, origin and nothing else. */
  metadata?: WalletConnectMetadata;
  /** Defaults to the Latch server's own relay (`ws(s)://<server>/relay`). */
  relayUrl?: string;
}

// The engine's generated declarations are the source of truth: these name only what Latch uses, so
// a changed signature in the façade fails the type check here (and `loadModule` needs no cast).
/** What Latch uses of `@latch/wasm-walletconnect`'s `WalletConnectProvider`. */
export type WalletConnectProvider = Pick<
  Engine.WalletConnectProvider,
  'session' | 'connect' | 'disconnect' | 'request' | 'on' | 'removeListener'
>;

/** What Latch uses of the `@latch/wasm-walletconnect` module. */
export interface WalletConnectModule extends Pick<typeof Engine, 'init' | 'qrCode'> {
  WalletConnectProvider: {
    create(options: Engine.WalletConnectProviderOptions): Promise<WalletConnectProvider>;
  };
}

export interface QrCode {
  /** Modules per side. */
  size: number;
  /** The dark modules as an SVG path in a `0 0 size size` box. */
  path: string;
}

/** Behaviour 2.5 "Connection state": wcUri, wcPairingExpiry, wcLinking, wcError. */
export interface WalletConnectState {
  /** `loading`: the engine or a pairing link is on its way; `ready`: the link is shown. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The pairing link the wallet scans or opens. */
  uri?: string;
  /** When the link stops being offered (Unix ms); a new one is made 10 s before. */
  pairingExpiry?: number;
  qr?: QrCode;
  /** The catalogue wallet chosen, for its deep links; absent for the plain QR code. */
  wallet?: CatalogueWallet;
  /** Why the last pairing failed (relay unreachable, wallet refused, proposal expired). */
  error?: unknown;
}

export interface WalletConnectController {
  store: Store<WalletConnectState>;
  /**
   * Shows ConnectingWalletConnect for `wallet` (ConnectingWalletConnectBasic without one) with a
   * pairing link, reusing the current link while it is valid.
   */
  start(wallet?: CatalogueWallet): void;
  /** A new link after a failure; refused within 1 s of the last attempt (behaviour 2.6). */
  retry(): boolean;
  /** A reload: the persisted session, if any, reconnects without a new pairing. */
  restore(): Promise<void>;
  /**
   * Fetches and compiles the engine's module ahead of a likely click (the pointer over, or focus
   * on, a row that pairs) without connecting to anything; a failed fetch is tried again on use.
   */
  preload(): void;
}

/** The methods and events asked for: what the modal itself uses plus what dapps commonly send. */
const EIP155_METHODS = [
  'eth_sendTransaction',
  'personal_sign',
  'eth_signTypedData_v4',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
];
const EIP155_EVENTS = ['chainChanged', 'accountsChanged'];

/** Behaviour 7.5 "near-expiry 10 s": the link is renewed this long before it expires. */
const LINK_RENEW_MARGIN_MS = LATCH_CONSTANTS.pairing.nearExpiryMs;

/**
 * The module loads only when WalletConnect is about to be used (a row that pairs pointed at or
 * focused, a pairing, a restore): pages where nobody pairs never download it.
 */
const loadModule = (): Promise<WalletConnectModule> => import('@latch/wasm-walletconnect');

export function createWalletConnect({
  projectId,
  getServerUrl,
  networks,
  options,
  modal,
  connection,
  storage,
  load = loadModule,
  now = Date.now,
}: {
  projectId: string;
  getServerUrl: () => string;
  networks: readonly Network[];
  options: WalletConnectOptions;
  modal: ModalController;
  connection: ConnectionController;
  storage: KeyValueStorage;
  load?: () => Promise<WalletConnectModule>;
  now?: () => number;
}): WalletConnectController {
  const store = createStore<WalletConnectState>({ status: 'idle' });
  let attempt = 0;
  let lastAttemptAt = 0;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;

  const loadOnce = onceUntilFailure(async () => {
    const module = await load();
    await module.init();
    return module;
  });

  // A failed start (offline, relay refused) is tried again on the next attempt.
  const startEngine = onceUntilFailure(async () => {
    const module = await loadOnce();
    const serverUrl = getServerUrl();
    const provider = await module.WalletConnectProvider.create({
      relayUrl: options.relayUrl ?? `${serverUrl.replace(/^http/, 'ws')}/relay`,
      projectId,
      metadata: options.metadata ?? {
        name: globalThis.document?.title || globalThis.location.host,
        description: '',
        url: globalThis.location.origin,
      },
      gatewayUrl: serverUrl,
    });
    return { module, provider };
  });

  /** The session's wallet as a connector of the connection controller. */
  function connectorFor(provider: WalletConnectProvider): Connector {
    const peer = provider.session?.peer.metadata;
    return {
      id: WALLET_CONNECT_CONNECTOR_ID,
      type: 'WALLET_CONNECT',
      name: peer?.name || store.getState().wallet?.name || 'WalletConnect',
      imageUrl: peer?.icons?.[0] ?? '',
      rdns: '',
      provider,
      // Ends the session at the wallet too; a failure is reported as DISCONNECT_ERROR.
      disconnect: () => provider.disconnect(),
    };
  }

  const isShowing = () => {
    const { open, history } = modal.store.getState();
    const view = history[history.length - 1];
    return open && (view === 'ConnectingWalletConnect' || view === 'ConnectingWalletConnectBasic');
  };

  async function pair() {
    const current = ++attempt;
    lastAttemptAt = now();
    clearTimeout(renewTimer);
    store.setState({ status: 'loading', uri: undefined, qr: undefined, pairingExpiry: undefined, error: undefined });
    try {
      await init();
      const { module, provider } = await startEngine();
      const chains = networks.filter((n) => n.chainNamespace === 'eip155').map((n) => n.caipNetworkId);
      const { uri, approval } = await provider.connect({
        optionalNamespaces: { eip155: { chains, methods: EIP155_METHODS, events: EIP155_EVENTS } },
        defaultChain: chains[0],
      });
      if (current !== attempt) return;
      const expiry = pairingExpiry(now());
      store.setState({ status: 'ready', uri, qr: module.qrCode(uri), pairingExpiry: expiry });
      scheduleRenewal(expiry);
      approval.then(
        () => {
          if (current !== attempt) return;
          attempt++;
          clearTimeout(renewTimer);
          store.setState({ status: 'idle', uri: undefined, qr: undefined, pairingExpiry: undefined });
          void connection.connectWith(connectorFor(provider), { silent: false });
        },
        (error: unknown) => {
          if (current === attempt) store.setState({ status: 'error', error });
        },
      );
    } catch (error) {
      if (current === attempt) store.setState({ status: 'error', error });
    }
  }

  /** Behaviour 2.6: a link with under 10 s left is replaced while someone may be scanning it. */
  function scheduleRenewal(expiry: number) {
    const nearExpiryAt = expiry - LINK_RENEW_MARGIN_MS;
    renewTimer = setTimeout(
      () => {
        if (isShowing()) void pair();
        else store.setState({ status: 'idle', uri: undefined, qr: undefined, pairingExpiry: undefined });
      },
      Math.max(0, nearExpiryAt - now()),
    );
  }

  // Only a change of view or of open state concerns pairing, not other modal state (the loading map).
  let seenModal: { open: boolean; history: readonly unknown[] } | undefined;
  modal.store.subscribe(() => {
    const { open, history } = modal.store.getState();
    if (seenModal && seenModal.open === open && seenModal.history === history) return;
    seenModal = { open, history };
    const { status } = store.getState();
    // A pairing view shown without a link (opened directly, e.g. with no wallet adapter) makes one.
    if (isShowing() && status === 'idle') return void pair();
    // Behaviour 1.5 "Closing: the pairing link is reset": a later opening starts a new proposal.
    if (modal.store.getState().open || status === 'idle') return;
    attempt++;
    clearTimeout(renewTimer);
    store.setState({ status: 'idle', uri: undefined, qr: undefined, pairingExpiry: undefined, error: undefined });
  });

  return {
    store,
    preload() {
      // In a task of its own: a row pointed at as the modal appears under the pointer would
      // otherwise start the download (about a millisecond) inside the frame that shows it.
      setTimeout(() => void loadOnce().catch(() => undefined), 0);
    },
    start(wallet) {
      store.setState({ wallet });
      // Showing the view makes a link when there is none (the subscription above).
      modal.push(wallet ? 'ConnectingWalletConnect' : 'ConnectingWalletConnectBasic');
      const { status, pairingExpiry: expiry } = store.getState();
      const usable =
        (status === 'ready' && expiry !== undefined && !isPairingNearExpiry(expiry, now())) || status === 'loading';
      if (!usable) void pair();
    },
    retry() {
      if (!canRetryPairing(lastAttemptAt, now())) return false;
      void pair();
      return true;
    },
    async restore() {
      if (storage.getItem(STORAGE_KEYS.connectedWallet) !== WALLET_CONNECT_CONNECTOR_ID) return;
      try {
        const { provider } = await startEngine();
        if (provider.session) {
          await connection.connectWith(connectorFor(provider), { silent: true });
          return;
        }
      } catch {
        // The engine could not start (offline, storage refused): there is nothing to restore.
      }
      connection.abandonRestore();
    },
  };
}
