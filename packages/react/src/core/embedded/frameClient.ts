// The modal's side of the wallet frame (behaviour 5.15 "Embedded-wallet requests", behaviour 5.15 frame messages;
// the protocol is in ARCHITECTURE.md "apps/vault"). It only drives the frame: the e-mail, the
// codes and every check live in the frame and latch; the session token never comes here.
import { createStore, type Store } from '../store.js';

/** Behaviour 7.1: connect calls time out after 30 s; so does loading the frame. */
export const FRAME_TIMEOUT_MS = 30_000;
export const HANDSHAKE = 'LATCH_FRAME_HANDSHAKE';

/** Behaviour 5.15 frame messages. */
export const FRAME_ERRORS = {
  load: 'Unable to load email login dependency',
  aborted: 'Request was aborted',
  failed: 'Something went wrong',
  fallback: 'An error occurred',
} as const;

/** Behaviour 5.15: not loaded, then ready (the frame's READY, 500 ms after its load), then initialised. */
export type FrameStatus = 'not-loaded' | 'ready' | 'initialised';

export interface FrameState {
  status: FrameStatus;
  /** From SESSION_UPDATE: whether the frame holds a session. */
  connected: boolean;
  /** Between the frame's APPROVAL_OPEN and APPROVAL_CLOSED: its approval panel waits for the user. */
  approval: boolean;
}

/** Where the frame is drawn while visible, in viewport pixels. */
export interface FrameRect {
  top: number;
  left: number;
  width: number;
  height: number;
}

/**
 * An error the frame answered, with its EIP-1193 code when it has one (4001, 4200, RPC codes), or
 * latch's stable refusal code and the refused field (`EMAIL_TAKEN`, `newEmail`).
 */
export class FrameError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly reason?: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Where the frame lives: an iframe by default, a stand-in in tests. */
export interface FrameHost {
  /** Posts the handshake to the frame, pinned to its origin. */
  postHandshake(message: unknown, targetOrigin: string, port: MessagePort): void;
  /** Calls back once the frame's page has loaded. */
  onLoad(listener: () => void): void;
  remove(): void;
  /** Shows the frame over `rect` and moves focus into it, or hides it again (null). */
  place?(rect: FrameRect | null): void;
}

export interface FrameOptions {
  /** The frame's page, e.g. `http://127.0.0.1:8789/`. */
  vaultUrl: string;
  projectId: string;
  chainId?: string;
  version: string;
  enableLogger?: boolean;
  /** Defaults to a hidden iframe in `document.body`. */
  host?: (src: string) => FrameHost;
  timeoutMs?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Connect calls (CONNECT_*) time out; other requests only with this. */
  timeoutMs?: number;
}

export interface FrameClient {
  store: Store<FrameState>;
  request<T = unknown>(type: string, payload?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  /** Shows the frame over `rect` (ApproveTransaction's place for it), or hides it (null). */
  place(rect: FrameRect | null): void;
  destroy(): void;
}

function iframeHost(src: string): FrameHost {
  const iframe = document.createElement('iframe');
  iframe.src = src;
  iframe.title = 'Latch wallet';
  iframe.setAttribute('aria-hidden', 'true');
  iframe.tabIndex = -1;
  const hidden = 'position:absolute;width:0;height:0;border:0;visibility:hidden';
  iframe.style.cssText = hidden;
  const listeners: (() => void)[] = [];
  iframe.addEventListener('load', () => listeners.forEach((listener) => listener()), { once: true });
  document.body.append(iframe);
  return {
    postHandshake: (message, targetOrigin, port) => iframe.contentWindow?.postMessage(message, targetOrigin, [port]),
    onLoad: (listener) => listeners.push(listener),
    remove: () => iframe.remove(),
    place(rect) {
      // The iframe cannot move in the DOM (it would reload and lose its port): it is laid over the
      // view's empty box instead, above the modal, so the host draws nothing over the approval.
      if (!rect) {
        iframe.style.cssText = hidden;
        iframe.setAttribute('aria-hidden', 'true');
        iframe.tabIndex = -1;
        return;
      }
      const shown = !iframe.style.cssText.includes('hidden');
      iframe.style.cssText =
        `position:fixed;top:${rect.top}px;left:${rect.left}px;width:${rect.width}px;height:${rect.height}px;` +
        'border:0;z-index:2147483647;visibility:visible;color-scheme:normal';
      iframe.removeAttribute('aria-hidden');
      iframe.tabIndex = 0;
      // After the modal's own focus handling for the new view (it runs later in the same commit).
      if (!shown) setTimeout(() => iframe.focus(), 0);
    },
  };
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** Stops (false) or restarts (true) the request's timeout, if it has one. */
  timing?: (running: boolean) => void;
}

/** Loads the frame and handshakes with it; requests wait for its READY. */
export function createFrameClient(options: FrameOptions): FrameClient {
  const timeoutMs = options.timeoutMs ?? FRAME_TIMEOUT_MS;
  const url = new URL(options.vaultUrl);
  url.search = new URLSearchParams({
    projectId: options.projectId,
    ...(options.chainId ? { chainId: options.chainId } : {}),
    version: options.version,
    enableLogger: String(options.enableLogger ?? false),
  }).toString();
  const store = createStore<FrameState>({ status: 'not-loaded', connected: false, approval: false });
  const pending = new Map<string, Pending>();
  const channel = new MessageChannel();
  const host = (options.host ?? iframeHost)(url.toString());
  let failed: Error | null = null;
  let destroyed = false;
  let markReady!: () => void;
  let markFailed!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => undefined); // a load failure is reported by each request instead
  const loadTimer = setTimeout(() => {
    failed = new Error(FRAME_ERRORS.load);
    markFailed(failed);
  }, timeoutMs);

  channel.port1.onmessage = (event: MessageEvent<{ type?: unknown; id?: unknown; payload?: unknown }>) => {
    const { type, id, payload } = event.data ?? {};
    if (type === 'READY') {
      clearTimeout(loadTimer);
      store.setState({ status: 'ready' });
      markReady();
    } else if (type === 'SESSION_UPDATE') {
      store.setState({ connected: Boolean((payload as { connected?: unknown } | undefined)?.connected) });
    } else if (type === 'APPROVAL_OPEN' || type === 'APPROVAL_CLOSED') {
      // While the frame waits for the user (a recovery password during a login), the connect
      // timeout is not the frame's fault: it stops, and starts over once the panel closes.
      for (const waiting of pending.values()) waiting.timing?.(type === 'APPROVAL_CLOSED');
      store.setState({ approval: type === 'APPROVAL_OPEN' });
    } else if (typeof id === 'string' && typeof type === 'string') {
      const waiting = pending.get(id);
      if (!waiting) return;
      pending.delete(id);
      if (type.endsWith('_SUCCESS')) {
        if (store.getState().status === 'ready') store.setState({ status: 'initialised' });
        waiting.resolve(payload);
      } else {
        const { message, code, reason, field } = (payload ?? {}) as Record<string, unknown>;
        const text = typeof message === 'string' && message ? message : FRAME_ERRORS.fallback;
        const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
        waiting.reject(new FrameError(text, typeof code === 'number' ? code : undefined, str(reason), str(field)));
      }
    }
  };
  host.onLoad(() => host.postHandshake({ type: HANDSHAKE }, url.origin, channel.port2));

  async function request<T>(type: string, payload: Record<string, unknown> = {}, opts: RequestOptions = {}): Promise<T> {
    if (opts.signal?.aborted) throw new Error(FRAME_ERRORS.aborted);
    await ready.catch(() => {
      throw failed ?? new Error(FRAME_ERRORS.load);
    });
    // Aborted or destroyed while the frame was loading.
    if (opts.signal?.aborted || destroyed) throw new Error(FRAME_ERRORS.aborted);
    const id = randomId();
    const limit = opts.timeoutMs ?? (type.startsWith('CONNECT_') ? timeoutMs : undefined);
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = () => {
        pending.delete(id);
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        settle();
        reject(new Error(FRAME_ERRORS.aborted));
      };
      // behaviour 5.15: a timeout is "Something went wrong".
      const timing = (running: boolean) => {
        clearTimeout(timer);
        if (running && limit !== undefined) {
          timer = setTimeout(() => {
            settle();
            reject(new Error(FRAME_ERRORS.failed));
          }, limit);
        }
      };
      pending.set(id, {
        resolve: (value) => {
          settle();
          resolve(value as T);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        timing,
      });
      timing(!store.getState().approval);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      channel.port1.postMessage({ id, type, payload });
    });
  }

  return {
    store,
    request,
    place: (rect) => host.place?.(rect),
    destroy() {
      destroyed = true;
      clearTimeout(loadTimer);
      for (const waiting of pending.values()) waiting.reject(new Error(FRAME_ERRORS.aborted));
      pending.clear();
      channel.port1.close();
      host.remove();
    },
  };
}
