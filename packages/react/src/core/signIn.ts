import { currentView, type ModalController, type ViewName } from './modal.js';
import { createStore, type Store } from './store.js';
import type { SiwxController, SiwxState } from './siwx.js';

/** A refusal with one of the documented messages (behaviour 4.7 sign-in). */
export class SiwxError extends Error {
  override readonly name = 'SiwxError';
}

/** Views that belong to sign-in; in required mode they cannot be closed without a session. */
export const SIGN_IN_VIEWS: readonly ViewName[] = ['SIWXSignMessage', 'ConnectingSiwe'];

/** Behaviour 4.5: false while a required sign-in view is showing and no session exists. */
export function mayCloseSignIn(
  required: boolean,
  connected: boolean,
  store: Store<SiwxState>,
  modal: Pick<ModalController, 'store'>,
): boolean {
  if (!required || !connected || store.getState().status === 'authenticated') return true;
  return !SIGN_IN_VIEWS.includes(currentView(modal.store.getState()));
}

/**
 * Sign-in for `createLatch`. Off (no `siwx`, no `siweConfig`): a state that says so, and nothing
 * else loaded. On: the state at once, the controller (`siwx.ts`, with the Latch server's adapter)
 * from its own chunk, so pages without sign-in never pay for it.
 */
export function createSignIn({
  load,
  modal,
  required,
  isConnected,
}: {
  /** Undefined when sign-in is off. */
  load: ((store: Store<SiwxState>) => Promise<SiwxController>) | undefined;
  modal: ModalController;
  required: boolean;
  isConnected: () => boolean;
}): SiwxController {
  // On, the status is `loading` until the controller has looked for a session (or found no account).
  const store = createStore<SiwxState>({
    enabled: load !== undefined,
    status: load ? 'loading' : 'unauthenticated',
    signing: false,
  });
  if (!load) {
    const off = () => Promise.reject(new SiwxError('SIWX is not enabled'));
    return { store, signIn: off, signOut: off, cancel: () => modal.close(), mayClose: () => true };
  }
  let loaded: SiwxController | undefined;
  const controller = load(store).then((created) => (loaded = created));
  // A chunk that failed to load fails the next action (not an unhandled rejection now), and
  // nothing is loading any more.
  controller.catch(() => store.setState({ status: 'unauthenticated' }));
  return {
    store,
    signIn: async () => (await controller).signIn(),
    signOut: async () => (await controller).signOut(),
    cancel: () => (loaded ? loaded.cancel() : void controller.then((created) => created.cancel())),
    mayClose: () => mayCloseSignIn(required, isConnected(), store, modal),
  };
}
