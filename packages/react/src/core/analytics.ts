import type { EventBus, LatchEvent } from './events.js';
import { SDK_TYPE, SDK_VERSION } from './sdk.js';

export interface AnalyticsOptions {
  target: Window;
  events: EventBus;
  projectId: string;
  serverUrl: string;
}

/**
 * Forwards events to `POST {serverUrl}/e` once the server's `/getAnalyticsConfig` says analytics
 * is on for the project (any error means off, behaviour 6.14). Events raised before the answer wait for
 * it. Returns the cleanup.
 */
export function startAnalytics({ target, events, projectId, serverUrl }: AnalyticsOptions): () => void {
  const base = serverUrl.replace(/\/+$/, '');
  const query = new URLSearchParams({ projectId, st: SDK_TYPE, sv: SDK_VERSION });
  let enabled: boolean | undefined;
  let waiting: LatchEvent[] = [];
  let stopped = false;

  function send(event: LatchEvent, timestamp = Date.now()) {
    const isError = event.type.endsWith('_ERROR');
    const body = {
      eventId: target.crypto.randomUUID(),
      url: target.location.href,
      domain: target.location.hostname,
      timestamp,
      props: {
        type: isError ? 'error' : 'track',
        event: event.type,
        address: 'address' in event ? event.address : undefined,
        properties: event.data,
      },
    };
    // keepalive lets a MODAL_CLOSE sent while the page unloads still arrive; text/plain avoids a
    // CORS preflight. Failures are dropped: analytics must never disturb the visitor.
    target
      .fetch(`${base}/e?${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify(body),
        keepalive: true,
      })
      .catch(() => undefined);
  }

  // Sent in a task of their own, not in the one that raised them: a click that opens the modal
  // shows it without waiting for the request (about a millisecond of main thread); at once
  // when the page is being hidden, so nothing is lost.
  let outbox: [LatchEvent, number][] = [];
  const flush = () => {
    const batch = outbox;
    outbox = [];
    for (const [event, timestamp] of batch) send(event, timestamp);
  };
  const queue = (event: LatchEvent) => {
    outbox.push([event, Date.now()]);
    if (outbox.length === 1) setTimeout(flush, 0);
  };
  target.addEventListener('pagehide', flush);

  const unsubscribe = events.subscribe((event) => {
    if (enabled === undefined) waiting.push(event);
    else if (enabled) queue(event);
  });

  target
    .fetch(`${base}/getAnalyticsConfig?${query}`)
    .then((response) => (response.ok ? response.json() : { isAnalyticsEnabled: false }))
    .then((config: { isAnalyticsEnabled?: unknown }) => config.isAnalyticsEnabled === true)
    .catch(() => false)
    .then((on) => {
      if (stopped) return;
      enabled = on;
      if (on) waiting.forEach((event) => send(event));
      waiting = [];
    });

  return () => {
    stopped = true;
    unsubscribe();
    target.removeEventListener('pagehide', flush);
  };
}
