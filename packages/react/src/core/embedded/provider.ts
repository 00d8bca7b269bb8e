// The embedded wallet as an EIP-1193 provider, so the connection controller connects it like any
// other wallet. Accounts come from the frame's user; signing requests are refused until the
// frame's approval view exists (behaviour 5.18 "Requested RPC call is not allowed").
import { eip155ChainIdHex, eip155NetworkId } from '@latch/wasm';
import type { Eip1193Provider } from '../types.js';
import type { FrameClient } from './frameClient.js';

/** Behaviour 5.18: a method the embedded wallet does not run. */
export const NOT_ALLOWED = 'Requested RPC call is not allowed';

type Listener = (...args: never[]) => void;

export interface EmbeddedProvider extends Eip1193Provider {
  /** Tells listeners the account is gone (sign-out). */
  signedOut(): void;
}

export function createEmbeddedProvider(client: FrameClient, address: string, chainId: string): EmbeddedProvider {
  let currentChain = chainId;
  let accounts = [address];
  const listeners = new Map<string, Set<Listener>>();
  const emit = (event: string, value: unknown) =>
    listeners.get(event)?.forEach((listener) => (listener as (value: unknown) => void)(value));
  return {
    async request({ method, params }) {
      switch (method) {
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return accounts;
        case 'eth_chainId':
          return eip155ChainIdHex(currentChain);
        case 'wallet_switchEthereumChain': {
          const [{ chainId: hex } = { chainId: '' }] = (params ?? []) as { chainId: string }[];
          const answer = await client.request<{ chainId: string }>('SWITCH_NETWORK', { chainId: eip155NetworkId(hex) });
          currentChain = answer.chainId;
          emit('chainChanged', eip155ChainIdHex(currentChain));
          return null;
        }
        default:
          throw Object.assign(new Error(NOT_ALLOWED), { code: 4200 });
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(event, set);
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
    },
    signedOut() {
      accounts = [];
      emit('accountsChanged', []);
    },
  };
}
