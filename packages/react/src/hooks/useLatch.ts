import { currentView, type OpenOptions, type ViewName } from '../core/modal.js';
import type { AccountState, ConnectionStatus } from '../core/connection.js';
import { useLatchInstance } from '../context.js';
import { useStore } from './useStore.js';

export interface LatchModalControls {
  isOpen: boolean;
  /** Opening is waiting for the first view's images (at most 2 s), or the modal for the wallet. */
  isLoading: boolean;
  view: ViewName;
  open(options?: OpenOptions): void;
  close(): void;
}

export function useLatchModal(): LatchModalControls {
  const { modal } = useLatchInstance();
  const state = useStore(modal.store);
  return {
    isOpen: state.open,
    isLoading: state.loading,
    view: currentView(state),
    open: modal.open,
    close: modal.close,
  };
}

export interface LatchAccount extends AccountState {
  status: ConnectionStatus;
}

/**
 * The connected account. With `namespace`, an account in another namespace reads as
 * disconnected (`eip155` or `solana`).
 */
export function useLatchAccount({ namespace }: { namespace?: string } = {}): LatchAccount {
  const latch = useLatchInstance();
  const { status } = useStore(latch.connection);
  const account = useStore(latch.account);
  if (namespace && account.caipNetworkId && !account.caipNetworkId.startsWith(`${namespace}:`)) {
    return { balanceStatus: 'idle', status: 'disconnected' };
  }
  return { ...account, status };
}

export interface UseLatchResult extends LatchModalControls, LatchAccount {
  disconnect(): void;
}

/** The modal controls and the connected account in one object. */
export function useLatch(): UseLatchResult {
  const { disconnect } = useLatchInstance();
  return { ...useLatchModal(), ...useLatchAccount(), disconnect };
}
