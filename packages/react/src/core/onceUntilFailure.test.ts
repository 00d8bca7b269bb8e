import { describe, expect, it, vi } from 'vitest';
import { onceUntilFailure } from './onceUntilFailure.js';

describe('onceUntilFailure', () => {
  it('shares one run between callers, and runs again only after a failure', async () => {
    const make = vi.fn<() => Promise<number>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(7);
    const get = onceUntilFailure(make);
    const [first, second] = [get(), get()];
    expect(first).toBe(second);
    await expect(first).rejects.toThrow('offline');
    expect(await get()).toBe(7);
    expect(await get()).toBe(7);
    expect(make).toHaveBeenCalledTimes(2);
  });
});
