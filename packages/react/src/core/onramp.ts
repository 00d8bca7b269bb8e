// The Buy view's store (behaviour 5.9 "Onramp", behaviour 6.10): options, a debounced live quote and the provider's
// checkout in a popup. Every rule (limits, fees, URL formats) is the Latch server's, which applies
// latch-core's; this store only asks, shows and follows.
import type { MessageKey } from '../locales/index.js';
import { serverUrl, type ServerLocation } from './api.js';
import { fetchJson, HttpError } from './gateway.js';
import { createStore, type Store } from './store.js';
import type { ToastController } from './toasts.js';
import type { CaipNetworkId } from './types.js';
import { DEBOUNCE_MS } from './timings.js';

export interface OnrampMethodLimit { id: string; min: string; max: string }
export interface OnrampNetwork { name: string; display_name: string; chain_id: string; contract_address: string }
export interface OnrampOptions {
  paymentCurrencies: { id: string; payment_method_limits: OnrampMethodLimit[] }[];
  purchaseCurrencies: { id: string; name: string; symbol: string; networks: OnrampNetwork[] }[];
  provider: string;
  providers: string[];
  fallback: boolean;
}
export interface OnrampMoney { amount: string; currency: string }
export interface OnrampQuote {
  coinbaseFee: OnrampMoney;
  networkFee: OnrampMoney;
  paymentSubtotal: OnrampMoney;
  paymentTotal: OnrampMoney;
  purchaseAmount: OnrampMoney;
  quoteId: string;
  estimate?: boolean;
}

export interface OnrampState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  options?: OnrampOptions;
  provider?: string;
  amount: string;
  currency: string;
  method: string;
  asset: string;
  network: string;
  quote?: OnrampQuote;
  quoting: boolean;
  error?: MessageKey;
  /** True while the provider's window is open (balances and Activity are polled). */
  following: boolean;
}

export interface OnrampDeps {
  server: ServerLocation;
  account: Store<{ address?: string; caipNetworkId?: CaipNetworkId }>;
  refresh: () => Promise<unknown>;
  toasts: ToastController;
  /** The chain name the provider uses for a network (latch-core's rule, with the ethereum fallback). */
  onrampChain: (caipNetworkId: string) => Promise<string>;
  /** `window.open`; injectable for tests. */
  open?: (url: string) => Window | null;
  debounceMs?: number;
  pollMs?: number;
  /** How long a purchase is followed at most (the window may stay open, or be out of reach). */
  followMs?: number;
}

export interface OnrampController {
  store: Store<OnrampState>;
  load(provider?: string): Promise<void>;
  set(patch: Partial<Pick<OnrampState, 'amount' | 'currency' | 'method' | 'asset' | 'network'>>): void;
  /** The amount `open({ view: 'Onramp', data })` passed; quoted once the options are read. */
  prefill(amount: string): void;
  submit(): Promise<void>;
  dispose(): void;
}

const CODES: Record<string, MessageKey> = {
  AMOUNT_BELOW_MIN: 'buyErrorBelowMin',
  AMOUNT_ABOVE_MAX: 'buyErrorAboveMax',
  INVALID_AMOUNT: 'buyErrorAmount',
  UNSUPPORTED_CURRENCY: 'buyErrorUnavailable',
  UNSUPPORTED_PAYMENT_METHOD: 'buyErrorUnavailable',
  UNSUPPORTED_ASSET: 'buyErrorUnavailable',
  UNSUPPORTED_NETWORK: 'buyErrorUnavailable',
};

/** A purchase is followed for 15 minutes at most: a checkout takes a few. */
const FOLLOW_MAX_MS = 15 * 60_000;

export function createOnramp(deps: OnrampDeps): OnrampController {
  const store = createStore<OnrampState>({
    status: 'idle', amount: '', currency: 'USD', method: 'CARD', asset: '', network: '', quoting: false, following: false,
  });
  const debounceMs = deps.debounceMs ?? DEBOUNCE_MS;
  const pollMs = deps.pollMs ?? 2000;
  const followMs = deps.followMs ?? FOLLOW_MAX_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let asked = 0;
  const url = (path: string, query?: Record<string, string | undefined>) => serverUrl(deps.server, path, query);

  const post = <T>(path: string, body: unknown) =>
    fetchJson<T>(url(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  function failed(error: unknown): Partial<OnrampState> {
    const code = error instanceof HttpError ? error.code : undefined;
    return { error: (code && CODES[code]) || 'buyErrorFailed' };
  }

  async function quote() {
    const { amount, currency, method, asset, network, provider } = store.getState();
    const ask = ++asked;
    if (!amount.trim()) return store.setState({ quote: undefined, quoting: false, error: undefined });
    try {
      const body = { purchaseCurrency: asset, paymentCurrency: currency, amount: amount.trim(), network, paymentMethod: method, provider };
      const answer = await post<OnrampQuote>('/v1/onramp/quote', body);
      if (ask === asked) store.setState({ quote: answer, quoting: false, error: undefined });
    } catch (error) {
      if (ask === asked) store.setState({ quote: undefined, quoting: false, ...failed(error) });
    }
  }

  function requote() {
    clearTimeout(timer);
    store.setState({ quoting: true });
    timer = setTimeout(() => void quote(), debounceMs);
  }

  function stopFollowing() {
    clearInterval(poll);
    poll = undefined;
    store.setState({ following: false });
  }

  const controller: OnrampController = {
    store,
    async load(provider) {
      store.setState({ status: 'loading', error: undefined });
      try {
        const options = await fetchJson<OnrampOptions>(url('/v1/onramp/options', { provider }));
        const caip = deps.account.getState().caipNetworkId ?? 'eip155:1';
        const reference = caip.split(':')[1];
        const chainName = await deps.onrampChain(caip).catch(() => 'ethereum');
        // The asset on the account's own chain first; else on the provider's name for it (ethereum fallback).
        const pick = (networks: OnrampNetwork[]) =>
          networks.find((n) => n.chain_id === reference || n.name === caip) ?? networks.find((n) => n.name === chainName) ?? networks.find((n) => n.name === 'ethereum');
        const asset = options.purchaseCurrencies.find((c) => pick(c.networks)) ?? options.purchaseCurrencies[0];
        const network = asset ? (pick(asset.networks) ?? asset.networks[0]) : undefined;
        const currency = options.paymentCurrencies[0];
        store.setState({
          status: 'ready', options, provider: options.provider, asset: asset?.symbol ?? '', network: network?.name ?? '',
          currency: currency?.id ?? 'USD', method: currency?.payment_method_limits[0]?.id ?? 'CARD',
        });
        if (store.getState().amount) requote();
      } catch (error) {
        store.setState({ status: 'error', ...failed(error) });
      }
    },
    prefill(amount) {
      // Before the options are read, `load` quotes it; after, it is quoted as if typed.
      if (store.getState().status === 'ready') controller.set({ amount });
      else store.setState({ amount });
    },
    set(patch) {
      const next = { ...patch };
      if (patch.asset) {
        const asset = store.getState().options?.purchaseCurrencies.find((c) => c.symbol === patch.asset);
        const current = store.getState().network;
        if (asset && !asset.networks.some((n) => n.name === current)) next.network = asset.networks[0]?.name ?? '';
      }
      store.setState(next);
      requote();
    },
    async submit() {
      const { amount, currency, method, asset, network, provider, quote: shown } = store.getState();
      const { address } = deps.account.getState();
      if (!address || !shown) return;
      // Opened before the request so the browser ties it to the click (no popup blocker).
      const popup = (deps.open ?? ((u) => globalThis.open(u, 'latch-onramp', 'popup,width=460,height=720')))('about:blank');
      try {
        const body = {
          destinationWallets: [{ address, blockchains: [network], assets: [asset] }], defaultNetwork: network,
          defaultExperience: 'buy', presetFiatAmount: amount.trim(), fiatCurrency: currency, paymentMethod: method, provider,
        };
        const { url: checkout } = await post<{ url: string }>('/v1/generators/onrampurl', body);
        if (popup) popup.location.href = checkout;
        else globalThis.open(checkout, '_blank', 'noopener');
        store.setState({ following: true, error: undefined });
        clearInterval(poll);
        // Real providers report nothing back: follow the purchase by reading balances and Activity,
        // until the window closes or, without a window to watch, for a bounded time. A read still
        // under way is not started again.
        const until = Date.now() + followMs;
        let reading: Promise<unknown> | undefined;
        const read = () => {
          reading ??= deps
            .refresh()
            .catch(() => undefined)
            .finally(() => (reading = undefined));
        };
        poll = setInterval(() => {
          if (popup?.closed) {
            stopFollowing();
            void deps.refresh();
            deps.toasts.show({ variant: 'success', message: 'buyFollowDone' });
          } else if (Date.now() >= until) {
            stopFollowing();
          } else read();
        }, pollMs);
      } catch (error) {
        popup?.close();
        store.setState(failed(error));
      }
    },
    dispose() {
      clearTimeout(timer);
      stopFollowing();
    },
  };
  return controller;
}
