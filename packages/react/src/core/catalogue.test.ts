import { describe, expect, it, vi } from 'vitest';
import { createCatalogueClient } from './catalogue.js';
import { HttpError } from './gateway.js';

const server = { projectId: 'test-project', getServerUrl: () => 'http://latch.test/' };

// `fetch` is stubbed: unit tests run without a Latch server. The real `/getWallets` is covered
// by the end-to-end tests against `latch serve` with the imported seed catalogue.
describe('catalogue client', () => {
  it('asks GET /getWallets with the project, comma-separated lists and no empty parameters', async () => {
    const fetch = vi.fn(async (_url: string) => Response.json({ count: 2, data: [{ id: 'a', name: 'A' }] }));
    vi.stubGlobal('fetch', fetch);
    const page = await createCatalogueClient(server).getWallets({
      page: 2,
      entries: 40,
      search: '  rab ',
      include: ['a', 'b'],
      exclude: [],
      rdns: ['io.rabby'],
      chains: ['eip155:1', 'eip155:31337'],
      badgeType: 'certified',
    });
    const url = new URL(fetch.mock.calls[0]![0]);
    expect(url.origin + url.pathname).toBe('http://latch.test/getWallets');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      projectId: 'test-project',
      st: 'latch-react',
      sv: '0.1.0',
      page: '2',
      entries: '40',
      search: 'rab',
      include: 'a,b',
      rdns: 'io.rabby',
      chains: 'eip155:1,eip155:31337',
      badge_type: 'certified',
    });
    expect(page).toEqual({ count: 2, data: [{ id: 'a', name: 'A' }] });
  });

  it('drops a repeated id (the client-side de-duplication of the catalogue)', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ count: 3, data: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }, { id: 'a', name: 'A again' }] }),
    );
    const { data } = await createCatalogueClient(server).getWallets({});
    expect(data.map((wallet) => wallet.name)).toEqual(['A', 'B']);
  });

  it('reports a refusal as HttpError (behaviour 6.3 "HTTP status code: {status}")', async () => {
    vi.stubGlobal('fetch', async () => Response.json({ status: 'FAILED', reasons: [] }, { status: 403 }));
    const failure = createCatalogueClient(server).getWallets({});
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toThrow('HTTP status code: 403');
  });

  it('serves images from the Latch server by image_id, else the entry image_url', () => {
    const client = createCatalogueClient(server);
    expect(client.walletImageUrl({ image_id: 'rabby wallet' })).toBe(
      'http://latch.test/getWalletImage/rabby%20wallet?projectId=test-project&st=latch-react&sv=0.1.0',
    );
    expect(client.walletImageUrl({ image_id: null, image_url: 'http://latch.test/x.png' })).toBe('http://latch.test/x.png');
    expect(client.walletImageUrl({})).toBeUndefined();
  });
});
