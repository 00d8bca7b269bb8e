import type { CatalogueWallet } from './catalogue.js';

export type ChainNamespace = 'eip155' | 'solana' | 'polkadot' | 'bip122';

/** A CAIP-2 network id such as `eip155:1`. */
export type CaipNetworkId = `${string}:${string}`;

/** A CAIP-10 account id such as `eip155:1:0xabc…`. */
export type CaipAddress = `${string}:${string}:${string}`;

/** A network the host application supports (behaviour 3.2, Network). */
export interface Network {
  id: number | string;
  caipNetworkId: CaipNetworkId;
  chainNamespace: ChainNamespace;
  name: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: {
    default: { http: readonly string[] };
    chainDefault?: { http: readonly string[] };
  };
}

/** The subset of an EIP-1193 provider Latch uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
  on(event: string, listener: (...args: never[]) => void): void;
  removeListener(event: string, listener: (...args: never[]) => void): void;
}

/** Wallet metadata announced through EIP-6963. */
export interface Eip6963ProviderInfo {
  uuid: string;
  name: string;
  /** A data URI, per EIP-6963. */
  icon: string;
  rdns: string;
}

export interface Eip6963ProviderDetail {
  info: Eip6963ProviderInfo;
  provider: Eip1193Provider;
}

/**
 * A Wallet Standard wallet (wallet-standard 1.0), as registered through the
 * `wallet-standard:register-wallet` / `wallet-standard:app-ready` window events.
 */
export interface StandardWallet {
  readonly version: '1.0.0';
  readonly name: string;
  /** A data URI. */
  readonly icon: string;
  /** Chain ids the wallet supports, e.g. `solana:mainnet` or `solana:localnet`. */
  readonly chains: readonly string[];
  /** Features by name (`standard:connect`, `solana:signMessage`, …). */
  readonly features: Readonly<Record<string, unknown>>;
  /** The accounts the app is authorised to use. */
  readonly accounts: readonly StandardWalletAccount[];
}

export interface StandardWalletAccount {
  /** The account's address as the chain writes it: base58 for Solana. */
  readonly address: string;
  readonly publicKey: Uint8Array;
  readonly chains: readonly string[];
  readonly features: readonly string[];
  readonly label?: string;
  readonly icon?: string;
}

/**
 * How a wallet connects (behaviour 2.2). Latch itself makes `ANNOUNCED` (EIP-6963, Wallet Standard),
 * `INJECTED` (a legacy `window.ethereum` that does not announce) and `WALLET_CONNECT` connectors;
 * `EXTERNAL` (an adapter's own connector), `AUTH` (the embedded wallet) and `MULTI_CHAIN` name
 * kinds Latch does not make yet.
 */
export type ConnectorType = 'INJECTED' | 'ANNOUNCED' | 'EXTERNAL' | 'WALLET_CONNECT' | 'AUTH' | 'MULTI_CHAIN';

/** The documented connector ids (behaviour 2.1); `injected` is the legacy `window.ethereum` wallet. */
export type ConnectorId = 'walletConnect' | 'injected' | 'coinbaseWallet' | 'safe' | 'ledger' | 'okx' | 'ID_AUTH';

interface ConnectorBase {
  id: string;
  name: string;
  imageUrl: string;
  /** Empty for a WalletConnect session and for Wallet Standard wallets (they have none). */
  rdns: string;
  /** The wallet's catalogue entry, when the pairing started from its row. */
  catalogueWallet?: CatalogueWallet;
  /** Ends the session at the wallet (WalletConnect, `standard:disconnect`); EIP-6963 wallets have nothing to end. */
  disconnect?(): Promise<void>;
}

/** An EVM wallet: announced through EIP-6963, a legacy `window.ethereum`, or paired over WalletConnect. */
export interface Eip155Connector extends ConnectorBase {
  /** `AUTH`: the embedded wallet (e-mail or social login, core/embedded). */
  type: Extract<ConnectorType, 'ANNOUNCED' | 'INJECTED' | 'WALLET_CONNECT' | 'AUTH'>;
  /** Absent means `eip155`, the namespace of every connector before Solana. */
  namespace?: 'eip155';
  provider: Eip1193Provider;
  /**
   * The embedded wallet's Solana account (type `AUTH`, issue 28), as a Wallet Standard wallet: on
   * the host's Solana networks the connection uses it as it uses a Solana wallet's.
   */
  solana?: StandardWallet;
}

/** A Solana wallet registered through the Wallet Standard. */
export interface SolanaConnector extends ConnectorBase {
  type: Extract<ConnectorType, 'ANNOUNCED'>;
  namespace: 'solana';
  wallet: StandardWallet;
}

/** A wallet the user can connect with; `namespace` says which kind of chain it signs for. */
export type Connector = Eip155Connector | SolanaConnector;

/**
 * The Wallet Standard wallet that signs for `connector` on a Solana network: a Solana wallet's
 * own, or the embedded wallet's Solana account.
 */
export const solanaWalletOf = (connector: Connector): StandardWallet | undefined =>
  connector.namespace === 'solana' ? connector.wallet : connector.solana;

/** The namespace a connector connects in. */
export const connectorNamespace = (connector: Connector): 'eip155' | 'solana' => connector.namespace ?? 'eip155';
