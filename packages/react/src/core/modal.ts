import { LATCH_CONSTANTS } from '@latch/wasm';
import type { EventBus } from './events.js';
import { createStore, type Store } from './store.js';
import { BACK_CLEANUP_MS, prefersReducedMotion } from './timings.js';
import type { ChainNamespace } from './types.js';

export type ViewName =
  | 'Connect'
  | 'ConnectingExternal'
  | 'ConnectingWalletConnect'
  | 'ConnectingWalletConnectBasic'
  | 'Account'
  | 'UnsupportedChain'
  | 'SIWXSignMessage'
  | 'ConnectingSiwe'
  | 'Networks'
  | 'AllWallets'
  | 'Downloads'
  | 'Receive'
  | 'Send'
  | 'RegisterAccountName'
  | 'RegisterAccountNameSuccess'
  | 'Onramp'
  | 'Swap'
  | 'EmailVerifyOtp'
  | 'EmailVerifyDevice'
  | 'UpdateEmailWallet'
  | 'UpdateEmailPrimaryOtp'
  | 'UpdateEmailSecondaryOtp'
  | 'ApproveTransaction';

export interface ModalState {
  open: boolean;
  /** True while opening waits for the first view's images, or the modal on the wallet; closing always clears it. */
  loading: boolean;
  /** Briefly true to shake the modal as feedback for a refused action. */
  shake: boolean;
  /** The view stack; the last entry is the current view. Never empty. */
  history: readonly ViewName[];
  /** The namespace the opening asked for: the wallet lists show only its wallets. */
  namespace?: WalletNamespace;
  /** The data `open({ view, data })` passed, until its view takes it (`takeData`). */
  data?: OpenData;
  /**
   * Per namespace, true while a wallet of it connects or switches networks (`{ eip155: true }`):
   * the buttons and views of that namespace show their spinner.
   */
  namespaceLoading: Readonly<Partial<Record<ChainNamespace, boolean>>>;
}

/** The namespaces a wallet connects in. */
export type WalletNamespace = 'eip155' | 'solana';

/**
 * What a view can start from (behaviour 1.4: "a caller may force a view with data"). Amounts are
 * whole units as a visitor types them; tokens are named by contract address (plain or CAIP-10) or
 * by symbol (the native coin by its symbol).
 */
export interface ViewData {
  /** Send: the token, the amount, the receiver (an address or a name). */
  Send: { token?: string; amount?: string; receiver?: string };
  /** Swap: the token to swap from and the one to receive, and the amount of `from`. */
  Swap: { from?: string; to?: string; amount?: string };
  /** Buy: the fiat amount. */
  Onramp: { amount?: string };
}

/** The views that take data. */
export type ViewWithData = keyof ViewData;

/** A view and the data it starts from. */
export type OpenData = { [V in ViewWithData]: { view: V; data: ViewData[V] } }[ViewWithData];

interface OpenNamespace {
  /** Behaviour 1.4: offer only the wallets of this namespace (e.g. a "Connect a Solana wallet" button). */
  namespace?: WalletNamespace;
}

/**
 * `view` forces the first view instead of Account (connected) or Connect (not connected); `data`,
 * typed by view, is what that view starts from (`ViewData`).
 */
export type OpenOptions = OpenNamespace &
  (
    | { view?: Exclude<ViewName, ViewWithData>; data?: never }
    | { [V in ViewWithData]: { view: V; data?: ViewData[V] } }[ViewWithData]
  );

export interface ModalController {
  store: Store<ModalState>;
  open(options?: OpenOptions): void;
  /** Closes, unless a required sign-in is showing without a session: then it shakes instead. */
  close(): void;
  /** Adds a view on top, unless it already is the current view. */
  push(view: ViewName): void;
  /** Swaps the current view. */
  replace(view: ViewName): void;
  /** Replaces the whole history with one view. */
  reset(view: ViewName): void;
  /** Pops one view; closes instead when one view remains or UnsupportedChain is in the history. */
  back(): void;
  /**
   * Behaviour 1.5: `listener` gets the view `back()` left, the back-cleanup delay (100 ms) later, so
   * work it starts does not stall the transition; at once under reduced motion. Returns the unsubscribe.
   */
  onBackCleanup(listener: (left: ViewName) => void): () => void;
  shake(): void;
  setLoading(loading: boolean): void;
  /** The data the last opening passed for `view`, handed out once (the view starts from it). */
  takeData<V extends ViewWithData>(view: V): ViewData[V] | undefined;
  /** Marks `namespace` as connecting or switching (true) or done (false). */
  setNamespaceLoading(namespace: ChainNamespace, loading: boolean): void;
}

/** Behaviour 1.4: how long opening waits for the first view's images at most. */
export const IMAGE_PRELOAD_RACE_MS = LATCH_CONSTANTS.timings.imagePreloadRaceMs;

/** Behaviour 7.4: the shake flag clears itself after 500 ms. */
export const SHAKE_DURATION_MS = LATCH_CONSTANTS.timings.shakeMs;

export function currentView(state: ModalState): ViewName {
  // The history is never empty: every action keeps at least one entry.
  return state.history[state.history.length - 1]!;
}

export function createModalController({
  events,
  isConnected,
  mayClose = () => true,
  embedded = false,
  disconnectedView = () => 'Connect',
  prepare,
}: {
  events: EventBus;
  isConnected: () => boolean;
  /** Behaviour 1.5: embedded in the page, the modal is always shown; closing returns to Account or Connect. */
  embedded?: boolean;
  /** Behaviour 4.6: when sign-in is required, sign-in views cannot be closed until a session exists. */
  mayClose?: () => boolean;
  /** The first view when not connected (behaviour 1.3: Connect, or without adapters AllWallets / the QR code). */
  disconnectedView?: () => ViewName;
  /**
   * Behaviour 1.4: before opening, the images the first view shows are fetched, raced against 2 s;
   * `undefined` when the view needs nothing.
   */
  prepare?: (view: ViewName) => Promise<unknown> | undefined;
}): ModalController {
  const store = createStore<ModalState>({
    open: embedded,
    loading: false,
    shake: false,
    history: ['Connect'],
    namespaceLoading: {},
  });
  let shakeTimer: ReturnType<typeof setTimeout> | undefined;
  const backCleanups = new Set<(left: ViewName) => void>();
  // Which call to open() may still show the modal: a later open() or a close() supersedes it.
  let opening = 0;

  function shake() {
    clearTimeout(shakeTimer);
    store.setState({ shake: true });
    shakeTimer = setTimeout(() => store.setState({ shake: false }), SHAKE_DURATION_MS);
  }

  function close() {
    opening++;
    if (store.getState().open && !mayClose()) return shake();
    if (embedded) {
      store.setState({ loading: false, history: [isConnected() ? 'Account' : 'Connect'] });
      return;
    }
    const wasOpen = store.getState().open;
    store.setState({ open: false, loading: false });
    if (wasOpen) events.emit({ type: 'MODAL_CLOSE', data: { connected: isConnected() } });
  }

  return {
    store,
    open(options = {}) {
      const view = options.view ?? (isConnected() ? 'Account' : disconnectedView());
      const call = ++opening;
      const ready = store.getState().open ? undefined : prepare?.(view);
      const show = () => {
        if (call !== opening) return;
        const wasOpen = store.getState().open;
        // A copy: the caller's object may change after the call.
        const data = options.data && options.view ? ({ view: options.view, data: { ...options.data } } as OpenData) : undefined;
        store.setState({ open: true, history: [view], namespace: options.namespace, data, ...(ready && { loading: false }) });
        if (!wasOpen) events.emit({ type: 'MODAL_OPEN', data: { connected: isConnected() } });
      };
      if (!ready) return show();
      store.setState({ loading: true });
      const raceLost = new Promise((resolve) => setTimeout(resolve, IMAGE_PRELOAD_RACE_MS));
      void Promise.race([ready.catch(() => undefined), raceLost]).then(show);
    },
    close,
    push(view) {
      const state = store.getState();
      if (currentView(state) === view) return;
      store.setState({ history: [...state.history, view] });
    },
    replace(view) {
      store.setState(({ history }) => ({ history: [...history.slice(0, -1), view] }));
    },
    reset(view) {
      store.setState({ history: [view] });
    },
    back() {
      const { history } = store.getState();
      if (history.length <= 1 || history.includes('UnsupportedChain')) {
        close();
        return;
      }
      const left = currentView(store.getState());
      store.setState({ history: history.slice(0, -1) });
      // With no transition to spare (reduced motion) there is nothing to wait for.
      setTimeout(() => backCleanups.forEach((cleanup) => cleanup(left)), prefersReducedMotion() ? 0 : BACK_CLEANUP_MS);
    },
    onBackCleanup(listener) {
      backCleanups.add(listener);
      return () => backCleanups.delete(listener);
    },
    shake,
    setLoading(loading) {
      store.setState({ loading });
    },
    takeData<V extends ViewWithData>(view: V) {
      const { data } = store.getState();
      if (data?.view !== view) return undefined;
      store.setState({ data: undefined });
      return data.data as ViewData[V];
    },
    setNamespaceLoading(namespace, loading) {
      if ((store.getState().namespaceLoading[namespace] ?? false) === loading) return;
      store.setState(({ namespaceLoading }) => ({ namespaceLoading: { ...namespaceLoading, [namespace]: loading } }));
    },
  };
}
