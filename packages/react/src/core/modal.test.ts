import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventBus, type LatchEvent } from './events.js';
import {
  createModalController,
  currentView,
  IMAGE_PRELOAD_RACE_MS,
  SHAKE_DURATION_MS,
  type ViewName,
} from './modal.js';
import { BACK_CLEANUP_MS } from './timings.js';

function setup({ connected = false } = {}) {
  const events = createEventBus();
  const received: LatchEvent[] = [];
  events.subscribe((event) => received.push(event));
  const modal = createModalController({ events, isConnected: () => connected });
  const history = () => modal.store.getState().history;
  return { modal, received, history };
}

describe('modal router', () => {
  it('pushes views onto a stack', () => {
    const { modal, history } = setup();
    modal.push('ConnectingExternal');
    expect(history()).toEqual(['Connect', 'ConnectingExternal']);
    expect(currentView(modal.store.getState())).toBe('ConnectingExternal');
  });

  it('ignores a push of the current view', () => {
    const { modal, history } = setup();
    const before = modal.store.getState();
    modal.push('Connect');
    expect(history()).toEqual(['Connect']);
    expect(modal.store.getState()).toBe(before);
  });

  it('replaces the whole history on reset', () => {
    const { modal, history } = setup();
    modal.push('ConnectingExternal');
    modal.reset('Account');
    expect(history()).toEqual(['Account']);
  });

  it('swaps the top entry on replace', () => {
    const { modal, history } = setup();
    modal.push('ConnectingExternal');
    modal.replace('Account');
    expect(history()).toEqual(['Connect', 'Account']);
  });

  it('pops one view on back', () => {
    const { modal, history } = setup();
    modal.open();
    modal.push('ConnectingExternal');
    modal.back();
    expect(history()).toEqual(['Connect']);
    expect(modal.store.getState().open).toBe(true);
  });

  it('closes on back when only one view remains', () => {
    const { modal, history } = setup();
    modal.open();
    modal.back();
    expect(modal.store.getState().open).toBe(false);
    expect(history()).toEqual(['Connect']);
  });

  it('closes on back when UnsupportedChain is in the history', () => {
    const { modal, history } = setup();
    modal.open({ view: 'UnsupportedChain' });
    modal.push('Account');
    modal.back();
    expect(modal.store.getState().open).toBe(false);
    expect(history()).toEqual(['UnsupportedChain', 'Account']);
  });
});

describe('modal open and close', () => {
  it('opens on Connect when not connected and sends MODAL_OPEN', () => {
    const { modal, received, history } = setup();
    modal.push('ConnectingExternal');
    modal.open();
    expect(modal.store.getState().open).toBe(true);
    expect(history()).toEqual(['Connect']);
    expect(received).toEqual([{ type: 'MODAL_OPEN', data: { connected: false } }]);
  });

  it('opens on Account when connected', () => {
    const { modal, received, history } = setup({ connected: true });
    modal.open();
    expect(history()).toEqual(['Account']);
    expect(received).toEqual([{ type: 'MODAL_OPEN', data: { connected: true } }]);
  });

  it('opens a forced view', () => {
    const { modal, history } = setup();
    modal.open({ view: 'Account' });
    expect(history()).toEqual(['Account']);
  });

  it('sends MODAL_OPEN once while it stays open', () => {
    const { modal, received } = setup();
    modal.open();
    modal.open({ view: 'Account' });
    expect(received).toHaveLength(1);
  });

  it('clears loading and sends MODAL_CLOSE on close', () => {
    const { modal, received } = setup();
    modal.open();
    modal.setLoading(true);
    modal.close();
    expect(modal.store.getState()).toMatchObject({ open: false, loading: false });
    expect(received.at(-1)).toEqual({ type: 'MODAL_CLOSE', data: { connected: false } });
  });

  it('sends no MODAL_CLOSE when it was not open, but still clears loading', () => {
    const { modal, received } = setup();
    modal.setLoading(true);
    modal.close();
    expect(received).toEqual([]);
    expect(modal.store.getState().loading).toBe(false);
  });
});

describe('images before opening (behaviour 1.4: prefetch raced against 2 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setupPrepared() {
    const events = createEventBus();
    const received: LatchEvent[] = [];
    events.subscribe((event) => received.push(event));
    const prepared: ViewName[] = [];
    let imagesLoaded = () => {};
    const modal = createModalController({
      events,
      isConnected: () => false,
      prepare: (view) => {
        prepared.push(view);
        return view === 'Connect' ? new Promise<void>((resolve) => (imagesLoaded = resolve)) : undefined;
      },
    });
    return { modal, received, prepared, imagesLoaded: () => imagesLoaded() };
  }

  it('shows loading and opens once the images are in, before the time-out', async () => {
    const { modal, received, prepared, imagesLoaded } = setupPrepared();
    modal.open();
    expect(prepared).toEqual(['Connect']);
    expect(modal.store.getState()).toMatchObject({ open: false, loading: true });
    expect(received).toEqual([]);
    imagesLoaded();
    await vi.advanceTimersByTimeAsync(0);
    expect(modal.store.getState()).toMatchObject({ open: true, loading: false });
    expect(received).toEqual([{ type: 'MODAL_OPEN', data: { connected: false } }]);
  });

  it('opens after 2 s without the images', async () => {
    const { modal } = setupPrepared();
    modal.open();
    await vi.advanceTimersByTimeAsync(IMAGE_PRELOAD_RACE_MS - 1);
    expect(modal.store.getState().open).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(modal.store.getState()).toMatchObject({ open: true, loading: false });
  });

  it('opens at once on a view that needs no images, and while already open', () => {
    const { modal, prepared } = setupPrepared();
    modal.open({ view: 'Account' });
    expect(modal.store.getState().open).toBe(true);
    modal.open();
    expect(currentView(modal.store.getState())).toBe('Connect');
    expect(prepared).toEqual(['Account']);
  });

  it('does not open when closed while waiting', async () => {
    const { modal, received, imagesLoaded } = setupPrepared();
    modal.open();
    modal.close();
    imagesLoaded();
    await vi.advanceTimersByTimeAsync(IMAGE_PRELOAD_RACE_MS);
    expect(modal.store.getState()).toMatchObject({ open: false, loading: false });
    expect(received).toEqual([]);
  });
});

describe('modal shake', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('clears itself after 500 ms, counted from the latest shake', () => {
    const { modal } = setup();
    modal.shake();
    vi.advanceTimersByTime(SHAKE_DURATION_MS - 100);
    modal.shake();
    vi.advanceTimersByTime(SHAKE_DURATION_MS - 1);
    expect(modal.store.getState().shake).toBe(true);
    vi.advanceTimersByTime(1);
    expect(modal.store.getState().shake).toBe(false);
  });
});

describe('modal close guard', () => {
  it('shakes instead of closing while the guard refuses, and closes once it allows', () => {
    const events = createEventBus();
    let mayClose = false;
    const modal = createModalController({ events, isConnected: () => true, mayClose: () => mayClose });
    modal.open({ view: 'SIWXSignMessage' });
    modal.close();
    modal.back();
    expect(modal.store.getState()).toMatchObject({ open: true, shake: true, history: ['SIWXSignMessage'] });
    mayClose = true;
    modal.close();
    expect(modal.store.getState().open).toBe(false);
  });
});

describe('embedded mode (behaviour 1.7)', () => {
  it('is shown from the start, and closing or going back returns to Account or Connect', () => {
    const events = createEventBus();
    const received: LatchEvent[] = [];
    events.subscribe((event) => received.push(event));
    let connected = false;
    const modal = createModalController({ events, isConnected: () => connected, embedded: true });
    expect(modal.store.getState()).toMatchObject({ open: true, history: ['Connect'] });
    modal.push('ConnectingExternal');
    modal.close();
    expect(modal.store.getState()).toMatchObject({ open: true, history: ['Connect'] });
    connected = true;
    modal.push('Networks');
    modal.back();
    modal.back();
    expect(modal.store.getState()).toMatchObject({ open: true, history: ['Account'] });
    expect(received).toEqual([]);
  });
});

describe('modal back cleanup (behaviour 1.5)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('tells listeners which view back() left, 100 ms later', () => {
    const { modal, history } = setup();
    const left = vi.fn();
    modal.onBackCleanup(left);
    modal.push('AllWallets');
    modal.back();
    expect(history()).toEqual(['Connect']);
    vi.advanceTimersByTime(BACK_CLEANUP_MS - 1);
    expect(left).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(left).toHaveBeenCalledExactlyOnceWith('AllWallets');
    expect(BACK_CLEANUP_MS).toBe(100);
  });

  it('runs at once under reduced motion, and stops after unsubscribing', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }));
    const { modal } = setup();
    const left = vi.fn();
    const unsubscribe = modal.onBackCleanup(left);
    modal.push('AllWallets');
    modal.back();
    vi.advanceTimersByTime(0);
    expect(left).toHaveBeenCalledExactlyOnceWith('AllWallets');
    unsubscribe();
    modal.push('Downloads');
    modal.back();
    vi.advanceTimersByTime(BACK_CLEANUP_MS);
    expect(left).toHaveBeenCalledOnce();
  });

  it('does not run when back() closes the modal instead', () => {
    const { modal } = setup();
    const left = vi.fn();
    modal.onBackCleanup(left);
    modal.open();
    modal.back();
    vi.advanceTimersByTime(BACK_CLEANUP_MS);
    expect(modal.store.getState().open).toBe(false);
    expect(left).not.toHaveBeenCalled();
  });
});

describe('open({ view, data }) (behaviour 1.4: a caller may force a view with data)', () => {
  it('holds the data for its view until the view takes it, once, as a copy', () => {
    const { modal, history } = setup({ connected: true });
    const data = { receiver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '1' };
    modal.open({ view: 'Send', data });
    data.amount = '2';
    expect(history()).toEqual(['Send']);
    // Another view cannot take it.
    expect(modal.takeData('Swap')).toBeUndefined();
    expect(modal.takeData('Send')).toEqual({ receiver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '1' });
    expect(modal.takeData('Send')).toBeUndefined();
  });

  it('an opening without data drops data not taken yet', () => {
    const { modal } = setup({ connected: true });
    modal.open({ view: 'Swap', data: { from: 'ETH', to: 'USDC', amount: '1' } });
    modal.open({ view: 'Swap' });
    expect(modal.store.getState().data).toBeUndefined();
    expect(modal.takeData('Swap')).toBeUndefined();
    modal.open({ view: 'Onramp', data: { amount: '25' } });
    modal.open();
    expect(modal.takeData('Onramp')).toBeUndefined();
  });
});
