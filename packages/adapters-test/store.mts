/** A store as Latch's: shallow merge, listeners told after a change. The fakes' Latch stores. */
export function store<T extends object>(initial: T) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(partial: Partial<T>) {
      state = { ...state, ...partial };
      listeners.forEach((listener) => listener());
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
