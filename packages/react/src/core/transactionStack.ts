import type { ModalController, ViewName } from './modal.js';
import { createStore, type Store } from './store.js';

/**
 * One flow on the transaction stack (behaviour 1.13): the view it shows, where success leads, and what
 * to call when it ends. At most one of `goBack`, `replace` and `reset` should be set; success
 * checks them in that order, and with none of them stays where it is.
 */
export interface TransactionEntry {
  /** The view the flow shows; `push` opens it. */
  view: ViewName;
  /** On success, go back one view. */
  goBack?: boolean;
  /**
   * On success, return to the view before ConnectingSiwe when the history has one there
   * (a flow started from sign-in), else close the modal.
   */
  replace?: boolean;
  /** On success, reset the history to this view. */
  reset?: ViewName;
  /** Called after success has moved the modal. */
  onSuccess?: () => void;
  /** Called after cancel has gone back. */
  onCancel?: () => void;
}

export interface TransactionStackState {
  /** The flows in progress; the last entry is the current one. */
  entries: readonly TransactionEntry[];
}

export interface TransactionStack {
  store: Store<TransactionStackState>;
  /** Adds a flow and shows its view. */
  push(entry: TransactionEntry): void;
  /** Behaviour 1.13: ends the current flow as cancelled: goes back, then calls `onCancel`. */
  cancel(): void;
  /**
   * Behaviour 1.13: ends the current flow as done: goes back, or replaces (returning to before
   * ConnectingSiwe, or closing the modal), or resets to a view; then calls `onSuccess`.
   */
  success(): void;
}

export function createTransactionStack({ modal }: { modal: ModalController }): TransactionStack {
  const store = createStore<TransactionStackState>({ entries: [] });

  // A flow whose view left the history (the header's Back, closing, a reset) is over: cancelled.
  modal.store.subscribe(() => {
    const { history } = modal.store.getState();
    const { entries } = store.getState();
    const kept = entries.filter((entry) => history.includes(entry.view));
    if (kept.length === entries.length) return;
    store.setState({ entries: kept });
    for (const entry of entries) if (!kept.includes(entry)) entry.onCancel?.();
  });

  // Takes the current flow off the stack; `undefined` when no flow is in progress.
  function pop(): TransactionEntry | undefined {
    const { entries } = store.getState();
    const entry = entries[entries.length - 1];
    if (entry) store.setState({ entries: entries.slice(0, -1) });
    return entry;
  }

  return {
    store,
    push(entry) {
      store.setState(({ entries }) => ({ entries: [...entries, entry] }));
      modal.push(entry.view);
    },
    cancel() {
      const entry = pop();
      if (!entry) return;
      modal.back();
      entry.onCancel?.();
    },
    success() {
      const entry = pop();
      if (!entry) return;
      if (entry.goBack) {
        modal.back();
      } else if (entry.replace) {
        const { history } = modal.store.getState();
        const siwe = history.indexOf('ConnectingSiwe');
        // The history is never empty, so the views before ConnectingSiwe are kept only when there are some.
        if (siwe > 0) modal.store.setState({ history: history.slice(0, siwe) });
        else modal.close();
      } else if (entry.reset) {
        modal.reset(entry.reset);
      }
      entry.onSuccess?.();
    },
  };
}
