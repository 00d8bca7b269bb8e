import { LATCH_CONSTANTS } from '@latch/wasm';
import { createStore, type Store } from './store.js';
import type { MessageKey } from '../locales/index.js';

export type ToastVariant = 'success' | 'loading' | 'error';

export interface Toast {
  variant: ToastVariant;
  /** A catalogue key, so the toast follows the chosen locale. */
  message: MessageKey;
}

export interface ToastState {
  /** The toast on screen, if any. */
  current?: Toast;
}

export interface ToastController {
  store: Store<ToastState>;
  /** Shows a toast; one already showing is closed first and the new one follows after 150 ms (behaviour 1.14). */
  show(toast: Toast): void;
  hide(): void;
}

/** Behaviour 7.4: between closing one toast and showing the next. */
const TOAST_SWAP_MS = LATCH_CONSTANTS.timings.toastSwapMs;
/**
 * How long a success or error toast stays. The behaviour docs name no duration; long enough to read a
 * short sentence. A loading toast stays until something replaces or hides it.
 */
export const TOAST_VISIBLE_MS = 3000;

export function createToasts(): ToastController {
  const store = createStore<ToastState>({});
  let swapTimer: ReturnType<typeof setTimeout> | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;

  function display(toast: Toast) {
    store.setState({ current: toast });
    if (toast.variant !== 'loading') hideTimer = setTimeout(hide, TOAST_VISIBLE_MS);
  }

  function hide() {
    clearTimeout(swapTimer);
    clearTimeout(hideTimer);
    store.setState({ current: undefined });
  }

  return {
    store,
    show(toast) {
      const showing = store.getState().current !== undefined;
      hide();
      if (showing) swapTimer = setTimeout(() => display(toast), TOAST_SWAP_MS);
      else display(toast);
    },
    hide,
  };
}
