import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToasts, TOAST_VISIBLE_MS } from './toasts.js';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows a toast at once when none is open, and hides it after a while', () => {
    const toasts = createToasts();
    toasts.show({ variant: 'success', message: 'signIn' });
    expect(toasts.store.getState().current).toEqual({ variant: 'success', message: 'signIn' });
    vi.advanceTimersByTime(TOAST_VISIBLE_MS);
    expect(toasts.store.getState().current).toBeUndefined();
  });

  it('closes an open toast first and shows the new one after 150 ms (behaviour 1.14)', () => {
    const toasts = createToasts();
    toasts.show({ variant: 'loading', message: 'signInWaiting' });
    toasts.show({ variant: 'error', message: 'signatureDeclined' });
    expect(toasts.store.getState().current).toBeUndefined();
    vi.advanceTimersByTime(149);
    expect(toasts.store.getState().current).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(toasts.store.getState().current).toEqual({ variant: 'error', message: 'signatureDeclined' });
  });

  it('keeps a loading toast until it is replaced or hidden', () => {
    const toasts = createToasts();
    toasts.show({ variant: 'loading', message: 'signInWaiting' });
    vi.advanceTimersByTime(TOAST_VISIBLE_MS * 10);
    expect(toasts.store.getState().current).toEqual({ variant: 'loading', message: 'signInWaiting' });
    toasts.hide();
    expect(toasts.store.getState().current).toBeUndefined();
  });

  it('drops a pending swap when hidden', () => {
    const toasts = createToasts();
    toasts.show({ variant: 'success', message: 'signIn' });
    toasts.show({ variant: 'error', message: 'signatureDeclined' });
    toasts.hide();
    vi.advanceTimersByTime(1000);
    expect(toasts.store.getState().current).toBeUndefined();
  });
});
