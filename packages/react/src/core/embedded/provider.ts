// The embedded wallet as an EIP-1193 provider, so the connection controller connects it like any
// other wallet. Accounts and the chain are answered here; every other method goes to the frame as
// RPC_REQUEST, which decides (behaviour 5.18): reads through latch's gateway, signatures after
// the user approves them in the frame's own panel, anything else "Requested RPC call is not allowed".
import { eip155ChainIdHex, eip155NetworkId } from '@latch/wasm';
import type { Eip1193Provider } from '../types.js';
import { FrameError, type FrameClient } from './frameClient.js';

/** Behaviour 5.18: a method the embedded wallet does not run. */
export const NOT_ALLOWED = 'Requested RPC call is not allowed';

type Listener = (...args: never[]) => void;

export interface EmbeddedProvider extends Eip1193Provider {
  /** Tells listeners the account is gone (sign-out). */
  signedOut(): void;
}

export interface ProviderHooks {
  /** The frame refused a method (behaviour 5.19: the modal shows "Action not allowed"). */
  refused?(): void;
  /** A forwarded request ended (`ok` false: rejected or failed). */
  settled?(ok: boolean): void;
}

/** The frame's error as an EIP-1193 error: its message and code (4001 rejected, 4200 not allowed). */
export function providerError(error: unknown): Error {
  if (error instanceof FrameError && error.code !== undefined) return Object.assign(new Error(error.message), { code: error.code });
  // Aborted, timed out or a frame failure: EIP-1193's generic internal error.
  return Object.assign(error instanceof Error ? error : new Error(String(error)), { code: -32603 });
}

/**
 * One RPC_REQUEST to the frame (EVM or Solana), its outcome told to `hooks`; a refusal comes back
 * as the EIP-1193 error `providerError` makes.
 */
export async function frameRequest<T>(client: FrameClient, hooks: ProviderHooks, payload: Record<string, unknown>): Promise<T> {
  try {
    const result = await client.request<T>('RPC_REQUEST', payload);
    hooks.settled?.(true);
    return result;
  } catch (error) {
    const failed = providerError(error);
    if ((failed as { code?: number }).code === 4200) hooks.refused?.();
    hooks.settled?.(false);
    throw failed;
  }
}

export function createEmbeddedProvider(
  client: FrameClient,
  address: string,
  chainId: string,
  hooks: ProviderHooks = {},
): EmbeddedProvider {
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
          return frameRequest(client, hooks, { method, params: params ?? [] });
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
