/** A listener is called after every state change; it reads the new state through `getState`. */
export type Listener = () => void;

export interface Store<T> {
  getState(): T;
  /** Shallow-merges a partial state (or the result of an updater) into the current state. */
  setState(update: Partial<T> | ((state: T) => Partial<T>)): void;
  subscribe(listener: Listener): () => void;
}

/**
 * A minimal vanilla store. Each Latch instance creates its own stores, so two instances
 * on one page (or two tests) never share state.
 */
export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<Listener>();

  return {
    getState: () => state,
    setState(update) {
      const partial = typeof update === 'function' ? update(state) : update;
      const changed = Object.entries(partial).some(
        ([key, value]) => !Object.is(state[key as keyof T], value),
      );
      // Keeping the same object when nothing changed lets useSyncExternalStore skip renders.
      if (!changed) return;
      state = { ...state, ...partial };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
