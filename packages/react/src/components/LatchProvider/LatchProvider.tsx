import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { LatchContext } from '../../context.js';
import type { Latch } from '../../core/createLatch.js';
import { useStore } from '../../hooks/useStore.js';
import { latchStyles } from '../../styles.js';
import { Modal } from '../Modal/Modal.js';
import { Toast } from '../Toast/Toast.js';

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

export function LatchProvider({ latch, children }: LatchProviderProps) {
  const { open } = useStore(latch.modal.store);
  const isClient = useIsClient();

  useEffect(() => latch.mount(window), [latch]);

  return (
    <LatchContext.Provider value={latch}>
      <style data-latch-styles="">{latchStyles}</style>
      {children}
      {open && isClient ? createPortal(<Modal />, document.body) : null}
      {isClient ? createPortal(<Toast />, document.body) : null}
    </LatchContext.Provider>
  );
}
