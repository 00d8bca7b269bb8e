import { lazy, Suspense, type ComponentType } from 'react';
import { useLatchInstance } from '../context.js';
import type { Latch } from '../core/createLatch.js';
import { onceUntilFailure } from '../core/onceUntilFailure.js';

/** A view whose code is a chunk of its own (behaviour 1.9: optional parts load only when used). */
export interface LazyView {
  Component: ComponentType;
  /** Fetches the chunk ahead of the click (hover, focus), so opening does not wait for it. */
  preload: () => Promise<unknown>;
}

export function lazyView(load: () => Promise<ComponentType>): LazyView {
  let loaded: ComponentType | undefined;
  // A failed fetch (offline) is not cached, so the next try fetches again.
  const preload = onceUntilFailure(() => load().then((Component) => (loaded = Component)));
  const Lazy = lazy(() => preload().then((Component) => ({ default: Component })));
  function LazyViewComponent() {
    // Once the chunk is in, the view renders at once: going through Suspense again would hold
    // it back behind React's reveal throttle (about 300 ms after a fallback).
    const Loaded = loaded;
    if (Loaded) return <Loaded />;
    return (
      <Suspense fallback={<ViewLoading />}>
        <Lazy />
      </Suspense>
    );
  }
  return { Component: LazyViewComponent, preload };
}

function ViewLoading() {
  const latch = useLatchInstance();
  return (
    <p className="latch-view latch-loading" aria-busy="true">
      {latch.t('viewLoading')}
    </p>
  );
}

/**
 * A lazy view's store: one per Latch, made when the view first opens so the page's first load does
 * not carry it, and kept while the Latch lives.
 */
export function perLatch<T>(create: (latch: Latch) => T): (latch: Latch) => T {
  const made = new WeakMap<Latch, T>();
  return (latch) => {
    let value = made.get(latch);
    if (value === undefined) made.set(latch, (value = create(latch)));
    return value;
  };
}
