import { describe, expect, it, vi } from 'vitest';
import { rpcResult, stubGateway } from '../test/fixtures.js';
import { createApiClient } from './api.js';
import { createGateway, HttpError, RpcError } from './gateway.js';

// `fetch` is stubbed: unit tests have no Latch server. The real gateway is covered end to end.
describe('chain RPC gateway', () => {
  const gateway = createGateway({ projectId: 'demo', getServerUrl: () => 'http://latch.test/' });

  it('posts a JSON-RPC 2.0 body as text/plain to /v1/ with chainId and projectId', async () => {
    const fetchStub = stubGateway(() => rpcResult('0x1'));
    await expect(gateway.request('eip155:31337', 'eth_getBalance', ['0xabc', 'latest'])).resolves.toBe('0x1');
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe('http://latch.test/v1/?chainId=eip155%3A31337&projectId=demo');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toEqual({ 'Content-Type': 'text/plain' });
    expect(JSON.parse(init?.body as string)).toMatchObject({
      jsonrpc: '2.0',
      method: 'eth_getBalance',
      params: ['0xabc', 'latest'],
    });
  });

  it('turns a non-2xx answer into "HTTP status code: {status}" with the reason as detail', async () => {
    stubGateway(() =>
      Response.json(
        { status: 'FAILED', reasons: [{ field: 'projectId', description: 'Unknown project' }] },
        { status: 401 },
      ),
    );
    const error = await gateway.request('eip155:31337', 'eth_chainId', []).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: 'HTTP status code: 401', status: 401, detail: 'Unknown project' });
  });

  it('keeps the status when the failure body is not JSON', async () => {
    stubGateway(() => new Response('Bad Gateway', { status: 502 }));
    await expect(gateway.request('eip155:31337', 'eth_chainId', [])).rejects.toMatchObject({
      message: 'HTTP status code: 502',
      detail: undefined,
    });
  });

  it('raises a JSON-RPC error object as RpcError', async () => {
    stubGateway(() => Response.json({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }));
    const error = await gateway.request('eip155:31337', 'eth_nope', []).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32601, message: 'Method not found' });
  });

  it('says "Unknown error" for a JSON-RPC error object without a message', async () => {
    stubGateway(() => Response.json({ jsonrpc: '2.0', id: 1, error: { code: -32000 } }));
    await expect(gateway.request('eip155:31337', 'eth_call', [])).rejects.toMatchObject({ code: -32000, message: 'Unknown error' });
  });

  it('refuses to call without a server URL, in the documented words, and sends nothing', async () => {
    const fetchStub = stubGateway(() => rpcResult('0x1'));
    for (const empty of ['', '  ', '/']) {
      const unset = createGateway({ projectId: 'demo', getServerUrl: () => empty });
      await expect(unset.request('eip155:31337', 'eth_chainId', [])).rejects.toThrow(
        'No URL was provided to the Transport. Please provide a valid RPC URL to the Transport.',
      );
    }
    expect(fetchStub).not.toHaveBeenCalled();
  });
});

describe('Latch server API', () => {
  it('refuses a history read with no account, in the documented words, and sends nothing', async () => {
    const fetchStub = vi.fn(async () => Response.json({ data: [], next: null }));
    vi.stubGlobal('fetch', fetchStub);
    const api = createApiClient({ projectId: 'demo', getServerUrl: () => 'http://latch.test' });
    await expect(api.history('', 'eip155:31337')).rejects.toThrow("Transactions can't be fetched without an accountAddress");
    expect(fetchStub).not.toHaveBeenCalled();
    await expect(api.history('0xabc', 'eip155:31337')).resolves.toEqual({ data: [], next: null });
    vi.unstubAllGlobals();
  });

  it('refuses any read without a server URL, in the documented words', async () => {
    const api = createApiClient({ projectId: 'demo', getServerUrl: () => '' });
    await expect(api.identity('0xabc')).rejects.toThrow('No URL was provided to the Transport.');
  });
});
