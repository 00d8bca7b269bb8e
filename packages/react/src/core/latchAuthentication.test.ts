import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLatchAuthentication } from './latchAuthentication.js';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';

const session = { id: 's1', account: 'eip155:1:0xA', chainId: 'eip155:1', message: 'm', signature: '0x', expiresAt: 9e12 };

function memoryStorage(): KeyValueStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  } as KeyValueStorage & { items: Map<string, string> };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

describe('createLatchAuthentication', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps tokens in memory only, sends the access token, and rotates it with the refresh token', async () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.siwxToken('p'), 'legacy-long-lived');
    const calls: { url: string; init?: RequestInit }[] = [];
    const answers = [
      json({ accessToken: 'a1', accessExpiresAt: Date.now() + 1_000, refreshToken: 'r1', session }),
      json({ accessToken: 'a2', accessExpiresAt: Date.now() + 900_000, refreshToken: 'r2', session }),
      json({ session }),
    ];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return answers.shift()!;
    });
    const auth = createLatchAuthentication({ projectId: 'p', getServerUrl: () => 'https://latch.example', storage });
    expect(storage.items.size).toBe(0);

    await auth.verify({ message: 'm', signature: '0x' } as never);
    // a1 expires within the margin: refreshed with r1 first, then a2 is sent.
    expect(await auth.getSession!('eip155:1:0xA')).toMatchObject({ id: 's1' });
    expect(calls[1]!.url).toContain('/v1/siwx/refresh');
    expect(JSON.parse(String(calls[1]!.init?.body))).toEqual({ refreshToken: 'r1' });
    expect((calls[2]!.init?.headers as Record<string, string>).Authorization).toBe('Bearer a2');
    expect(storage.items.size).toBe(0);
  });

  it('answers no session on a 401 (no access token and no cookie)', async () => {
    vi.stubGlobal('fetch', async () => json({ status: 'FAILED', code: 'SESSION_INVALID', reasons: [] }, 401));
    const auth = createLatchAuthentication({ projectId: 'p', getServerUrl: () => 'https://latch.example', storage: memoryStorage() });
    expect(await auth.getSession!('eip155:1:0xA')).toBeNull();
  });
});
