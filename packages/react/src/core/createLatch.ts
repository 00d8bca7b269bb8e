import { init, LATCH_DEFAULT_FEATURES, LATCH_MESSAGES, type Features } from '@latch/wasm';
import type { Locale, Messages, Translate } from '../locales/index.js';
import { themeFor, type ThemeMode, type ThemeVariables } from '../themes/index.js';
import { createConnectionController, type AccountState, type ConnectionState } from './connection.js';
import { watchAnnouncedWallets } from './eip6963.js';
import { watchStandardWallets } from './walletStandard.js';
import { startAnalytics } from './analytics.js';
import { createEventBus, type LatchEvent, type LatchEventListener } from './events.js';
import { createGateway, type Gateway } from './gateway.js';
import { createApiClient, type ServerLocation } from './api.js';
import { createAccountData, type AccountDataController } from './accountData.js';
import { createModalController, type ModalController } from './modal.js';
import { createNetworkController, type NetworkState } from './network.js';
import { createTransactionStack, type TransactionStack } from './transactionStack.js';
import type { SiweConfig, SiwxController, SiwxOptions } from './siwx.js';
import { createSignIn } from './signIn.js';
import { browserStorage, STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import { createToasts, type ToastController } from './toasts.js';
import { createCatalogueClient, type CatalogueClient } from './catalogue.js';
import { createWalletList, type WalletListController, type WalletListOptions } from './walletList.js';
import { createStore, type Store } from './store.js';
import { isMobileBrowser } from './platform.js';
import type { CaipNetworkId, Network } from './types.js';
import { createNetworks, type NetworksState } from './networks.js';
import { providerFor, requireAdapter, type AdapterNamespace, type NamespaceProviders } from './adapters.js';
import { createWalletConnect, type WalletConnectController, type WalletConnectOptions } from './walletConnect.js';
import { whenIdle } from './idle.js';
import { createTransactions, type TransactionRequest, type TransactionsController } from './transactions.js';
import { loadWasmExtra } from './wasmExtra.js';
import { SDK_VERSION } from './sdk.js';
import {
  EMBEDDED_CONNECTOR_ID,
  embeddedWalletLoader,
  type EmbeddedWalletLoader,
  type EmbeddedWalletOptions,
} from './embedded/load.js';
import { browserLanguages, createLocale, type LocaleState } from './locale.js';

export interface ThemeState {
  themeMode: ThemeMode;
  themeVariables: ThemeVariables;
}

export interface LatchOptions extends WalletListOptions {
  projectId: string;
  /** The Latch server answering the modal's calls; defaults to the page's own origin. */
  serverUrl?: string;
  networks: readonly Network[];
  /** The network suggested when the wallet is on an unsupported one; defaults to the first. */
  defaultNetwork?: Network;
  /**
   * Behaviour 3.4: a wallet on a network not in `networks` stays connected, with the unsupported
   * placeholder as the active network, instead of the UnsupportedChain view. Default false.
   */
  allowUnsupportedChain?: boolean;
  themeMode?: ThemeMode;
  /** Overrides for individual theme variables, e.g. `{ '--latch-accent': '#ff7a00' }`. */
  themeVariables?: ThemeVariables;
  /**
   * The modal's language; default `'auto'`, the visitor's browser languages (English where none
   * is spoken). Catalogues other than English load on their own when chosen.
   */
  locale?: Locale | 'auto';
  /**
   * Overrides for individual messages, kept over every locale. Passing a whole catalogue
   * (`import { de } from '@latch/react/locales/de'`) shows it from the first frame.
   */
  messages?: Partial<Messages>;
  onEvent?: LatchEventListener;
  /**
   * Send usage events (modal opens, connections, errors) to the Latch server's analytics.
   * Default true, as documented; pass false until the visitor consents if your site needs it.
   * The server can also switch analytics off per project.
   */
  analytics?: boolean;
  /**
   * Optional parts on or off; unset ones keep the documented defaults (behaviour 7.9: all on but
   * `legalCheckbox`, `smartSessions`, `collapseWallets`). The modal honours `allWallets` (the
   * *All wallets* entry), `history` (the Account view's Activity tab) and `analytics` (as the
   * `analytics` option); the others name parts Latch does not have yet and change nothing.
   */
  features?: Partial<Features>;
  /**
   * Sign in with X (behaviour 4.5 "Sign-in"): after connecting, the visitor signs a message and gets a
   * session. `{}` uses the Latch server; pass `adapter` to use your own backend.
   */
  siwx?: SiwxOptions;
  /** The legacy EIP-4361-only form of `siwx`; setting both is an error. */
  siweConfig?: SiweConfig;
  /**
   * Shows the modal inside the page where `<LatchEmbedded />` is placed, always open; closing
   * returns to Account (connected) or Connect (behaviour 1.5).
   */
  embedded?: boolean;
  /** Renders the modal where `LatchProvider` is instead of appending it to `document.body`. */
  disableAppend?: boolean;
  /** What survives a reload (the connected wallet, the sign-in token); defaults to `localStorage`. */
  storage?: KeyValueStorage;
  /**
   * Pairing with any wallet over WalletConnect through the Latch server's relay (QR code, deep
   * links); default true. False offers installed wallets only.
   */
  enableWalletConnect?: boolean;
  /** WalletConnect settings: the metadata wallets show, another relay. */
  walletConnect?: WalletConnectOptions;
  /**
   * Discover browser wallets announced through EIP-6963 (and a legacy `window.ethereum` that does not
   * announce, offered as the browser wallet); default true. Without them (and with
   * WalletConnect on), opening goes straight to the QR code on a desktop and to the wallet list on a
   * phone (behaviour 1.3 "no adapters").
   */
  enableEIP6963?: boolean;
  /**
   * The embedded wallet (behaviour 5.16: e-mail login): the wallet frame's page that the Latch server
   * serves on its own origin. Without it the Connect view offers no e-mail field.
   */
  embeddedWallet?: EmbeddedWalletOptions;
}

export interface Latch {
  /** The host's networks now: `networks` as configured, then those added, less those removed. */
  readonly networks: readonly Network[];
  /** The same list as a store, for views that follow `addNetwork` / `removeNetwork`. */
  readonly networksStore: Store<NetworksState>;
  /**
   * Adds a network at run time (behaviour 3.8): its namespace needs an adapter (`eip155`, `solana`;
   * else `LatchAdapterError` `Chain adapter not found`); a network already known (same
   * `caipNetworkId`) is not added again. Resolves with whether it was added.
   */
  addNetwork(network: Network): Promise<boolean>;
  /**
   * Removes a network by `caipNetworkId` (or `id`) (behaviour 3.8): it must exist (`Network not
   * found`) and must not be the last one. An account on it is then on an unsupported network
   * (behaviour 3.4); a Solana account moves to the next Solana network. Resolves with the removed one.
   */
  removeNetwork(id: CaipNetworkId | Network['id']): Promise<Network>;
  /**
   * The connected wallet for a chain library (the universal provider): the EIP-1193 provider for
   * `eip155`, the Wallet Standard wallet for `solana`; undefined while nothing is connected in that
   * namespace. A namespace without an adapter throws `LatchAdapterError` (`Chain adapter not found`).
   */
  getProvider<N extends AdapterNamespace>(namespace: N): NamespaceProviders[N] | undefined;
  /** The optional parts, resolved: the documented defaults (behaviour 7.9) and the host's `features`. */
  readonly features: Readonly<Features>;
  /** The e-mail login, when `embeddedWallet` is configured and `features.email` is on. */
  readonly embeddedWallet?: EmbeddedWalletLoader;
  /** The `defaultNetwork` option, else the first network (the first left, once that one is removed). */
  readonly defaultNetwork: Network;
  /** The theme in use: `themeMode` and the resolved `--latch-*` variables (defaults plus overrides). */
  readonly theme: Store<ThemeState>;
  /** Switches light/dark, keeping the host's variable overrides. */
  setThemeMode(mode: ThemeMode): void;
  /** Replaces the host's variable overrides. */
  setThemeVariables(overrides: ThemeVariables): void;
  /** The last event reported (behaviour 6.14 "Analytics"), with when; for `useLatchEvents`. */
  readonly lastEvent: Store<{ event?: LatchEvent; timestamp?: number }>;
  /** The locale shown and its catalogue; components re-render when it changes. */
  readonly locale: Store<LocaleState>;
  /** Switches the modal's language (`'auto'`: the browser's); resolves once it shows. */
  setLocale(locale: Locale | 'auto'): Promise<void>;
  /** Resolves once the chosen locale's whole catalogue shows (the modal's opening waits for it). */
  localeReady(): Promise<void>;
  readonly t: Translate;
  /** Open state, view history and the router actions. */
  readonly modal: ModalController;
  /** Flows such as Send and Swap (behaviour 1.13): where cancel and success lead the modal. */
  readonly transactionStack: TransactionStack;
  /** The `embedded` option. */
  readonly embedded: boolean;
  /** Whether the modal goes into `document.body` (not with `embedded` or `disableAppend`). */
  readonly appendToBody: boolean;
  readonly connection: Store<ConnectionState>;
  readonly account: Store<AccountState>;
  /** The active network and namespace (behaviour 3.5), the placeholder on an unlisted network. */
  readonly network: Store<NetworkState>;
  /** Token balances, activity and identity of the connected account, from the Latch server. */
  readonly accountData: AccountDataController;
  /** Sign-in state and actions; `store.getState().enabled` is false without `siwx` / `siweConfig`. */
  readonly siwx: SiwxController;
  readonly toasts: ToastController;
  /** The wallet catalogue of the Latch server (`/getWallets`, wallet images). */
  readonly catalogue: CatalogueClient;
  /** Featured, recommended, recent wallets, the paged list and search of the catalogue. */
  readonly walletList: WalletListController;
  /** Pairing over WalletConnect; absent with `enableWalletConnect: false`. */
  readonly walletConnect?: WalletConnectController;
  connect(connectorId: string): Promise<void>;
  disconnect(): void;
  refreshBalance(): Promise<void>;
  /**
   * Signs `message` with the connected wallet (EIP-191 `personal_sign` on EVM, a hex signature;
   * `solana:signMessage` on Solana, base58). Throws `WalletRequestError`.
   */
  signMessage(message: string): Promise<string>;
  /**
   * Sends an EVM transaction through the connected wallet (injected or WalletConnect) and
   * resolves with its hash once the wallet has sent it; Latch then waits for the receipt and reads
   * the balances and activity again. Throws `WalletRequestError`.
   */
  sendTransaction(request: TransactionRequest): Promise<string>;
  /** JSON-RPC to the host's networks through the Latch server's gateway. */
  readonly gateway: Gateway;
  /** The Latch server and project every API call names (optional parts build their clients on it). */
  readonly server: ServerLocation;
  /** Sent transactions not mined yet; `waitForReceipt` polls the gateway for one. */
  readonly transactions: TransactionsController;
  /** Asks the wallet to switch to one of the host's networks; throws `NetworkSwitchError`. */
  switchNetwork(network: Network): Promise<void>;
  subscribeEvents(listener: LatchEventListener): () => void;
  /** Reports a usage event to `onEvent` and the server's analytics (the modal's own clicks). */
  track(event: LatchEvent): void;
  /**
   * Starts browser-only work: wallet discovery and loading the wasm core. Returns the cleanup.
   * `LatchProvider` calls it from an effect, so nothing runs during server rendering.
   */
  mount(target: Window): () => void;
}

export function createLatch(options: LatchOptions): Latch {
  if (!options.projectId?.trim()) throw new Error(LATCH_MESSAGES.projectIdNotConfigured);
  const [firstNetwork] = options.networks;
  if (!firstNetwork) throw new Error('At least one network must be configured');
  if (options.siwx && options.siweConfig) throw new Error(LATCH_MESSAGES.siwxBothOptions);

  const networks = createNetworks(options.networks);
  // Every controller gets the live list, so it reads the networks as they are at each use.
  const networkList = networks.live;
  const events = createEventBus();
  if (options.onEvent) events.subscribe(options.onEvent);

  // Read when used, never at creation: creating Latch must not touch `location` (SSR).
  const getServerUrl = () => options.serverUrl ?? globalThis.location.origin;
  // The server and project every client names; built once and shared.
  const server: ServerLocation = { projectId: options.projectId, getServerUrl };
  const gateway = createGateway(server);
  const storage = options.storage ?? browserStorage();
  const toasts = createToasts();
  const modal = createModalController({
    events,
    // Called only after setup; the controllers are created below because they need `modal`.
    isConnected: () => connectionController.connection.getState().status === 'connected',
    mayClose: () => siwx.mayClose(),
    embedded: options.embedded === true,
    // Behaviour 1.3: with no wallet adapter but WalletConnect, a phone lists wallets and a desktop
    // shows the QR code at once.
    disconnectedView: () =>
      options.enableEIP6963 === false && options.enableWalletConnect !== false
        ? isMobileBrowser()
          ? 'AllWallets'
          : 'ConnectingWalletConnectBasic'
        : 'Connect',
    // Nothing to wait for (read while the page was idle): the modal shows within the click's own
    // event, so its first frame is the next one.
    prepare: (view) => (view === 'Connect' && !walletList.isReady() ? walletList.ready() : undefined),
  });
  const defaultNetwork = options.defaultNetwork ?? firstNetwork;
  const networkController = createNetworkController({ networks: networks.live, defaultNetwork, storage });
  const connectionController = createConnectionController({
    modal,
    gateway,
    networks: networkList,
    events,
    storage,
    network: networkController,
    allowUnsupportedChain: options.allowUnsupportedChain === true,
  });
  const signInOptions = options.siweConfig ?? options.siwx;
  const siwx = createSignIn({
    modal,
    required: signInOptions?.required === true,
    isConnected: () => connectionController.connection.getState().status === 'connected',
    load:
      signInOptions &&
      (async (store) => {
        const [{ createSiwxController, siweConfigAdapter }, { createLatchAuthentication }] = await Promise.all([
          import('./siwx.js'),
          import('./latchAuthentication.js'),
        ]);
        return createSiwxController({
          store,
          adapter: options.siweConfig
            ? siweConfigAdapter(options.siweConfig)
            : (options.siwx?.adapter ?? createLatchAuthentication({ ...server, storage })),
          options: signInOptions,
          connection: connectionController,
          modal,
          toasts,
          events,
          networks: networkList,
          location: () => globalThis.location,
        });
      }),
  });
  const accountData = createAccountData({
    api: createApiClient(server),
    account: connectionController.account,
    networks: networkList,
    toasts,
  });
  const transactions = createTransactions({ connection: connectionController, gateway, accountData });
  const catalogue = createCatalogueClient(server);
  const walletConnect =
    options.enableWalletConnect === false
      ? undefined
      : createWalletConnect({
          ...server,
          networks: networkList,
          options: options.walletConnect ?? {},
          modal,
          connection: connectionController,
          storage,
        });
  const walletList = createWalletList({
    pair: walletConnect?.start,
    catalogue,
    connection: connectionController.connection,
    modal,
    storage,
    networks: networkList,
    options,
  });
  let themeOverrides = options.themeVariables;
  const locale = createLocale({
    locale: options.locale ?? 'auto',
    overrides: options.messages,
    languages: browserLanguages,
  });
  const theme = createStore<ThemeState>({
    themeMode: options.themeMode ?? 'dark',
    themeVariables: themeFor(options.themeMode ?? 'dark', themeOverrides),
  });
  const lastEvent = createStore<{ event?: LatchEvent; timestamp?: number }>({});
  const features: Readonly<Features> = Object.freeze({ ...LATCH_DEFAULT_FEATURES, ...options.features });

  /**
   * Signing in needs `@latch/wasm/extra` (the message text, a Solana signature's text): fetched
   * when the browser is idle after the modal first opens, after the view the visitor is waiting
   * for and long before they have picked and approved a wallet.
   */
  function preloadSignInOnOpen(target: Window): () => void {
    let cancelIdle: (() => void) | undefined;
    const preload = ({ open }: { open: boolean }) => {
      if (!open || cancelIdle) return;
      cancelIdle = whenIdle(target, () => void loadWasmExtra().catch(() => {})); // signing in tries again
      unsubscribe();
    };
    const unsubscribe = modal.store.subscribe(() => preload(modal.store.getState()));
    preload(modal.store.getState());
    return () => {
      unsubscribe();
      cancelIdle?.();
    };
  }
  events.subscribe((event) => lastEvent.setState({ event, timestamp: Date.now() }));
  const embeddedOptions = options.embeddedWallet;
  const embeddedWallet =
    embeddedOptions && features.email
      ? embeddedWalletLoader(() => ({
          vaultUrl: embeddedOptions.vaultUrl,
          projectId: options.projectId,
          version: SDK_VERSION,
          network: options.networks.find((network) => network.chainNamespace === 'eip155') ?? firstNetwork,
          solanaNetworks: () => networkList.filter((network) => network.chainNamespace === 'solana'),
          modal,
          connection: connectionController,
          track: events.emit,
          serverUrl: getServerUrl,
          origin: () => globalThis.location.origin,
          theme,
          locale: locale.store,
          ...(embeddedOptions.frameHost ? { host: embeddedOptions.frameHost } : {}),
        }))
      : undefined;

  let mountedOn: Window | undefined;
  let stopWatchingSolana: (() => void) | undefined;
  /** Solana wallets are offered only to a host with a Solana network to connect them on. */
  function watchSolanaWhenNeeded() {
    if (!mountedOn || stopWatchingSolana) return;
    if (!networkList.some((network) => network.chainNamespace === 'solana')) return;
    stopWatchingSolana = watchStandardWallets(connectionController.addConnector);
  }

  return {
    get networks() {
      return networks.store.getState().networks;
    },
    networksStore: networks.store,
    async addNetwork(network) {
      const added = await networks.add(network);
      if (added) {
        connectionController.networksChanged({ added: network });
        watchSolanaWhenNeeded();
      }
      return added;
    },
    async removeNetwork(id) {
      const removed = await networks.remove(id);
      connectionController.networksChanged({ removed });
      return removed;
    },
    getProvider(namespace) {
      requireAdapter(namespace);
      return providerFor(namespace, connectionController.connection.getState(), connectionController.account.getState());
    },
    features,
    embeddedWallet,
    get defaultNetwork() {
      const list = networks.store.getState().networks;
      // Never empty: removing the last network is refused.
      return list.find(({ caipNetworkId }) => caipNetworkId === options.defaultNetwork?.caipNetworkId) ?? list[0]!;
    },
    theme,
    setThemeMode(themeMode) {
      theme.setState({ themeMode, themeVariables: themeFor(themeMode, themeOverrides) });
    },
    setThemeVariables(overrides) {
      themeOverrides = overrides;
      theme.setState(({ themeMode }) => ({ themeVariables: themeFor(themeMode, overrides) }));
    },
    lastEvent,
    locale: locale.store,
    setLocale: locale.setLocale,
    localeReady: locale.ready,
    t: locale.t,
    modal,
    transactionStack: createTransactionStack({ modal }),
    embedded: options.embedded === true,
    appendToBody: options.embedded !== true && options.disableAppend !== true,
    connection: connectionController.connection,
    account: connectionController.account,
    network: networkController.store,
    accountData,
    siwx,
    toasts,
    catalogue,
    walletList,
    walletConnect,
    connect: connectionController.connect,
    disconnect: connectionController.disconnect,
    refreshBalance: connectionController.refreshBalance,
    switchNetwork: connectionController.switchNetwork,
    signMessage: transactions.signMessage,
    sendTransaction: transactions.sendTransaction,
    transactions,
    gateway,
    server,
    subscribeEvents: events.subscribe,
    track: events.emit,
    mount(target) {
      // Loading early keeps the wallet prompt from waiting on it; `connect` awaits it again and
      // shows the visitor a failure there; here it is only reported.
      init()
        .then(() => {
          // Behaviour 3.6, unless a wallet already answered with its own network.
          if (!connectionController.account.getState().caipNetworkId) networkController.restore();
        })
        .catch((error: unknown) =>
        events.emit({ type: 'INTERNAL_SDK_ERROR', data: { message: `@latch/wasm could not load: ${String(error)}` } }),
      );
      const stopRestoring = connectionController.restore();
      // An embedded session is restored by the frame, which holds it.
      if (embeddedWallet && storage.getItem(STORAGE_KEYS.connectedWallet) === EMBEDDED_CONNECTOR_ID) {
        void embeddedWallet.load().then((wallet) => wallet.restore(), () => connectionController.abandonRestore());
      }
      void walletConnect?.restore();
      const stopWatching =
        options.enableEIP6963 === false
          ? () => undefined
          : watchAnnouncedWallets(target, connectionController.addConnector);
      // One look, once; a remount's second look finds the connector already listed (same id).
      if (options.enableEIP6963 !== false) {
        void import('./legacyInjected.js').then((legacy) => legacy.lookOnce(target, locale.t('browserWallet'), connectionController));
      }
      mountedOn = target;
      watchSolanaWhenNeeded();
      const stopWalletList = walletList.mount();
      const stopPreloading = (options.siwx ?? options.siweConfig) ? preloadSignInOnOpen(target) : undefined;
      const stopAnalytics =
        options.analytics === false || !features.analytics
          ? undefined
          : startAnalytics({ target, events, projectId: options.projectId, serverUrl: getServerUrl() });
      events.emit({
        type: 'INITIALIZE',
        data: { networks: options.networks.map((network) => network.caipNetworkId), sdkVersion: SDK_VERSION },
      });
      return () => {
        stopRestoring();
        stopWatching();
        stopWatchingSolana?.();
        stopWatchingSolana = undefined;
        mountedOn = undefined;
        stopWalletList();
        stopAnalytics?.();
        stopPreloading?.();
      };
    },
  };
}
