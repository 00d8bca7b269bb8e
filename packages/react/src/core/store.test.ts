import { describe, expect, it, vi } from 'vitest';
import { createStore } from './store.js';

describe('createStore', () => {
  it('merges partial updates and notifies subscribers', () => {
    const store = createStore({ count: 0, label: 'a' });
    const listener = vi.fn();
    store.subscribe(listener);
    store.setState({ count: 1 });
    store.setState((state) => ({ count: state.count + 1 }));
    expect(store.getState()).toEqual({ count: 2, label: 'a' });
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('keeps the same state object and stays silent when nothing changed', () => {
    const store = createStore({ count: 0 });
    const before = store.getState();
    const listener = vi.fn();
    store.subscribe(listener);
    store.setState({ count: 0 });
    expect(store.getState()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
  });

  it('stops notifying after unsubscribe', () => {
    const store = createStore({ count: 0 });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    unsubscribe();
    store.setState({ count: 1 });
    expect(listener).not.toHaveBeenCalled();
  });
});
