// The frame client against a stand-in frame on a real MessageChannel: the handshake pinned to the
// frame's origin, READY, replies by id, the behaviour 5.15 messages for errors, timeouts, aborts and a frame
// that never loads.
import { describe, expect, it } from 'vitest';
import { createFrameClient, FRAME_ERRORS, type FrameHost } from './frameClient.js';

type Answer = (request: { id: string; type: string; payload: Record<string, unknown> }, port: MessagePort) => void;

function fakeFrame(answer: Answer, { ready = true } = {}) {
  const seen: { src?: string; targetOrigin?: string; message?: unknown } = {};
  const host = (src: string): FrameHost => {
    seen.src = src;
    return {
      postHandshake(message, targetOrigin, port) {
        seen.targetOrigin = targetOrigin;
        seen.message = message;
        port.onmessage = (event) => answer(event.data, port);
        if (ready) port.postMessage({ type: 'READY' });
      },
      onLoad: (listener) => setTimeout(listener, 0),
      remove: () => undefined,
    };
  };
  return { host, seen };
}

const options = { vaultUrl: 'http://127.0.0.1:8789/', projectId: 'demo', chainId: 'eip155:1', version: '1' };

describe('frame client', () => {
  it('loads the frame with its parameters, pins its origin and answers by id', async () => {
    const { host, seen } = fakeFrame((request, port) => {
      port.postMessage({ type: 'SESSION_UPDATE', payload: { connected: true } });
      port.postMessage({ id: 'someone-else', type: `${request.type}_SUCCESS`, payload: { wrong: true } });
      port.postMessage({ id: request.id, type: `${request.type}_SUCCESS`, payload: { action: 'VERIFY_OTP', echo: request.payload } });
    });
    const client = createFrameClient({ ...options, host });
    expect(client.store.getState().status).toBe('not-loaded');
    const answer = await client.request('CONNECT_EMAIL', { email: 'a@b.co' });
    expect(answer).toEqual({ action: 'VERIFY_OTP', echo: { email: 'a@b.co' } });
    expect(seen.src).toBe('http://127.0.0.1:8789/?projectId=demo&chainId=eip155%3A1&version=1&enableLogger=false');
    expect(seen.targetOrigin).toBe('http://127.0.0.1:8789');
    expect(seen.message).toEqual({ type: 'LATCH_FRAME_HANDSHAKE' });
    expect(client.store.getState()).toEqual({ status: 'initialised', connected: true, approval: false });
    client.destroy();
  });

  it('rejects with the frame message, or the default one', async () => {
    const { host } = fakeFrame((request, port) =>
      port.postMessage({
        id: request.id,
        type: `${request.type}_ERROR`,
        payload: request.type === 'CONNECT_OTP' ? { message: 'otp: Invalid input' } : {},
      }),
    );
    const client = createFrameClient({ ...options, host });
    await expect(client.request('CONNECT_OTP', { otp: 'x' })).rejects.toThrow('otp: Invalid input');
    await expect(client.request('GET_USER')).rejects.toThrow(FRAME_ERRORS.fallback);
    client.destroy();
  });

  it('times connect calls out as "Something went wrong" and aborts as "Request was aborted"', async () => {
    const { host } = fakeFrame(() => undefined);
    const client = createFrameClient({ ...options, host, timeoutMs: 200 });
    await expect(client.request('CONNECT_EMAIL', { email: 'a@b.co' })).rejects.toThrow(FRAME_ERRORS.failed);
    const abort = new AbortController();
    const aborted = client.request('GET_USER', {}, { signal: abort.signal });
    abort.abort();
    await expect(aborted).rejects.toThrow(FRAME_ERRORS.aborted);
    const pending = client.request('IS_CONNECTED');
    client.destroy();
    await expect(pending).rejects.toThrow(FRAME_ERRORS.aborted);
  });

  it('stops a connect timeout while the frame waits for the user, and restarts it after', async () => {
    let answerNow: (() => void) | undefined;
    const { host } = fakeFrame((request, port) => {
      // A first login: the frame shows its recovery-password panel before it answers.
      port.postMessage({ type: 'APPROVAL_OPEN' });
      answerNow = () => {
        port.postMessage({ type: 'APPROVAL_CLOSED' });
        port.postMessage({ id: request.id, type: `${request.type}_SUCCESS`, payload: { email: 'a@b.co' } });
      };
    });
    const client = createFrameClient({ ...options, host, timeoutMs: 100 });
    const answer = client.request('CONNECT_OTP', { otp: '123456' });
    // Three timeouts' worth with the panel open: still waiting.
    await new Promise((done) => setTimeout(done, 300));
    expect(client.store.getState().approval).toBe(true);
    answerNow!();
    await expect(answer).resolves.toEqual({ email: 'a@b.co' });

    // Closed without an answer: the timeout runs again in full.
    const { host: silent } = fakeFrame((_, port) => {
      port.postMessage({ type: 'APPROVAL_OPEN' });
      setTimeout(() => port.postMessage({ type: 'APPROVAL_CLOSED' }), 150);
    });
    const other = createFrameClient({ ...options, host: silent, timeoutMs: 100 });
    const started = Date.now();
    await expect(other.request('CONNECT_OTP', { otp: '123456' })).rejects.toThrow(FRAME_ERRORS.failed);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    client.destroy();
    other.destroy();
  });

  it('reports a frame that never becomes ready', async () => {
    const { host } = fakeFrame(() => undefined, { ready: false });
    const client = createFrameClient({ ...options, host, timeoutMs: 100 });
    await expect(client.request('IS_CONNECTED')).rejects.toThrow(FRAME_ERRORS.load);
    expect(client.store.getState().status).toBe('not-loaded');
    client.destroy();
  });
});
