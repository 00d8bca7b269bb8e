import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { LatchContext, useLatchInstance } from '../../context.js';
import type { Latch } from '../../core/createLatch.js';
import { whenIdle } from '../../core/idle.js';
import { useStore } from '../../hooks/useStore.js';
import { latchStyles } from '../../styles.js';
import { Toast } from '../Toast/Toast.js';
import { loadedModal, loadedRehearsal, loadModal } from './lazyModal.js';

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
 * behaviour 1.3), so the first click waits on nothing. A connected visitor's modal opens on Account instead.
 */
function preloadModalWhenIdle(target: Window, latch: Latch): () => void {
  let cancelRehearsal = () => {};
  const cancelPreload = whenIdle(target, () => {
    const disconnected = () => latch.connection.getState().status === 'disconnected';
    const lists = disconnected() ? latch.walletList.load() : undefined;
    // The opening tries again after a failure.
    Promise.all([loadModal(), latch.localeReady(), lists]).then(
      () => {
        // Once all is there, the Connect view is rendered once while the page is still idle.
        cancelRehearsal = whenIdle(target, () => {
          const rehearse = loadedRehearsal();
          if (rehearse && disconnected() && !latch.modal.store.getState().open) rehearse(latch, target.document);
        });
      },
      () => {},
    );
  });
  return () => {
    cancelPreload();
    cancelRehearsal();
  };
}

/** The modal, rendered as soon as its chunk is loaded (at once when it already is). */
export function LazyModal({ latch, embedded = false }: { latch: Latch; embedded?: boolean }) {
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
  return Modal ? <Modal embedded={embedded} /> : null;
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

  useEffect(() => latch.mount(window), [latch]);
  useEffect(() => preloadModalWhenIdle(window, latch), [latch]);

  return (
    <LatchContext.Provider value={latch}>
      <style data-latch-styles="">{latchStyles}</style>
      {children}
      {open && isClient && !latch.embedded
        ? latch.appendToBody
          ? createPortal(<LazyModal latch={latch} />, document.body)
          : <LazyModal latch={latch} />
        : null}
      {isClient ? createPortal(<Toast />, document.body) : null}
    </LatchContext.Provider>
  );
}
