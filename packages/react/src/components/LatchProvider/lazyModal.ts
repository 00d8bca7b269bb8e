import type { ComponentType } from 'react';
import type { Latch } from '../../core/createLatch.js';
import { onceUntilFailure } from '../../core/onceUntilFailure.js';

type ModalComponent = ComponentType<{ embedded?: boolean }>;

let loaded: ModalComponent | undefined;
let rehearseLoaded: ((latch: Latch, document: Document) => void) | undefined;

/**
 * Starts loading the modal (its views and their CSS), a chunk of its own in a bundled app, and
 * resolves to its component. Idempotent; after a failure (e.g. offline) the next call tries again.
 * A module-level cache of code, like the module system's own; no state of any Latch instance.
 */
export const loadModal: () => Promise<ModalComponent> = onceUntilFailure(async () => {
  const module = await import('../Modal/Modal.js');
  loaded = module.Modal;
  rehearseLoaded = module.rehearse;
  return loaded;
});

/** The modal's component once `loadModal()` has resolved, so later openings render at once. */
export function loadedModal(): ModalComponent | undefined {
  return loaded;
}

/** The modal's `rehearse` once `loadModal()` has resolved (see Modal.tsx). */
export function loadedRehearsal(): ((latch: Latch, document: Document) => void) | undefined {
  return rehearseLoaded;
}
