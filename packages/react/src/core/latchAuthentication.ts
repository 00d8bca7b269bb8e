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

/**
 * Sign-in against the Latch server (spec §7 sign-in endpoints): nonces and verification by the
 * server, the message built by latch-core. The session token is kept in `storage` (spec §3
 * "sign-in tokens") and sent as a bearer token, so it works when the server is on another
 * origin; the server also sets it as an HTTP-only cookie for the host's own backend.
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
  const tokenKey = STORAGE_KEYS.siwxToken(projectId);
  const url = (path: string) => serverUrl({ projectId, getServerUrl }, path);
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

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
      const { token, session } = await fetchJson<{ token: string; session: ServerSession }>(url('/v1/siwx/sessions'), {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ message, signature }),
      });
      storage.setItem(tokenKey, token);
      return fromServer(session);
    },
    async getSession() {
      const token = storage.getItem(tokenKey);
      if (!token) return null;
      try {
        const { session } = await fetchJson<{ session: ServerSession }>(url('/v1/siwx/session'), { headers: bearer(token) });
        return fromServer(session);
      } catch (error) {
        // 401: expired or revoked; the token is of no further use.
        if (error instanceof HttpError && error.status === 401) storage.removeItem(tokenKey);
        throw error;
      }
    },
    async signOut() {
      const token = storage.getItem(tokenKey);
      storage.removeItem(tokenKey);
      if (!token) return;
      try {
        await fetchJson(url('/v1/siwx/session'), { method: 'DELETE', headers: bearer(token) });
      } catch (error) {
        // Already ended on the server: signed out either way.
        if (!(error instanceof HttpError && error.status === 401)) throw error;
      }
    },
  };
}
