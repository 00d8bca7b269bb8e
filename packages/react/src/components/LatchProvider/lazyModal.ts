import type { ComponentType } from 'react';
import { onceUntilFailure } from '../../core/onceUntilFailure.js';

/** `standby`: rendered unseen, ahead of its first opening (see LatchProvider). */
export type ModalComponent = ComponentType<{ embedded?: boolean; standby?: boolean }>;

let loaded: ModalComponent | undefined;

/**
 * Starts loading the modal (its views and their CSS), a chunk of its own in a bundled app, and
 * resolves to its component. Idempotent; after a failure (e.g. offline) the next call tries again.
 * A module-level cache of code, like the module system's own; no state of any Latch instance.
 */
export const loadModal: () => Promise<ModalComponent> = onceUntilFailure(async () => {
  const module = await import('../Modal/Modal.js');
  loaded = module.Modal;
  return loaded;
});

/** The modal's component once `loadModal()` has resolved, so later openings render at once. */
export function loadedModal(): ModalComponent | undefined {
  return loaded;
}
