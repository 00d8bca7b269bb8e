import {
  eip155ChainIdHex,
  eip155NetworkId,
  formatUnits,
  hexData,
  init,
  isAddChainTrigger,
  isValidAddress,
  parseCaipNetworkId,
  toChecksumAddress,
  validateCaipAddress,
} from '@latch/wasm';
import type { EventBus } from './events.js';
import type { Gateway } from './gateway.js';
import type { ModalController } from './modal.js';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import { createStore, type Store } from './store.js';
import {
  connectorNamespace,
  type CaipAddress,
  type CaipNetworkId,
  type ChainNamespace,
  type Connector,
  type Eip155Connector,
  type Eip1193Provider,
  type Network,
  type SolanaConnector,
  type StandardWallet,
} from './types.js';
import { WALLET_CONNECT_CONNECTOR_ID } from './walletConnect.js';
import { EMBEDDED_CONNECTOR_ID } from './embedded/load.js';
import { loadWasmExtra } from './wasmExtra.js';
import { createNetworkController, type NetworkController } from './network.js';
import { declinedByUser } from './walletErrors.js';
import { LatchAdapterError, PROVIDER_UNDEFINED } from './adapters.js';
import {
  feature,
  type SolanaSignMessageFeature,
  type StandardConnectFeature,
  type StandardEventsFeature,
} from './walletStandard.js';

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected';

export interface ConnectionError {
  /** `rejected`: the user declined in the wallet (4001, or WalletConnect's 5000–5002); `failed`: anything else. */
  kind: 'rejected' | 'failed';
  cause: unknown;
}

export interface ConnectionState {
  status: ConnectionStatus;
  /** Wallets discovered (EIP-6963, Wallet Standard) or paired, in announcement order. */
  connectors: readonly Connector[];
  /** The connector being connected or connected. */
  activeConnectorId?: string;
  /** Why the last connection attempt failed, until the next attempt. */
  error?: ConnectionError;
}

export type BalanceStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface AccountState {
  /** EIP-55 checksummed for eip155, base58 for solana. */
  address?: string;
  caipAddress?: CaipAddress;
  caipNetworkId?: CaipNetworkId;
  /** Native balance as an exact decimal string in whole units, e.g. `10000`. */
  balance?: string;
  balanceSymbol?: string;
  balanceStatus: BalanceStatus;
  balanceError?: unknown;
}

export interface ConnectionController {
  connection: Store<ConnectionState>;
  account: Store<AccountState>;
  /** The active network, stored and restored (behaviour 3.5, 3.6). */
  network: NetworkController;
  /** Adds a discovered wallet, ignoring one already known by uuid or reverse-DNS id. */
  addConnector(connector: Connector): void;
  connect(connectorId: string): Promise<void>;
  /**
   * Connects a wallet that is already paired (WalletConnect): its accounts are read without a
   * prompt. `silent`: a reload's reconnect, which opens no view and reports nothing on failure.
   */
  connectWith(connector: Connector, options: { silent: boolean }): Promise<void>;
  /** A reload found nothing to reconnect: the status goes from connecting to disconnected. */
  abandonRestore(): void;
  disconnect(): void;
  refreshBalance(): Promise<void>;
  /**
   * Asks the connected wallet to sign `message`: EIP-191 `personal_sign` for eip155 (a hex
   * signature), `solana:signMessage` for solana (a base58 ed25519 signature), as the sign-in
   * verifier takes them.
   */
  signMessage(message: string): Promise<string>;
  /**
   * Asks the wallet to switch to `network` (behaviour 3.5 "Networks"), adding it first when the wallet
   * answers that it does not know it. A Solana wallet is not asked: the app picks its Solana
   * network. Another namespace's network is `unsupported`. Throws `NetworkSwitchError`. With no
   * wallet connected it makes `network` active (stored for the next visit).
   */
  switchNetwork(network: Network): Promise<void>;
  /**
   * The host added or removed a network (behaviour 3.8). An account on a removed network is on an
   * unsupported one (behaviour 3.4; a Solana account moves to the next Solana network); one on an
   * added network is supported again.
   */
  networksChanged(change: { added?: Network; removed?: Network }): void;
  /**
   * Behaviour 2.5: on load, the status is `connecting` while the wallet connected last is looked for,
   * then `connected` once it answers with an account or `disconnected` when it does not (or
   * does not announce itself within a second). Returns the cleanup.
   */
  restore(): () => void;
}

/** How long a reload waits for the wallet connected last to announce itself. */
export const RESTORE_WAIT_MS = 1_000;

/**
 * Why a network switch failed: `rejected` by the user, `unsupported` when the wallet could not
 * add the chain (behaviour 3.7 `Chain is not supported`), `failed` otherwise.
 */
export class NetworkSwitchError extends Error {
  override readonly name = 'NetworkSwitchError';
  constructor(
    readonly kind: 'rejected' | 'unsupported' | 'failed',
    /** What the wallet threw. */
    readonly reason: unknown,
  ) {
    super(kind === 'unsupported' ? 'Chain is not supported' : String((reason as Error | undefined)?.message ?? reason));
  }
}

/** Every field listed, because `setState` merges: this is what clears an account. */
const EMPTY_ACCOUNT: AccountState = {
  address: undefined,
  caipAddress: undefined,
  caipNetworkId: undefined,
  balance: undefined,
  balanceSymbol: undefined,
  balanceStatus: 'idle',
  balanceError: undefined,
};

/**
 * EIP-1193: the user rejected the request. A network switch checks this code alone: WalletConnect's
 * 5000 triggers an add-chain request there (behaviour 3.7).
 */
const USER_REJECTED_REQUEST = 4001;

export function createConnectionController({
  modal,
  gateway,
  networks,
  events,
  storage,
  network,
  allowUnsupportedChain = false,
}: {
  modal: ModalController;
  gateway: Gateway;
  networks: readonly Network[];
  events: EventBus;
  /** Remembers the connected wallet so a reload reconnects it without asking. */
  storage: KeyValueStorage;
  /** The active network; by default one of its own over `networks` (the first as default). */
  network?: NetworkController;
  /** Behaviour 3.4: a wallet on a network the host did not list shows Account, not UnsupportedChain. */
  allowUnsupportedChain?: boolean;
}): ConnectionController {
  const activeNetwork = network ?? createNetworkController({ networks, defaultNetwork: networks[0]!, storage });
  const connection = createStore<ConnectionState>({ status: 'disconnected', connectors: [] });
  const account = createStore<AccountState>(EMPTY_ACCOUNT);
  // Counters let a late answer from an abandoned attempt or an older balance read be ignored.
  let connectAttempt = 0;
  let balanceRequest = 0;
  let stopWatchingProvider: (() => void) | undefined;
  // The wallet to reconnect silently once it announces itself again after a reload; tried once.
  let walletToRestore = storage.getItem(STORAGE_KEYS.connectedWallet);

  // A failed attempt's message belongs to the visit of the modal it happened in; opening the
  // modal again starts clean.
  let wasOpen = false;
  modal.store.subscribe(() => {
    const { open } = modal.store.getState();
    if (open && !wasOpen) connection.setState({ error: undefined });
    wasOpen = open;
  });

  const findNetwork = activeNetwork.find;
  // Connections under way per namespace: the modal's loading map shows the namespace busy until none is.
  const busy = new Map<ChainNamespace, number>();
  async function whileLoading<T>(namespace: ChainNamespace, work: () => Promise<T>): Promise<T> {
    busy.set(namespace, (busy.get(namespace) ?? 0) + 1);
    modal.setNamespaceLoading(namespace, true);
    try {
      return await work();
    } finally {
      const left = (busy.get(namespace) ?? 1) - 1;
      busy.set(namespace, left);
      if (left === 0) modal.setNamespaceLoading(namespace, false);
    }
  }

  /** The first of the host's Solana networks: Wallet Standard wallets connect on the app's choice. */
  const solanaNetwork = () => networks.find((network) => network.chainNamespace === 'solana');

  /** Sets the account, written as its namespace writes it; throws for an address latch-core refuses. */
  /** The EVM address last set: the embedded wallet's, for a switch back from its Solana account. */
  let evmAddress: string | undefined;

  function setAccount(address: string, caipNetworkId: CaipNetworkId) {
    const { namespace } = parseCaipNetworkId(caipNetworkId);
    const eip155 = namespace === 'eip155';
    const written = eip155 ? toChecksumAddress(address) : address;
    if (eip155) evmAddress = written;
    const caipAddress: CaipAddress = `${caipNetworkId}:${written}`;
    validateCaipAddress(caipAddress);
    if (!eip155 && !isValidAddress(namespace, written)) {
      throw new Error(`Invalid address: ${written}`);
    }
    account.setState({ address: written, caipAddress, caipNetworkId });
    // Behaviour 3.4/3.5: the wallet's network is the active one (the placeholder when unlisted), stored.
    activeNetwork.setActive(caipNetworkId);
  }

  /**
   * Shows the view the connected network calls for and, when the network is supported, reads
   * the balance; resolves once it is read.
   */
  async function showNetworkState() {
    const supported = findNetwork(account.getState().caipNetworkId) !== undefined;
    const { open } = modal.store.getState();
    if (!supported) {
      account.setState({ balance: undefined, balanceSymbol: undefined, balanceStatus: 'idle' });
      // Behaviour 3.4: an app that allows unsupported chains shows the account on the placeholder.
      if (allowUnsupportedChain) {
        if (open) modal.reset('Account');
        return;
      }
      // Behaviour 3.5: an unsupported network opens the UnsupportedChain view.
      if (open) modal.reset('UnsupportedChain');
      else modal.open({ view: 'UnsupportedChain' });
      return;
    }
    if (open) modal.reset('Account');
    await refreshBalance();
  }

  function watch(connector: Connector) {
    return connector.namespace === 'solana' ? watchSolanaWallet(connector) : watchProvider(connector.provider);
  }

  /** `standard:events` `change`: a new first account is followed, none left ends the session. */
  function watchSolanaWallet({ wallet }: SolanaConnector) {
    const events = feature<StandardEventsFeature>(wallet, 'standard:events', 'on');
    if (!events) return () => undefined;
    return events.on('change', (properties) => {
      if (!properties || !('accounts' in properties)) return;
      const [first] = properties.accounts ?? [];
      const { caipNetworkId, address } = account.getState();
      if (!first || !caipNetworkId) return endConnection(false);
      if (first.address === address) return;
      followWallet(() => {
        setAccount(first.address, caipNetworkId);
        void refreshBalance();
      });
    });
  }

  function watchProvider(provider: Eip1193Provider) {
    const onAccountsChanged = (accounts: string[]) => {
      const [address] = accounts;
      const { caipNetworkId } = account.getState();
      if (!address || !caipNetworkId) return endConnection(false);
      followWallet(() => {
        setAccount(address, caipNetworkId);
        void refreshBalance();
      });
    };
    const onChainChanged = (chainId: string) => {
      const { address: current, caipNetworkId } = account.getState();
      // The embedded wallet on its Solana account: the EVM chain it changed to has the EVM address.
      const address = caipNetworkId?.startsWith('solana:') ? evmAddress : current;
      if (!address) return;
      followWallet(() => {
        setAccount(address, toCaipNetworkId(chainId));
        void showNetworkState();
      });
    };
    const onDisconnect = () => endConnection(false);

    provider.on('accountsChanged', onAccountsChanged);
    provider.on('chainChanged', onChainChanged);
    provider.on('disconnect', onDisconnect);
    return () => {
      provider.removeListener('accountsChanged', onAccountsChanged);
      provider.removeListener('chainChanged', onChainChanged);
      provider.removeListener('disconnect', onDisconnect);
    };
  }

  /** A wallet event carrying data Latch cannot accept ends the session rather than showing it. */
  function followWallet(update: () => void) {
    try {
      update();
    } catch {
      disconnect();
    }
  }

  function endSession() {
    connectAttempt++;
    balanceRequest++;
    stopWatchingProvider?.();
    stopWatchingProvider = undefined;
    account.setState(EMPTY_ACCOUNT);
  }

  const disconnect = () => endConnection(true);

  /** `endAtWallet`: the visitor asked, so the wallet's session ends too; false when the wallet ended it. */
  function endConnection(endAtWallet: boolean) {
    const { status, connectors, activeConnectorId } = connection.getState();
    const wasConnected = status === 'connected';
    const connector = connectors.find(({ id }) => id === activeConnectorId);
    if (endAtWallet) connector?.disconnect?.()?.catch((cause: unknown) => {
      const reason = cause instanceof Error ? cause.message : String(cause);
      events.emit({
        type: 'DISCONNECT_ERROR',
        // Behaviour 2.10's wording, for the operator's analytics (the visitor is disconnected anyway).
        data: { message: `Failed to disconnect chain ${connectorNamespace(connector)}: ${reason}` },
      });
    });
    endSession();
    walletToRestore = null;
    storage.removeItem(STORAGE_KEYS.connectedWallet);
    if (connector) activeNetwork.forgetConnection(connectorNamespace(connector));
    if (wasConnected) events.emit({ type: 'DISCONNECT_SUCCESS', data: {} });
    connection.setState({ status: 'disconnected', activeConnectorId: undefined, error: undefined });
    modal.close();
  }

  async function refreshBalance() {
    const { address, caipNetworkId } = account.getState();
    const network = findNetwork(caipNetworkId);
    if (!address || !network) return;
    const request = ++balanceRequest;
    account.setState({ balanceStatus: 'loading', balanceError: undefined });
    try {
      // Solana's `getBalance` answers `{ context, value }` in lamports; eip155's a hex wei amount.
      const solana = network.chainNamespace === 'solana';
      const result = solana
        ? ((await gateway.request(network.caipNetworkId, 'getBalance', [address])) as { value?: unknown } | null)?.value
        : await gateway.request(network.caipNetworkId, 'eth_getBalance', [address, 'latest']);
      if (request !== balanceRequest) return;
      account.setState({
        balance: formatUnits(String(result), network.nativeCurrency.decimals),
        balanceSymbol: network.nativeCurrency.symbol,
        balanceStatus: 'ready',
      });
    } catch (error) {
      if (request !== balanceRequest) return;
      account.setState({ balanceStatus: 'error', balanceError: error });
    }
  }

  /**
   * Connects `connector`. `silent`: a reload's reconnect, which only asks for already authorised
   * accounts (`eth_accounts`, no prompt), opens no view and reports nothing when it finds none.
   */
  function establish(connector: Connector, options: { silent: boolean; paired?: boolean }) {
    return whileLoading(connectorNamespace(connector), () => establishSession(connector, options));
  }

  async function establishSession(connector: Connector, { silent, paired = false }: { silent: boolean; paired?: boolean }) {
    endSession();
    const attempt = connectAttempt;
    const reported = { name: connector.name, connectorType: connector.type };
    if (!silent) events.emit({ type: 'SELECT_WALLET', data: reported });
    connection.setState({ status: 'connecting', activeConnectorId: connector.id, error: undefined });
    if (!silent && !paired) {
      modal.push('ConnectingExternal');
      modal.setLoading(true);
    }
    try {
      await init();
      const found =
        connector.namespace === 'solana'
          ? await solanaAccount(connector, silent)
          : await eip155Account(connector, silent || paired, () => attempt !== connectAttempt);
      if (attempt !== connectAttempt) return;
      if (!found) {
        if (silent) return forgetRestoredWallet();
        throw new Error('The wallet returned no account');
      }
      setAccount(found.address, found.caipNetworkId);
    } catch (cause) {
      if (attempt !== connectAttempt) return;
      account.setState(EMPTY_ACCOUNT);
      if (silent) return forgetRestoredWallet();
      const rejected = declinedByUser(cause);
      const message = cause instanceof Error ? cause.message : String(cause);
      events.emit({ type: 'CONNECT_ERROR', data: { ...reported, message, rejected } });
      connection.setState({ status: 'disconnected', error: { kind: rejected ? 'rejected' : 'failed', cause } });
      modal.setLoading(false);
      // A rejection is a choice, so the user goes back to the wallet list; other failures stay
      // on ConnectingExternal, which offers a retry.
      if (rejected) modal.reset('Connect');
      return;
    }
    stopWatchingProvider = watch(connector);
    storage.setItem(STORAGE_KEYS.connectedWallet, restoreKey(connector));
    activeNetwork.rememberConnection(connectorNamespace(connector), restoreKey(connector));
    connection.setState({ status: 'connected' });
    const { address, caipNetworkId } = account.getState();
    if (address && caipNetworkId) {
      events.emit({ type: 'CONNECT_SUCCESS', data: { ...reported, caipNetworkId }, address });
    }
    modal.setLoading(false);
    await showNetworkState();
  }

  /**
   * The EVM wallet's first account and its chain. `authorised`: only accounts already authorised
   * (`eth_accounts`, no prompt): a reload's reconnect, or a paired wallet, which approved its
   * accounts in the pairing (asking again would prompt twice).
   */
  async function eip155Account(connector: Eip155Connector, authorised: boolean, abandoned: () => boolean) {
    const method = authorised ? 'eth_accounts' : 'eth_requestAccounts';
    const [address] = (await connector.provider.request({ method })) as string[];
    if (!address || abandoned()) return undefined;
    const chainId = (await connector.provider.request({ method: 'eth_chainId' })) as string;
    return { address, caipNetworkId: toCaipNetworkId(chainId) };
  }

  /** The Solana wallet's first account, on the host's Solana network (`silent`: no prompt). */
  async function solanaAccount({ wallet }: SolanaConnector, silent: boolean) {
    const network = solanaNetwork();
    if (!network) throw new Error('No Solana network is configured');
    const connectFeature = feature<StandardConnectFeature>(wallet, 'standard:connect', 'connect');
    if (!connectFeature) throw new Error(`${wallet.name} cannot connect (no standard:connect)`);
    const { accounts } = await connectFeature.connect(silent ? { silent: true } : undefined);
    const [first] = accounts ?? [];
    return first && { address: first.address, caipNetworkId: network.caipNetworkId };
  }

  /** The wallet connected last no longer answers with an account: start over as disconnected. */
  function forgetRestoredWallet() {
    const forgotten = storage.getItem(STORAGE_KEYS.connectedWallet);
    for (const namespace of activeNetwork.connectedNamespaces()) {
      if (activeNetwork.connectorId(namespace) === forgotten) activeNetwork.forgetConnection(namespace);
    }
    walletToRestore = null;
    storage.removeItem(STORAGE_KEYS.connectedWallet);
    connection.setState({ status: 'disconnected', activeConnectorId: undefined });
  }

  async function connect(connectorId: string) {
    const connector = connection.getState().connectors.find(({ id }) => id === connectorId);
    if (!connector) return;
    walletToRestore = null;
    await establish(connector, { silent: false });
  }

  /** The connected wallet and account; throws the documented message when there is none. */
  function connected() {
    const { activeConnectorId, connectors, status } = connection.getState();
    const connector = connectors.find(({ id }) => id === activeConnectorId);
    const { address } = account.getState();
    if (status !== 'connected' || !connector || !address) throw new Error('No ConnectionController client found');
    return { connector, address };
  }

  async function switchNetwork(network: Network) {
    if (connection.getState().status !== 'connected') return switchWithoutWallet(network);
    const before = account.getState().caipNetworkId;
    await whileLoading(network.chainNamespace, () => switchNetworkAtWallet(network));
    const after = account.getState().caipNetworkId;
    if (after !== before && after) events.emit({ type: 'SWITCH_NETWORK', data: { caipNetworkId: after } });
  }

  /** No wallet to ask: the host's network becomes the active one, for the wallet connected next. */
  function switchWithoutWallet(network: Network) {
    if (!findNetwork(network.caipNetworkId)) throw new NetworkSwitchError('unsupported', new Error(`${network.caipNetworkId} is not one of the app's networks`));
    const before = activeNetwork.store.getState().activeNetwork.caipNetworkId;
    activeNetwork.setActive(network.caipNetworkId);
    if (before !== network.caipNetworkId) events.emit({ type: 'SWITCH_NETWORK', data: { caipNetworkId: network.caipNetworkId } });
  }

  async function switchNetworkAtWallet(network: Network) {
    const { connector, address: current } = connected();
    const embeddedSolana = connector.namespace === 'solana' ? undefined : connector.solana;
    if (embeddedSolana && network.chainNamespace === 'solana') {
      // Issue 28: the embedded wallet signs on any of the host's Solana networks with its Solana account.
      const [first] = embeddedSolana.accounts;
      if (!first) throw new NetworkSwitchError('unsupported', new Error('The embedded wallet has no Solana account'));
      if (network.caipNetworkId === account.getState().caipNetworkId) return;
      setAccount(first.address, network.caipNetworkId);
      await showNetworkState();
      return;
    }
    // Back from the embedded wallet's Solana account: its EVM address.
    const address = account.getState().caipNetworkId?.startsWith('solana:') && embeddedSolana ? (evmAddress ?? current) : current;
    if (network.chainNamespace !== connectorNamespace(connector)) {
      throw new NetworkSwitchError('unsupported', new Error(`The connected wallet does not sign for ${network.chainNamespace}`));
    }
    if (connector.namespace === 'solana') {
      // Wallet Standard wallets sign for any Solana cluster: the app's choice is the network.
      if (network.caipNetworkId === account.getState().caipNetworkId) return;
      setAccount(address, network.caipNetworkId);
      await showNetworkState();
      return;
    }
    const { provider } = connector;
    const chainId = eip155ChainIdHex(network.caipNetworkId);
    const codeOf = (cause: unknown) => (cause as { code?: unknown } | null)?.code;
    const switchTo = () => provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] });
    try {
      await switchTo();
    } catch (cause) {
      const code = codeOf(cause);
      if (code === USER_REJECTED_REQUEST) throw new NetworkSwitchError('rejected', cause);
      if (typeof code !== 'number' || !isAddChainTrigger(code)) throw new NetworkSwitchError('failed', cause);
      try {
        await provider.request({ method: 'wallet_addEthereumChain', params: [addChainParameters(network, chainId)] });
        // EIP-3085 lets a wallet add without switching; switching again is harmless when it did.
        await switchTo();
      } catch (addCause) {
        throw new NetworkSwitchError(codeOf(addCause) === USER_REJECTED_REQUEST ? 'rejected' : 'unsupported', addCause);
      }
    }
    // Wallets announce the switch with `chainChanged`; the chain is read back for one that does not.
    const now = toCaipNetworkId((await provider.request({ method: 'eth_chainId' })) as string);
    if (now === account.getState().caipNetworkId) return;
    followWallet(() => {
      setAccount(address, now);
      void showNetworkState();
    });
  }

  async function signMessage(message: string): Promise<string> {
    const { connector, address } = connected();
    const bytes = new TextEncoder().encode(message);
    if (connector.namespace === 'solana') return signSolanaMessage(connector, address, bytes);
    // The embedded wallet on the host's Solana network signs with its Solana account.
    if (connector.solana && account.getState().caipNetworkId?.startsWith('solana:')) {
      return signSolanaMessage({ wallet: connector.solana }, address, bytes);
    }
    // EIP-1193 wallets take the message as hex of its UTF-8 bytes.
    return (await connector.provider.request({ method: 'personal_sign', params: [hexData(bytes), address] })) as string;
  }

  async function signSolanaMessage({ wallet }: { wallet: StandardWallet }, address: string, message: Uint8Array) {
    const signer = feature<SolanaSignMessageFeature>(wallet, 'solana:signMessage', 'signMessage');
    // The wallet wants its own account object back, not a copy.
    const walletAccount = wallet.accounts.find((candidate) => candidate.address === address);
    // Behaviour 2.15: a wallet without the signing feature has no provider for this call.
    if (!signer) throw new LatchAdapterError('PROVIDER_UNDEFINED', PROVIDER_UNDEFINED, wallet.name);
    if (!walletAccount) throw new Error(`${wallet.name} cannot sign for ${address}`);
    const [output] = await signer.signMessage({ account: walletAccount, message });
    // A wallet may sign a prefixed message; the verifier checks the bytes the user was shown.
    if (!output || !sameBytes(output.signedMessage, message)) throw new Error(`${wallet.name} signed a different message`);
    const { solanaSignatureText } = await loadWasmExtra();
    return solanaSignatureText(output.signature);
  }

  return {
    connection,
    account,
    network: activeNetwork,
    addConnector(connector) {
      connection.setState(({ connectors }) => {
        const known = connectors.some(
          ({ id, rdns }) => id === connector.id || (rdns !== '' && rdns === connector.rdns),
        );
        return known ? {} : { connectors: [...connectors, connector] };
      });
      const { status, activeConnectorId } = connection.getState();
      if (walletToRestore && restoreKey(connector) === walletToRestore && status !== 'connected' && !activeConnectorId) {
        walletToRestore = null;
        void establish(connector, { silent: true });
      }
    },
    connect,
    async connectWith(connector, { silent }) {
      connection.setState(({ connectors }) => ({
        connectors: [...connectors.filter(({ id }) => id !== connector.id), connector],
      }));
      walletToRestore = null;
      await establish(connector, { silent, paired: true });
    },
    abandonRestore() {
      if (connection.getState().activeConnectorId) return;
      forgetRestoredWallet();
    },
    disconnect,
    refreshBalance,
    signMessage,
    switchNetwork,
    networksChanged({ added, removed }) {
      const { address, caipNetworkId } = account.getState();
      // Only a change of the account's own network changes what it shows.
      if (!address || (added ?? removed)?.caipNetworkId !== caipNetworkId) return;
      // A Solana account is on the app's network: it moves to the app's next Solana one.
      const next = removed?.chainNamespace === 'solana' && solanaNetwork();
      if (next) followWallet(() => setAccount(address, next.caipNetworkId));
      void showNetworkState();
    },
    restore() {
      if (!walletToRestore || connection.getState().status !== 'disconnected') return () => undefined;
      connection.setState({ status: 'connecting' });
      // A WalletConnect session is restored by its controller, which reports either way.
      // So is an embedded wallet's (core/embedded), by its own.
      if (walletToRestore === WALLET_CONNECT_CONNECTOR_ID || walletToRestore === EMBEDDED_CONNECTOR_ID) return () => undefined;
      const timer = setTimeout(() => {
        // Still waiting, with no attempt under way: the wallet is gone (uninstalled, disabled).
        if (walletToRestore && !connection.getState().activeConnectorId) forgetRestoredWallet();
      }, RESTORE_WAIT_MS);
      return () => clearTimeout(timer);
    },
  };
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array) =>
  a !== undefined && a.length === b.length && a.every((byte, i) => byte === b[i]);

/** What storage remembers of the connected wallet: its reverse-DNS id, else the connector id. */
const restoreKey = (connector: Connector) => connector.rdns || connector.id;

/** EIP-3085 `wallet_addEthereumChain` parameters for a network the host configured. */
function addChainParameters(network: Network, chainId: string) {
  return {
    chainId,
    chainName: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls: network.rpcUrls.chainDefault?.http ?? network.rpcUrls.default.http,
  };
}

/** `eth_chainId` answers in hex; CAIP-2 wants the decimal reference. */
function toCaipNetworkId(chainId: string): CaipNetworkId {
  return eip155NetworkId(chainId) as CaipNetworkId;
}
