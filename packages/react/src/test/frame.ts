// A stand-in for the wallet frame (apps/vault) on a real MessageChannel: it answers each request
// type with `answers` (an unknown type fails) and records the types asked, in order. The view
// tests use it with the real login store and frame client; the e2e specs run the real frame.
import type { FrameHost } from '../core/embedded/frameClient.js';

export type FrameAnswer = (payload: Record<string, unknown>) => { ok: boolean; payload: unknown };

export function standInFrame(answers: Record<string, FrameAnswer>) {
  const requests: string[] = [];
  const host = (): FrameHost => ({
    postHandshake(_message, _origin, port) {
      port.onmessage = (event: MessageEvent<{ id: string; type: string; payload: Record<string, unknown> }>) => {
        const { id, type, payload } = event.data;
        requests.push(type);
        const answer = answers[type]?.(payload) ?? { ok: false, payload: {} };
        port.postMessage({ id, type: `${type}_${answer.ok ? 'SUCCESS' : 'ERROR'}`, payload: answer.payload });
      };
      port.postMessage({ type: 'READY' });
    },
    onLoad: (listener) => setTimeout(listener, 0),
    remove: () => undefined,
  });
  return { host, requests };
}
