import { LATCH_CONSTANTS } from '@latch/wasm';
import type { CaipNetworkId } from './types.js';

/** Behaviour 6.15: chain RPC calls time out after 10 s. */
const RPC_TIMEOUT_MS = LATCH_CONSTANTS.rpc.timeoutMs;

/** A non-2xx answer from the Latch server; `detail` carries the server's stated reason. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly detail?: string,
    /** The Latch server's machine code (`NO_ROUTE`, `SLIPPAGE_EXCEEDED`, …), when it sent one. */
    readonly code?: string,
  ) {
    super(`HTTP status code: ${status}`);
  }
}

/**
 * The documented alert for a refusal by the Latch server (behaviour 6.2): an unknown project (401) is
 * `Invalid Project ID`, an origin off the project's allowlist (403) `Invalid App Configuration`.
 */
export function serverRefusal(error: unknown): 'invalidProjectId' | 'invalidAppConfiguration' | undefined {
  if (!(error instanceof HttpError)) return undefined;
  if (error.status === 401) return 'invalidProjectId';
  if (error.status === 403) return 'invalidAppConfiguration';
  return undefined;
}

/** Behaviour 8 (transport): the words for a gateway with no server URL to call. */
export const NO_TRANSPORT_URL = 'No URL was provided to the Transport. Please provide a valid RPC URL to the Transport.';
/** Behaviour 8 (transport): an error that says nothing about itself. */
export const UNKNOWN_ERROR = 'Unknown error';

/**
 * The server's base URL without trailing slashes; an empty one throws `NO_TRANSPORT_URL` rather than
 * letting `fetch` quietly resolve a relative path against the host page.
 */
export function transportUrl(getServerUrl: () => string): string {
  const base = getServerUrl().trim().replace(/\/+$/, '');
  if (!base) throw new Error(NO_TRANSPORT_URL);
  return base;
}

/** A JSON-RPC error object returned by the chain behind the gateway. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string | undefined,
  ) {
    // A node may send an error object with no (or an empty) message.
    super(message || UNKNOWN_ERROR);
  }
}

export interface Gateway {
  request(caipNetworkId: CaipNetworkId, method: string, params: readonly unknown[]): Promise<unknown>;
}

export interface GatewayOptions {
  projectId: string;
  /** Read on every call so importing or creating Latch never touches `window`. */
  getServerUrl(): string;
}

/** The Latch server's chain RPC gateway: `POST {serverUrl}/v1/?chainId=…&projectId=…`. */
export function createGateway({ projectId, getServerUrl }: GatewayOptions): Gateway {
  let nextId = 1;

  return {
    async request(caipNetworkId, method, params) {
      const query = new URLSearchParams({ chainId: caipNetworkId, projectId });
      const url = `${transportUrl(getServerUrl)}/v1/?${query}`;
      const body = await fetchJson<{ result?: unknown; error?: { code: number; message?: string } }>(url, {
        method: 'POST',
        // text/plain keeps this a "simple" request, so browsers skip the CORS preflight.
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      });
      if (body.error) throw new RpcError(body.error.code, body.error.message);
      return body.result;
    },
  };
}

/**
 * GETs or POSTs JSON to the Latch server: a non-2xx answer throws `HttpError` with the server's
 * stated reason (documented: the client reports `HTTP status code: N`).
 */
export async function fetchJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(RPC_TIMEOUT_MS), ...init });
  if (!response.ok) {
    const { detail, code } = await readFailureReason(response);
    throw new HttpError(response.status, detail, code);
  }
  return (await response.json()) as T;
}

/** Reads `{"status":"FAILED","code":…,"reasons":[{"description":…}]}`; other bodies give no detail. */
async function readFailureReason(response: Response): Promise<{ detail?: string; code?: string }> {
  try {
    const body = (await response.json()) as { code?: unknown; reasons?: { description?: string }[] };
    const descriptions = body.reasons?.map((reason) => reason.description).filter(Boolean);
    return {
      detail: descriptions?.length ? descriptions.join('; ') : undefined,
      code: typeof body.code === 'string' ? body.code : undefined,
    };
  } catch {
    return {};
  }
}
