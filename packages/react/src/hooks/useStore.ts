import { useSyncExternalStore } from 'react';
import type { Store } from '../core/store.js';

/** Subscribes a component to a vanilla store; the server snapshot is the same initial state. */
export function useStore<T extends object>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
