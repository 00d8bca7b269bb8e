import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { LatchContext, useLatchInstance } from '../../context.js';
import type { Latch } from '../../core/createLatch.js';
import { whenIdle } from '../../core/idle.js';
import { useStore } from '../../hooks/useStore.js';
import { latchStyles } from '../../styles.js';
import { Toast } from '../Toast/Toast.js';
import { loadedModal, loadModal } from './lazyModal.js';

export interface LatchProviderProps {
  latch: Latch;
  children?: ReactNode;
}

const subscribeToNothing = () => () => {};

/** False during server rendering and hydration, true after: the portal needs `document`. */
function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * Fetches the modal's chunk when the browser is idle after the first render, so it is not in the
 * JavaScript a page needs to show, yet is usually there by the first click; and, for a visitor
 * not connected, what the Connect view opens with (the wallet lists and their first images, spec
 * behaviour 1.3). Once all is there, `standBy(true)` while the page is still idle: the provider
 * renders the modal unseen (its standby), so the first click only shows it (issue 30). The first
 * opening takes the standby over, and a connection ends it (a connected visitor opens on Account).
 */
function preloadModalWhenIdle(target: Window, latch: Latch, standBy: (on: boolean) => void): () => void {
  let cancelStandby = () => {};
  const disconnected = () => latch.connection.getState().status === 'disconnected';
  const cancelPreload = whenIdle(target, () => {
    const lists = disconnected() ? latch.walletList.load() : undefined;
    // The opening tries again after a failure.
    Promise.all([loadModal(), latch.localeReady(), lists]).then(
      () => {
        cancelStandby = whenIdle(target, () => {
          if (latch.embedded || !disconnected() || latch.modal.store.getState().open) return;
          standBy(true);
          const off = () => {
            if (latch.modal.store.getState().open || !disconnected()) standBy(false);
          };
          const unsubscribe = [latch.modal.store.subscribe(off), latch.connection.subscribe(off)];
          cancelStandby = () => unsubscribe.forEach((stop) => stop());
        });
      },
      () => {},
    );
  });
  return () => {
    cancelPreload();
    cancelStandby();
  };
}

/** The modal, rendered as soon as its chunk is loaded (at once when it already is). */
export function LazyModal({ latch, embedded = false, standby = false }: { latch: Latch; embedded?: boolean; standby?: boolean }) {
  // The modal shows with its strings: the chosen locale's whole catalogue comes with it.
  const [Modal, setModal] = useState(() => (latch.locale.getState().complete ? loadedModal() : undefined));
  useEffect(() => {
    if (Modal) return;
    let live = true;
    Promise.all([loadModal(), latch.localeReady()]).then(
      ([component]) => live && setModal(() => component),
      // Nothing to show: closed, so the next click opens (and loads) again.
      (error: unknown) => {
        latch.track({ type: 'INTERNAL_SDK_ERROR', data: { message: `The modal could not load: ${String(error)}` } });
        if (live) latch.modal.close();
      },
    );
    return () => {
      live = false;
    };
  }, [Modal, latch]);
  return Modal ? <Modal embedded={embedded} standby={standby} /> : null;
}

/**
 * The modal inside the page, always shown (the `embedded` option; behaviour 1.7): place it where it
 * belongs, inside `LatchProvider`. Rendered after hydration only, like the modal.
 */
export function LatchEmbedded() {
  const latch = useLatchInstance();
  const isClient = useIsClient();
  if (!latch.embedded) throw new Error('<LatchEmbedded /> needs createLatch({ embedded: true })');
  return isClient ? <LazyModal latch={latch} embedded /> : null;
}

export function LatchProvider({ latch, children }: LatchProviderProps) {
  const { open } = useStore(latch.modal.store);
  const isClient = useIsClient();
  // The modal rendered unseen before its first opening (preloadModalWhenIdle); the opening shows
  // this same tree, so the click commits a few attributes instead of the whole Connect view.
  const [standby, setStandby] = useState(false);

  useEffect(() => latch.mount(window), [latch]);
  useEffect(() => preloadModalWhenIdle(window, latch, setStandby), [latch]);

  const modal = <LazyModal latch={latch} standby={!open} />;
  return (
    <LatchContext.Provider value={latch}>
      <style data-latch-styles="">{latchStyles}</style>
      {children}
      {(open || standby) && isClient && !latch.embedded ? (latch.appendToBody ? createPortal(modal, document.body) : modal) : null}
      {isClient ? createPortal(<Toast />, document.body) : null}
    </LatchContext.Provider>
  );
}
