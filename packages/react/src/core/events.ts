/** Events a Latch instance reports to the host (an analytics transport will subscribe later). */
export type LatchEvent =
  | { type: 'MODAL_OPEN'; data: { connected: boolean } }
  | { type: 'MODAL_CLOSE'; data: { connected: boolean } };

export type LatchEventListener = (event: LatchEvent) => void;

export interface EventBus {
  emit(event: LatchEvent): void;
  subscribe(listener: LatchEventListener): () => void;
}

export function createEventBus(): EventBus {
  const listeners = new Set<LatchEventListener>();
  return {
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
