// The analytics transport with a stand-in window whose `fetch` is a test double: no Latch
// server runs in unit tests (the real server path is covered by the Playwright suite).
import { describe, expect, it, vi } from 'vitest';
import { startAnalytics } from './analytics.js';
import { createEventBus } from './events.js';

function fakeWindow(config: () => Promise<Response>) {
  const fetch = vi.fn(async (url: string, _init?: RequestInit) =>
    url.includes('/getAnalyticsConfig') ? config() : new Response('{}'),
  );
  const target = {
    fetch,
    addEventListener: () => {},
    removeEventListener: () => {},
    crypto: { randomUUID: () => 'uuid-1' },
    location: { href: 'https://dapp.example/page', hostname: 'dapp.example' },
  } as unknown as Window;
  return { target, fetch, sent: () => fetch.mock.calls.filter(([url]) => url.includes('/e?')) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startAnalytics', () => {
  it('sends events, including those raised before the config answered, once analytics is on', async () => {
    const events = createEventBus();
    const window = fakeWindow(async () => Response.json({ isAnalyticsEnabled: true }));
    startAnalytics({ target: window.target, events, projectId: 'demo', serverUrl: 'https://latch.example/' });
    events.emit({ type: 'MODAL_OPEN', data: { connected: false } });
    await flush();
    events.emit({
      type: 'CONNECT_SUCCESS',
      data: { name: 'Test', connectorType: 'ANNOUNCED', caipNetworkId: 'eip155:1' },
      address: '0xabc',
    });
    events.emit({ type: 'CONNECT_ERROR', data: { name: 'Test', connectorType: 'ANNOUNCED', message: 'no', rejected: true } });
    await flush();

    const sent = window.sent();
    expect(sent).toHaveLength(3);
    expect(sent[0]![0]).toBe('https://latch.example/e?projectId=demo&st=latch-react&sv=0.1.0');
    expect(sent[0]![1]).toMatchObject({ method: 'POST', keepalive: true, headers: { 'Content-Type': 'text/plain' } });
    const bodies = sent.map(([, init]) => JSON.parse(String(init!.body)));
    expect(bodies[0]).toMatchObject({
      eventId: 'uuid-1',
      url: 'https://dapp.example/page',
      domain: 'dapp.example',
      props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } },
    });
    expect(typeof bodies[0].timestamp).toBe('number');
    expect(bodies[1].props).toMatchObject({ event: 'CONNECT_SUCCESS', address: '0xabc' });
    expect(bodies[2].props).toMatchObject({ type: 'error', event: 'CONNECT_ERROR' });
  });

  it.each([
    ['the project has analytics off', async () => Response.json({ isAnalyticsEnabled: false })],
    ['the config call fails', async () => new Response('nope', { status: 500 })],
    ['the server is unreachable', async () => Promise.reject(new TypeError('fetch failed'))],
  ])('sends nothing when %s', async (_case, config) => {
    const events = createEventBus();
    const window = fakeWindow(config);
    startAnalytics({ target: window.target, events, projectId: 'demo', serverUrl: 'https://latch.example' });
    events.emit({ type: 'MODAL_OPEN', data: { connected: false } });
    await flush();
    events.emit({ type: 'MODAL_CLOSE', data: { connected: false } });
    await flush();
    expect(window.sent()).toHaveLength(0);
  });

  it('sends in a task after the one that raised the event, or at once when the page is hidden', async () => {
    const events = createEventBus();
    const window = fakeWindow(async () => Response.json({ isAnalyticsEnabled: true }));
    const listeners = new Map<string, () => void>();
    Object.assign(window.target, { addEventListener: (type: string, listener: () => void) => listeners.set(type, listener) });
    startAnalytics({ target: window.target, events, projectId: 'demo', serverUrl: 'https://latch.example' });
    await flush();
    events.emit({ type: 'MODAL_OPEN', data: { connected: false } });
    expect(window.sent()).toHaveLength(0);
    await flush();
    expect(window.sent()).toHaveLength(1);
    events.emit({ type: 'MODAL_CLOSE', data: { connected: false } });
    listeners.get('pagehide')!();
    expect(window.sent()).toHaveLength(2);
  });

  it('stops sending when stopped', async () => {
    const events = createEventBus();
    const window = fakeWindow(async () => Response.json({ isAnalyticsEnabled: true }));
    const stop = startAnalytics({ target: window.target, events, projectId: 'demo', serverUrl: 'https://latch.example' });
    await flush();
    stop();
    events.emit({ type: 'MODAL_OPEN', data: { connected: false } });
    await flush();
    expect(window.sent()).toHaveLength(0);
  });
});
