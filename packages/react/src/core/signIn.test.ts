import { describe, expect, it, vi } from 'vitest';
import { createEventBus } from './events.js';
import { createModalController } from './modal.js';
import { createSignIn, SiwxError } from './signIn.js';
import type { SiwxController } from './siwx.js';

const modal = () => createModalController({ events: createEventBus(), isConnected: () => true });

describe('createSignIn: the controller only when sign-in is on', () => {
  it('off: says so, refuses the actions, cancel closes the modal, and loads nothing', async () => {
    const controller = modal();
    controller.open({ view: 'SIWXSignMessage' });
    const signIn = createSignIn({ load: undefined, modal: controller, required: true, isConnected: () => true });
    expect(signIn.store.getState()).toEqual({ enabled: false, status: 'unauthenticated', signing: false });
    await expect(signIn.signIn()).rejects.toBeInstanceOf(SiwxError);
    await expect(signIn.signOut()).rejects.toThrow('SIWX is not enabled');
    expect(signIn.mayClose()).toBe(true);
    signIn.cancel();
    expect(controller.store.getState().open).toBe(false);
  });

  it('on: loading until the controller is there, which then gets the same state and every action', async () => {
    const controller = modal();
    let resolve!: (loaded: SiwxController) => void;
    const load = vi.fn((store) => new Promise<SiwxController>((done) => (resolve = done)).then((c) => ({ ...c, store })));
    const signIn = createSignIn({ load, modal: controller, required: true, isConnected: () => true });
    expect(signIn.store.getState()).toEqual({ enabled: true, status: 'loading', signing: false });
    expect(load).toHaveBeenCalledWith(signIn.store);
    // Required, connected, a sign-in view showing and no session: the modal stays.
    controller.open({ view: 'SIWXSignMessage' });
    expect(signIn.mayClose()).toBe(false);

    const loaded = { store: signIn.store, signIn: vi.fn(async () => {}), signOut: vi.fn(async () => {}), cancel: vi.fn(), mayClose: () => true };
    const signing = signIn.signIn();
    signIn.cancel();
    expect(loaded.cancel).not.toHaveBeenCalled();
    resolve(loaded);
    await signing;
    expect(loaded.signIn).toHaveBeenCalledOnce();
    expect(loaded.cancel).toHaveBeenCalledOnce();
    signIn.cancel();
    expect(loaded.cancel).toHaveBeenCalledTimes(2);
    await signIn.signOut();
    expect(loaded.signOut).toHaveBeenCalledOnce();
    signIn.store.setState({ status: 'authenticated' });
    expect(signIn.mayClose()).toBe(true);
  });

  it('on, with a chunk that fails to load: loading ends and the actions say why', async () => {
    const signIn = createSignIn({
      load: () => Promise.reject(new Error('chunk failed')),
      modal: modal(),
      required: false,
      isConnected: () => true,
    });
    await expect(signIn.signIn()).rejects.toThrow('chunk failed');
    expect(signIn.store.getState().status).toBe('unauthenticated');
  });
});
