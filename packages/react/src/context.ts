import { createContext, useContext } from 'react';
import type { Latch } from './core/createLatch.js';

export const LatchContext = createContext<Latch | null>(null);

/** The Latch instance of the nearest `LatchProvider`. */
export function useLatchInstance(): Latch {
  const latch = useContext(LatchContext);
  if (!latch) throw new Error('Latch hooks and components must be used inside <LatchProvider>');
  return latch;
}
