import { afterEach, describe, expect, it, vi } from 'vitest';
import { QUOTE_DEBOUNCE_MS } from './swap.js';
import { SUGGESTION_DEBOUNCE_MS } from './registerName.js';
import { BACK_CLEANUP_MS, DEBOUNCE_MS, MODAL_HEIGHT_MS, prefersReducedMotion } from './timings.js';

describe('timings (behaviour 1.8, 7.4)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are latch-core’s numbers, one debounce for every input that asks the server', () => {
    expect({ DEBOUNCE_MS, BACK_CLEANUP_MS, MODAL_HEIGHT_MS }).toEqual({ DEBOUNCE_MS: 500, BACK_CLEANUP_MS: 100, MODAL_HEIGHT_MS: 150 });
    expect(QUOTE_DEBOUNCE_MS).toBe(DEBOUNCE_MS);
    expect(SUGGESTION_DEBOUNCE_MS).toBe(DEBOUNCE_MS);
  });

  it('reads prefers-reduced-motion, and is false without matchMedia (SSR)', () => {
    vi.stubGlobal('matchMedia', undefined);
    expect(prefersReducedMotion()).toBe(false);
    const asked: string[] = [];
    vi.stubGlobal('matchMedia', (query: string) => (asked.push(query), { matches: true }));
    expect(prefersReducedMotion()).toBe(true);
    expect(asked).toEqual(['(prefers-reduced-motion: reduce)']);
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    expect(prefersReducedMotion()).toBe(false);
  });
});
