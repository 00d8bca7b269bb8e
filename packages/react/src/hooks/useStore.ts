import { useSyncExternalStore } from 'react';
import type { Store } from '../core/store.js';

/** Subscribes a component to a vanilla store; the server snapshot is the same initial state. */
export function useStore<T extends object>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}

/**
 * One value of a store (`select` returns a part of the state, not a new object): the component
 * renders again only when that value changes, not on every change of the store (e.g. a view
 * that reads the modal's namespace stays as it is when the modal opens).
 */
export function useStoreValue<T extends object, V>(store: Store<T>, select: (state: T) => V): V {
  const get = () => select(store.getState());
  return useSyncExternalStore(store.subscribe, get, get);
}
