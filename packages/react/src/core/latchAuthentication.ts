import { serverUrl } from './api.js';
import { fetchJson, HttpError } from './gateway.js';
import type { AuthenticationAdapter, SiwxSession } from './siwx.js';
import { STORAGE_KEYS, type KeyValueStorage } from './storage.js';
import type { CaipAddress, CaipNetworkId } from './types.js';
import { loadWasmExtra } from './wasmExtra.js';

/** A session as the Latch server answers it (`/v1/siwx/…`). */
interface ServerSession {
  id: string;
  account: string;
  chainId: string;
  message: string;
  signature: string;
  expiresAt: number;
}

const fromServer = (session: ServerSession): SiwxSession => ({
  id: session.id,
  account: session.account as CaipAddress,
  chainId: session.chainId as CaipNetworkId,
  message: session.message,
  signature: session.signature,
  expiresAt: session.expiresAt,
});

/** A sign-in or refresh answer: short-lived tokens, never the long-lived session token. */
interface ServerTokens {
  accessToken: string;
  accessExpiresAt: number;
  refreshToken: string;
  session: ServerSession;
}

/** Refresh this long before the access token expires, so a request never carries a dying one. */
const ACCESS_MARGIN_MS = 30_000;

/**
 * Sign-in against the Latch server (behaviour 6.11 sign-in endpoints): nonces and verification by the
 * server, the message built by latch-core. No long-lived credential is ever readable by page
 * scripts: the server keeps the session token in an HTTP-only cookie (sent by `fetch` when the
 * server is on this page's origin), and answers a short-lived access token and a one-time
 * refresh token, which live only in this closure's memory (a reload on another origin signs in
 * again). Tokens stored by earlier versions in `storage` are removed.
 */
export function createLatchAuthentication({
  projectId,
  getServerUrl,
  storage,
}: {
  projectId: string;
  getServerUrl(): string;
  storage: KeyValueStorage;
}): AuthenticationAdapter {
  storage.removeItem(STORAGE_KEYS.siwxToken(projectId));
  const url = (path: string) => serverUrl({ projectId, getServerUrl }, path);
  let tokens: Omit<ServerTokens, 'session'> | null = null;
  const keep = ({ accessToken, accessExpiresAt, refreshToken }: ServerTokens) => {
    tokens = { accessToken, accessExpiresAt, refreshToken };
  };
  /** Headers carrying a live access token, refreshing it first when it is about to expire. */
  const authorization = async (): Promise<Record<string, string>> => {
    if (tokens && tokens.accessExpiresAt - ACCESS_MARGIN_MS <= Date.now()) {
      const refreshToken = tokens.refreshToken;
      tokens = null;
      try {
        keep(
          await fetchJson<ServerTokens>(url('/v1/siwx/refresh'), {
            method: 'POST',
            headers: { 'Content-Type': 'text/plain' },
            body: JSON.stringify({ refreshToken }),
          }),
        );
      } catch (error) {
        // 401: used, expired or revoked; the cookie (same origin) may still hold a session.
        if (!(error instanceof HttpError && error.status === 401)) throw error;
      }
    }
    return tokens ? { Authorization: `Bearer ${tokens.accessToken}` } : {};
  };

  return {
    async getNonce({ domain }) {
      const { nonce } = await fetchJson<{ nonce: string }>(url('/v1/siwx/nonce'), {
        method: 'POST',
        // text/plain keeps this a "simple" request: no CORS preflight (the server reads JSON regardless).
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ domain }),
      });
      return nonce;
    },
    async createMessage(input) {
      const { buildSiwxMessage } = await loadWasmExtra();
      return buildSiwxMessage({
        domain: input.domain,
        address: input.address,
        statement: input.statement,
        uri: input.uri,
        version: '1',
        chainId: input.chainId,
        nonce: input.nonce,
        issuedAt: input.issuedAt,
        expirationTime: input.expirationTime,
      });
    },
    async verify({ message, signature }) {
      const answer = await fetchJson<ServerTokens>(url('/v1/siwx/sessions'), {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ message, signature }),
      });
      keep(answer);
      return fromServer(answer.session);
    },
    async getSession() {
      try {
        const { session } = await fetchJson<{ session: ServerSession }>(url('/v1/siwx/session'), {
          headers: await authorization(),
        });
        return fromServer(session);
      } catch (error) {
        // 401: no session for the access token or the cookie.
        if (error instanceof HttpError && error.status === 401) {
          tokens = null;
          return null;
        }
        throw error;
      }
    },
    async signOut() {
      const headers = await authorization();
      tokens = null;
      try {
        await fetchJson(url('/v1/siwx/session'), { method: 'DELETE', headers });
      } catch (error) {
        // Already ended on the server (or never begun): signed out either way.
        if (!(error instanceof HttpError && error.status === 401)) throw error;
      }
    },
  };
}
