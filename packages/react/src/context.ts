import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Latch } from './core/createLatch.js';

export const LatchContext = createContext<Latch | null>(null);

/** The Latch instance of the nearest `LatchProvider`. */
export function useLatchInstance(): Latch {
  const latch = useContext(LatchContext);
  if (!latch) throw new Error('Latch hooks and components must be used inside <LatchProvider>');
  // Every component that translates reads the instance here: a locale switch re-renders them.
  useSyncExternalStore(latch.locale.subscribe, latch.locale.getState, latch.locale.getState);
  return latch;
}
