import type { SolanaConnector, StandardWallet, StandardWalletAccount } from './types.js';

/** The Wallet Standard features Latch uses, as wallets implement them. */
export interface StandardConnectFeature {
  /** `silent`: only accounts already authorised, no prompt (an empty list when there are none). */
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly StandardWalletAccount[] }>;
}
export interface StandardDisconnectFeature {
  disconnect(): Promise<void>;
}
export interface StandardEventsFeature {
  /** Returns the function that stops listening. */
  on(
    event: 'change',
    listener: (properties: { accounts?: readonly StandardWalletAccount[]; chains?: readonly string[] }) => void,
  ): () => void;
}
export interface SolanaSignMessageFeature {
  signMessage(
    ...inputs: { account: StandardWalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array }[]>;
}

/**
 * The marker feature of wallets that forward to the wallet connected through Latch (@latch/solana's
 * "Latch" wallet): Latch never lists them, or connecting one would forward to itself.
 */
export const LATCH_FORWARDER_FEATURE = 'latch:forwarder';

/** A feature object with its method, or undefined when the wallet lacks it (or has it malformed). */
export function feature<T>(wallet: StandardWallet, name: string, method: keyof T & string): T | undefined {
  const value = wallet.features[name] as Record<string, unknown> | null | undefined;
  return value && typeof value[method] === 'function' ? (value as T) : undefined;
}

/**
 * Whether Latch can offer `wallet` for Solana: it names a `solana:*` chain and has the features the
 * connection needs (`standard:connect` to get an account, `solana:signMessage` for sign-in).
 */
export function isSolanaWallet(wallet: StandardWallet | null | undefined): wallet is StandardWallet {
  if (!wallet || typeof wallet.name !== 'string' || !wallet.name || !Array.isArray(wallet.chains)) return false;
  if (!wallet.features || typeof wallet.features !== 'object') return false;
  if (LATCH_FORWARDER_FEATURE in wallet.features) return false;
  return (
    wallet.chains.some((chain) => typeof chain === 'string' && chain.startsWith('solana:')) &&
    feature<StandardConnectFeature>(wallet, 'standard:connect', 'connect') !== undefined &&
    feature<SolanaSignMessageFeature>(wallet, 'solana:signMessage', 'signMessage') !== undefined
  );
}

/** The connector id of a Wallet Standard wallet: wallets have no id of their own, so their name. */
export const walletStandardConnectorId = (wallet: StandardWallet) => `wallet-standard:${wallet.name}`;

/** `wallet` as a connector of the connection controller. */
export function solanaConnector(wallet: StandardWallet): SolanaConnector {
  const disconnect = feature<StandardDisconnectFeature>(wallet, 'standard:disconnect', 'disconnect');
  return {
    id: walletStandardConnectorId(wallet),
    type: 'ANNOUNCED',
    namespace: 'solana',
    name: wallet.name,
    imageUrl: typeof wallet.icon === 'string' ? wallet.icon : '',
    rdns: '',
    wallet,
    // A refusal is reported as DISCONNECT_ERROR; the app is disconnected either way.
    disconnect: disconnect ? () => disconnect.disconnect() : undefined,
  };
}

/**
 * Discovers Wallet Standard wallets that can serve Solana through the standard's own app side
 * (`@wallet-standard/app`: wallets loaded before the app register when it announces itself, later
 * ones when they announce themselves). A wallet registering twice is reported once. Latch keeps a
 * wallet listed until the page reloads, so an unregistration has nothing to undo. Returns the
 * cleanup. The app side loads on the first call, so hosts without Solana never fetch it; call it
 * in the browser only: it announces the app on `window`.
 */
export function watchStandardWallets(onConnector: (connector: SolanaConnector) => void): () => void {
  const seen = new WeakSet<object>();
  const offer = (wallets: readonly unknown[]) => {
    for (const wallet of wallets) {
      if (!wallet || typeof wallet !== 'object' || seen.has(wallet)) continue;
      seen.add(wallet);
      if (isSolanaWallet(wallet as StandardWallet)) onConnector(solanaConnector(wallet as StandardWallet));
    }
  };
  let stopped = false;
  let stop: (() => void) | undefined;
  void import('./walletStandardApp.js').then(({ getWallets }) => {
    if (stopped) return;
    const wallets = getWallets();
    stop = wallets.on('register', (...registered) => offer(registered));
    offer(wallets.get());
  });
  return () => {
    stopped = true;
    stop?.();
  };
}
