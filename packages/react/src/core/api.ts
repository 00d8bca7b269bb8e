import type { TokenBalance, Transaction } from '@latch/wasm';
import { fetchJson, HttpError, transportUrl } from './gateway.js';
import { SDK_TYPE, SDK_VERSION } from './sdk.js';
import type { CaipNetworkId } from './types.js';

export type { TokenBalance, Transaction } from '@latch/wasm';

export interface HistoryPage {
  data: Transaction[];
  next: string | null;
}

/** `/v1/account/{address}/nfts`: the tokens an address holds on the indexed chains. */
export interface NftHoldings {
  data: {
    chainId: CaipNetworkId;
    contract: string;
    tokenId: string;
    kind: 'erc721' | 'erc1155';
    amount: string;
    name: string;
    content: { preview?: { url: string } } | null;
    /** It last came in a transaction the holder did not send. */
    isSpam: boolean;
  }[];
  /** The list may be incomplete (the chain is not indexed, or too many transfers). */
  partial: boolean;
}

/** `/v1/identity/{address}`: the verified name and avatar. */
export interface Identity {
  name: string | null;
  avatar: string | null;
}

/** `/v1/profile/account/{name}`: a Latch or ENS name's addresses by coin type, and attributes. */
export interface NameProfile {
  name: string;
  addresses: Record<string, { address: string }>;
  attributes: Record<string, string>;
}

/** `/v1/profile/suggestions/{name}`: the wanted full name first (taken or not), then free variants. */
export interface NameSuggestion {
  name: string;
  registered: boolean;
}

/** `POST /v1/profile/account`: a signed registration (behaviour 6.9). */
export interface NameRegistration {
  coin_type: number;
  address: string;
  /** The JSON text that was signed: `{"name","attributes","timestamp"}`. */
  message: string;
  signature: string;
}

/** The address the balance API's `forceUpdate` uses for a chain's native coin (behaviour 6.8). */
const NATIVE_TOKEN_PLACEHOLDER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

/** The Latch server's account endpoints (behaviour 6.8). */
export interface ApiClient {
  /** `fresh`: bypass the server's 30 s cache (after a send), through its `forceUpdate`. */
  balances(address: string, chainId: CaipNetworkId, fresh?: boolean): Promise<TokenBalance[]>;
  history(address: string, chainId: CaipNetworkId, cursor?: string | null): Promise<HistoryPage>;
  nfts(address: string, chainId: CaipNetworkId): Promise<NftHoldings>;
  identity(address: string): Promise<Identity>;
  /** A name's profile; undefined when no one holds the name (404). */
  profile(name: string): Promise<NameProfile | undefined>;
  /** The names held by an address (`[]` when none). */
  names(address: string): Promise<NameProfile[]>;
  nameSuggestions(name: string): Promise<NameSuggestion[]>;
  registerName(registration: NameRegistration): Promise<NameProfile>;
}

export interface ServerLocation {
  projectId: string;
  /** Read on every call so importing or creating Latch never touches `window`. */
  getServerUrl(): string;
}

/**
 * A URL of the Latch server with `projectId`, the SDK's type and version (`st`, `sv`: every GET
 * carries them, behaviour 6.1) and the non-empty `query` values as parameters.
 */
export function serverUrl(
  { projectId, getServerUrl }: ServerLocation,
  path: string,
  query: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams({ projectId, st: SDK_TYPE, sv: SDK_VERSION });
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return `${transportUrl(getServerUrl)}${path}?${params}`;
}

/** Behaviour 8's words for a history read with no account. */
export const NO_ACCOUNT_FOR_HISTORY = "Transactions can't be fetched without an accountAddress";

export function createApiClient(server: ServerLocation): ApiClient {
  const url = (path: string, query?: Record<string, string | undefined>) => serverUrl(server, path, query);
  const segment = encodeURIComponent;
  return {
    async balances(address, chainId, fresh) {
      const path = `/v1/account/${segment(address)}/balance`;
      // Any forced token re-reads them all; the native coin's placeholder address names one.
      const forceUpdate = fresh ? `${chainId}:${NATIVE_TOKEN_PLACEHOLDER}` : undefined;
      const body = await fetchJson<{ balances: TokenBalance[] }>(url(path, { currency: 'usd', chainId, forceUpdate }));
      return body.balances;
    },
    async history(address, chainId, cursor) {
      // Behaviour 8 (sign-in): asked for no account, the call is refused rather than sent.
      if (!address) throw new Error(NO_ACCOUNT_FOR_HISTORY);
      const path = `/v1/account/${segment(address)}/history`;
      return fetchJson<HistoryPage>(url(path, { chainId, cursor: cursor ?? undefined }));
    },
    async nfts(address, chainId) {
      return fetchJson<NftHoldings>(url(`/v1/account/${segment(address)}/nfts`, { chainId }));
    },
    async identity(address) {
      return fetchJson<Identity>(url(`/v1/identity/${segment(address)}`));
    },
    async profile(name) {
      try {
        return await fetchJson<NameProfile>(url(`/v1/profile/account/${segment(name)}`));
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return undefined;
        throw error;
      }
    },
    async names(address) {
      return fetchJson<NameProfile[]>(url(`/v1/profile/reverse/${segment(address)}`));
    },
    async nameSuggestions(name) {
      return (await fetchJson<{ suggestions: NameSuggestion[] }>(url(`/v1/profile/suggestions/${segment(name)}`))).suggestions;
    },
    async registerName(registration) {
      return fetchJson<NameProfile>(url('/v1/profile/account'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registration),
      });
    },
  };
}
