import { LATCH_CONSTANTS } from '@latch/wasm';
import type { ApiClient, NameProfile, NftHoldings, Transaction, TokenBalance } from './api.js';
import type { AccountState } from './connection.js';
import { serverRefusal } from './gateway.js';
import { createStore, type Store } from './store.js';
import type { ToastController } from './toasts.js';
import type { CaipNetworkId, Network } from './types.js';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface TokensState {
  status: LoadStatus;
  balances: readonly TokenBalance[];
  error?: unknown;
  /** When the last read failed (ms): behaviour allows the next try 30 s later. */
  failedAt?: number;
}

export interface ActivityState {
  status: LoadStatus;
  transactions: readonly Transaction[];
  /** The cursor of the next page, `null` when all are loaded. */
  next: string | null;
  loadingMore: boolean;
  error?: unknown;
}

export interface IdentityState {
  name?: string;
  avatar?: string;
}

export interface AccountDataController {
  tokens: Store<TokensState>;
  activity: Store<ActivityState>;
  identity: Store<IdentityState>;
  /**
   * Reads token balances again unless the last failure is under 30 s old; whether it read.
   * `fresh`: past the server's cache, after a transaction changed them.
   */
  refreshTokens(fresh?: boolean): Promise<boolean>;
  /** Loads the first page of activity (once per account and network) or, with `more`, the next. */
  loadActivity(more?: boolean): Promise<void>;
  /** A Latch or ENS name's profile from the server; undefined when unknown. */
  profile(name: string): Promise<NameProfile | undefined>;
  /** The server's API, for the parts that load later (name registration). */
  readonly api: ApiClient;
  /** Reads the first page of activity again (after a send), if it was ever loaded. */
  refreshActivity(): Promise<void>;
  /** The NFTs the account holds (every transfer the server indexed); none without an account. */
  nfts(): Promise<NftHoldings>;
}

/** Behaviour 7.1: after a failed balance read, no retry for 30 s. */
export const TOKEN_RETRY_MS: number = LATCH_CONSTANTS.cooldowns.balanceRetryMs;

const EMPTY_TOKENS: TokensState = { status: 'idle', balances: [], error: undefined, failedAt: undefined };
const EMPTY_ACTIVITY: ActivityState = { status: 'idle', transactions: [], next: null, loadingMore: false, error: undefined };

/**
 * The Account view's data from the Latch server: token balances and identity as soon as an
 * account on a supported network is known, activity when first asked for. A change of
 * account or network starts over, and answers for an earlier one are dropped.
 */
export function createAccountData({
  api,
  account,
  networks,
  toasts,
  now = () => Date.now(),
}: {
  api: ApiClient;
  account: Store<AccountState>;
  networks: readonly Network[];
  /** Behaviour 5.2: failed reads are also announced as toasts. */
  toasts?: ToastController;
  now?: () => number;
}): AccountDataController {
  const tokens = createStore<TokensState>(EMPTY_TOKENS);
  const activity = createStore<ActivityState>(EMPTY_ACTIVITY);
  const identity = createStore<IdentityState>({ name: undefined, avatar: undefined });
  // Which account and network the stores describe; a load for another is stale.
  let generation = 0;
  let current: { address: string; caipNetworkId: CaipNetworkId } | undefined;

  const supported = (id: CaipNetworkId | undefined) => networks.some((n) => n.caipNetworkId === id);

  async function readTokens(expected: number, fresh = false) {
    if (!current) return;
    tokens.setState({ status: 'loading', error: undefined });
    try {
      const balances = await api.balances(current.address, current.caipNetworkId, fresh);
      if (expected === generation) tokens.setState({ status: 'ready', balances, failedAt: undefined });
    } catch (error) {
      if (expected !== generation) return;
      tokens.setState({ status: 'error', error, failedAt: now() });
      // A refused project is shown in place (Invalid Project ID / App Configuration), not as a toast.
      if (!serverRefusal(error)) toasts?.show({ variant: 'error', message: 'balanceUnavailable' });
    }
  }

  async function readIdentity(expected: number) {
    if (!current) return;
    try {
      const { name, avatar } = await api.identity(current.address);
      if (expected === generation) identity.setState({ name: name ?? undefined, avatar: avatar ?? undefined });
    } catch {
      // A missing identity shows the address instead; nothing to report.
    }
  }

  account.subscribe(() => {
    const { address, caipNetworkId } = account.getState();
    const next = address && caipNetworkId && supported(caipNetworkId) ? { address, caipNetworkId } : undefined;
    if (next?.address === current?.address && next?.caipNetworkId === current?.caipNetworkId) return;
    current = next;
    const expected = ++generation;
    tokens.setState(EMPTY_TOKENS);
    activity.setState(EMPTY_ACTIVITY);
    identity.setState({ name: undefined, avatar: undefined });
    if (!current) return;
    void readTokens(expected);
    void readIdentity(expected);
  });

  return {
    tokens,
    activity,
    identity,
    async refreshTokens(fresh = false) {
      const { failedAt } = tokens.getState();
      if (failedAt !== undefined && now() - failedAt < TOKEN_RETRY_MS) return false;
      await readTokens(generation, fresh);
      return true;
    },
    profile: (name) => api.profile(name),
    api,
    async refreshActivity() {
      if (!current || activity.getState().status === 'idle') return;
      const expected = generation;
      try {
        const page = await api.history(current.address, current.caipNetworkId, null);
        if (expected === generation) activity.setState({ status: 'ready', transactions: page.data, next: page.next, error: undefined });
      } catch {
        // The list on screen stays; the next refresh tries again.
      }
    },
    async loadActivity(more = false) {
      if (!current) return;
      const state = activity.getState();
      if (more ? state.next === null || state.loadingMore : state.status !== 'idle' && state.status !== 'error') return;
      const expected = generation;
      activity.setState(more ? { loadingMore: true } : { status: 'loading', error: undefined });
      try {
        const page = await api.history(current.address, current.caipNetworkId, more ? state.next : null);
        if (expected !== generation) return;
        activity.setState(({ transactions }) => ({
          status: 'ready',
          transactions: more ? [...transactions, ...page.data] : page.data,
          next: page.next,
          loadingMore: false,
        }));
      } catch (error) {
        if (expected !== generation) return;
        activity.setState(more ? { loadingMore: false, error } : { status: 'error', error });
        if (!serverRefusal(error)) toasts?.show({ variant: 'error', message: 'activityFailed' });
      }
    },
    async nfts() {
      return current ? api.nfts(current.address, current.caipNetworkId) : { data: [], partial: false };
    },
  };
}
