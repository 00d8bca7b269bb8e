// The wallet frame (ARCHITECTURE.md "The wallet frame"). Loaded by the modal in an iframe with
// ?projectId&chainId&version&enableLogger. Accepts one handshake, from its parent window only,
// whose origin latch allows for the project; then talks only over the handshake's port.
import { ApiError, call } from './api';
import { type FrameState, handlers } from './handlers';
import { DEFAULT_ERROR, type FrameMessage, HANDSHAKE, SOCIAL_TOKEN } from './messages';
import { init } from '@latch/wasm-vault';
import { checkRequest } from './validate';

const READY_DELAY_MS = 500;
const params = new URLSearchParams(location.search);
const logging = params.get('enableLogger') === 'true';
const log = (...args: unknown[]) => {
  if (logging) console.debug('[latch-vault]', ...args);
};

let port: MessagePort | null = null;
let handshaking = false;
let socialWaiter: ((token: string) => void) | null = null;
let earlySocialToken: string | null = null;

const state: FrameState = {
  projectId: params.get('projectId') ?? '',
  chainId: params.get('chainId'),
  pendingEmail: null,
  primaryOtp: null,
  theme: {},
  dapp: {},
  socials: [],
  hostOrigin: '',
  approvalVisible: (open) => post({ type: open ? 'APPROVAL_OPEN' : 'APPROVAL_CLOSED' }),
  sessionChanged: (connected) => post({ type: 'SESSION_UPDATE', payload: { connected } }),
  socialToken: () =>
    new Promise((resolve) => {
      if (earlySocialToken) resolve(earlySocialToken);
      else socialWaiter = resolve;
      earlySocialToken = null;
    }),
};

function post(message: FrameMessage): void {
  port?.postMessage(message);
}

async function handle(raw: unknown): Promise<void> {
  const checked = await checkRequest(raw);
  if (!checked.ok) {
    // A request without an id or type cannot be answered; anything else gets its _ERROR.
    if (checked.id && checked.type) post({ type: `${checked.type}_ERROR`, id: checked.id, payload: { message: checked.message } });
    log('refused', checked.message);
    return;
  }
  const { id, type, payload } = checked.request;
  const handler = handlers[type];
  if (!handler) {
    post({ type: `${type}_ERROR`, id, payload: { message: 'type: Invalid input' } });
    return;
  }
  try {
    post({ type: `${type}_SUCCESS`, id, payload: await handler(state, payload) });
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : DEFAULT_ERROR;
    // RPC errors keep their EIP-1193 code (4001 rejected, 4200 not allowed) for the host's provider.
    const code = (error as { code?: unknown } | null)?.code;
    // latch's refusals keep their stable code and field (`reason`, `field`), which the modal's
    // views act on (EMAIL_TAKEN, which of an update's two codes was wrong).
    const refusal = error instanceof ApiError && error.code ? { reason: error.code, field: error.field } : {};
    post({ type: `${type}_ERROR`, id, payload: typeof code === 'number' ? { message, code } : { message, ...refusal } });
  }
}

let loaded: Promise<void> = new Promise((resolve) => {
  if (document.readyState === 'complete') resolve();
  else window.addEventListener('load', () => resolve(), { once: true });
});
const loadedAt = loaded.then(() => performance.now());

async function handshake(event: MessageEvent): Promise<void> {
  handshaking = true;
  try {
    // latch applies the project's allowed-origin rule to the embedding page's origin.
    const config = await call<{ socials: string[] }>(state.projectId, 'GET', 'frame-config', {
      query: { origin: event.origin },
    });
    state.socials = config.socials;
    state.hostOrigin = event.origin;
  } catch (error) {
    handshaking = false;
    log('handshake refused for', event.origin, error);
    return;
  }
  const channel = event.ports[0];
  if (!channel) return;
  void init();
  port = channel;
  port.onmessage = (message) => void handle(message.data);
  port.start();
  const since = performance.now() - (await loadedAt);
  setTimeout(() => post({ type: 'READY', payload: { version: params.get('version') } }), Math.max(0, READY_DELAY_MS - since));
}

window.addEventListener('message', (event) => {
  // The social popup's last page, on this origin, hands over its session token.
  if (event.origin === location.origin && event.source !== window.parent) {
    const data = event.data as { type?: unknown; token?: unknown } | null;
    if (data?.type === SOCIAL_TOKEN && typeof data.token === 'string') {
      // A token that comes before CONNECT_SOCIAL waits for it.
      if (socialWaiter) socialWaiter(data.token);
      else earlySocialToken = data.token;
      socialWaiter = null;
    }
    return;
  }
  // Only the embedding page, only once, only with a port: everything else is ignored unanswered.
  if (port || handshaking || window.parent === window || event.source !== window.parent) return;
  const data = event.data as { type?: unknown } | null;
  if (data?.type !== HANDSHAKE || event.ports.length !== 1) return;
  void handshake(event);
});
loaded = loaded.then(() => log('loaded for', state.projectId));
