// HTTP JSON-RPC 2.0 on `port` and Solana's subscription WebSocket on `port + 1` (where
// @solana/web3.js looks for it; the HTTP port also accepts WebSocket upgrades).
import { createServer } from 'node:http';

import { WebSocketServer } from 'ws';

import { stringify } from './encoding.js';
import { RpcError, accountEncoding, call, config, encodeAccount, methods, positional, pubkey, signature } from './rpc.js';

const MAX_BODY = 1024 * 1024;

const isId = (id) => id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
const errorBody = (id, err) => ({
  jsonrpc: '2.0',
  error: err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data },
  id,
});

/**
 * One JSON-RPC 2.0 exchange: `text` in, the response object (or array) out, or null when every
 * request was a notification. `run(method, params)` answers one call or throws RpcError.
 */
export function respond(text, run) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return errorBody(null, new RpcError(-32700, 'Parse error'));
  }
  if (Array.isArray(body)) {
    if (body.length === 0) return errorBody(null, new RpcError(-32600, 'Invalid request'));
    const out = body.map((req) => one(req, run)).filter((r) => r !== null);
    return out.length === 0 ? null : out;
  }
  return one(body, run);
}

function one(req, run) {
  const valid =
    typeof req === 'object' &&
    req !== null &&
    !Array.isArray(req) &&
    req.jsonrpc === '2.0' &&
    typeof req.method === 'string' &&
    (!('id' in req) || isId(req.id)) &&
    (req.params === undefined || (typeof req.params === 'object' && req.params !== null));
  if (!valid) {
    const id = typeof req === 'object' && req !== null && isId(req.id) ? req.id : null;
    return errorBody(id, new RpcError(-32600, 'Invalid request'));
  }
  const notification = !('id' in req);
  try {
    const result = run(req.method, req.params);
    return notification ? null : { jsonrpc: '2.0', result, id: req.id };
  } catch (err) {
    if (notification) return null;
    return errorBody(req.id, err instanceof RpcError ? err : new RpcError(-32603, 'Internal error'));
  }
}

/** Subscriptions of one WebSocket connection. */
function subscriptions(chain, send) {
  let nextId = 0;
  const subs = new Map(); // id → { kind, ... }
  const notify = (method, subscription, result) => send({ jsonrpc: '2.0', method, params: { result, subscription } });

  const onTransaction = (record) => {
    for (const [id, sub] of subs) {
      if (sub.kind === 'signature' && sub.signature === record.signature) {
        subs.delete(id); // a signature subscription ends with its notification, as on a validator
        notify('signatureNotification', id, { context: { slot: record.slot }, value: { err: record.err } });
      } else if (sub.kind === 'account') {
        const keys = record.tx.message.staticAccounts;
        if (keys.includes(sub.address) || record.loadedAddresses.writable.includes(sub.address)) {
          const value = encodeAccount(chain, chain.account(sub.address) ?? emptyAccount(), sub.encoding, null);
          notify('accountNotification', id, { context: { slot: record.slot }, value });
        }
      }
    }
  };
  const onSlot = (slot) => {
    for (const [id, sub] of subs) {
      if (sub.kind === 'slot') notify('slotNotification', id, { parent: slot - 1, root: slot, slot });
    }
  };
  chain.on('transaction', onTransaction);
  chain.on('slot', onSlot);

  const unsubscribe = (kind) => (params) => {
    const [id] = positional(params, 1, 1);
    if (!Number.isSafeInteger(id)) throw new RpcError(-32602, 'Invalid params: expected a subscription id');
    const sub = subs.get(id);
    if (!sub || sub.kind !== kind) throw new RpcError(-32602, 'Invalid subscription id.');
    subs.delete(id);
    return true;
  };

  const table = {
    signatureSubscribe: (params) => {
      const [sig, cfg] = positional(params, 1, 2);
      signature(sig);
      config(cfg, chain, ['enableReceivedNotification']);
      const id = nextId++;
      const record = chain.records.get(sig);
      if (record) {
        // Already final: answer right after the subscription id.
        queueMicrotask(() => notify('signatureNotification', id, { context: { slot: record.slot }, value: { err: record.err } }));
      } else {
        subs.set(id, { kind: 'signature', signature: sig });
      }
      return id;
    },
    signatureUnsubscribe: unsubscribe('signature'),
    slotSubscribe: (params) => {
      positional(params, 0, 0);
      const id = nextId++;
      subs.set(id, { kind: 'slot' });
      return id;
    },
    slotUnsubscribe: unsubscribe('slot'),
    accountSubscribe: (params) => {
      const [address, rawCfg] = positional(params, 1, 2);
      const cfg = config(rawCfg, chain, ['encoding']);
      const id = nextId++;
      subs.set(id, { kind: 'account', address: pubkey(address), encoding: accountEncoding(cfg.encoding, 'binary') });
      return id;
    },
    accountUnsubscribe: unsubscribe('account'),
  };
  return {
    run: (method, params) => call(table, method, params),
    close: () => {
      chain.off('transaction', onTransaction);
      chain.off('slot', onSlot);
      subs.clear();
    },
  };
}

const emptyAccount = () => ({ lamports: 0n, owner: '11111111111111111111111111111111', data: new Uint8Array(), executable: false, rentEpoch: 0n });

function attachWebSockets(wss, chain) {
  wss.on('connection', (socket) => {
    const send = (msg) => {
      if (socket.readyState === socket.OPEN) socket.send(stringify(msg));
    };
    const subs = subscriptions(chain, send);
    socket.on('message', (data, isBinary) => {
      const reply = respond(isBinary ? '' : data.toString('utf8'), subs.run);
      if (reply !== null) send(reply);
    });
    socket.on('close', subs.close);
    socket.on('error', () => socket.terminate());
  });
}

function listen(server, host, port) {
  return new Promise((resolve, reject) => {
    const onError = (err) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address().port);
    });
  });
}

const close = (server) => new Promise((resolve) => server.close(() => resolve()));

/**
 * Serves `chain` on `host:port` (HTTP) and `host:port+1` (WebSocket). With port 0 it picks a free pair.
 * Returns `{ rpcUrl, wsUrl, port, close() }`.
 */
export async function serve(chain, { host = '127.0.0.1', port = 8899 } = {}) {
  const table = methods(chain);
  const run = (method, params) => call(table, method, params);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY });
  attachWebSockets(wss, chain);

  const handler = (req, res) => {
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) {
        res.writeHead(413, { 'content-type': 'text/plain' }).end('request body too large');
        return;
      }
      const reply = respond(Buffer.concat(chunks).toString('utf8'), run);
      if (reply === null) res.writeHead(204).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(stringify(reply));
    });
  };
  const upgrade = (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));

  for (let attempt = 0; ; attempt += 1) {
    const http = createServer(handler).on('upgrade', upgrade);
    const wsHttp = createServer((_req, res) => res.writeHead(426).end()).on('upgrade', upgrade);
    const httpPort = await listen(http, host, port);
    try {
      await listen(wsHttp, host, httpPort + 1);
    } catch (err) {
      await close(http);
      if (port !== 0 || attempt >= 20 || err.code !== 'EADDRINUSE') throw err;
      continue;
    }
    const hostPart = host.includes(':') ? `[${host}]` : host;
    return {
      port: httpPort,
      rpcUrl: `http://${hostPart}:${httpPort}`,
      wsUrl: `ws://${hostPart}:${httpPort + 1}`,
      close: async () => {
        for (const ws of wss.clients) ws.terminate();
        http.closeAllConnections();
        wsHttp.closeAllConnections();
        await Promise.all([close(http), close(wsHttp)]);
      },
    };
  }
}
