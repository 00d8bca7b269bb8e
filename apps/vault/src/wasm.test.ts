import { describe, expect, it } from 'vitest';
import { lazy } from './wasm';

/** A module load the test counts. */
function counted(failFirst = false) {
  const counts = { loads: 0, inits: 0 };
  const load = async () => {
    counts.loads += 1;
    if (failFirst && counts.loads === 1) throw new Error('network');
    return { init: async () => void (counts.inits += 1), answer: 42 };
  };
  return { counts, load };
}

describe('lazy wasm modules (wasm.ts)', () => {
  it('loads nothing until first asked, then once for every caller', async () => {
    const { counts, load } = counted();
    const get = lazy(load);
    expect(counts).toEqual({ loads: 0, inits: 0 });
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(a.answer).toBe(42);
    await get();
    expect(counts).toEqual({ loads: 1, inits: 1 });
  });

  it('tries again after a failed load', async () => {
    const { counts, load } = counted(true);
    const get = lazy(load);
    await expect(get()).rejects.toThrow('network');
    expect((await get()).answer).toBe(42);
    expect(counts).toEqual({ loads: 2, inits: 1 });
  });
});
