import type { CatalogueWallet } from './catalogue.js';

export type ChainNamespace = 'eip155' | 'solana' | 'polkadot' | 'bip122';

/** A CAIP-2 network id such as `eip155:1`. */
export type CaipNetworkId = `${string}:${string}`;

/** A CAIP-10 account id such as `eip155:1:0xabc…`. */
export type CaipAddress = `${string}:${string}:${string}`;

/** A network the host application supports (spec §3, Network). */
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

/** A wallet the user can connect with: announced (EIP-6963) or paired over WalletConnect. */
export interface Connector {
  id: string;
  type: 'ANNOUNCED' | 'WALLET_CONNECT';
  name: string;
  imageUrl: string;
  /** Empty for a WalletConnect session. */
  rdns: string;
  provider: Eip1193Provider;
  /** The wallet's catalogue entry, when the pairing started from its row. */
  catalogueWallet?: CatalogueWallet;
  /** Ends the session at the wallet (WalletConnect); announced wallets have nothing to end. */
  disconnect?(): Promise<void>;
}
