// What each request does (behaviour 5.15). Each handler answers the
// `_SUCCESS` payload or throws; frame.ts turns a throw into `_ERROR`.
import { ApiError, call } from './api';
import { ensureWallet } from './keys';
import { abortApproval, rpcRequest } from './rpc';
import { isSolanaMethod } from './solana';
import { abortRecovery } from './recovery';
import { applyTheme } from './approve';
import { loadPanelLocale } from './locales';
import { deviceId, sessionToken, setSessionToken } from './storage';

export interface User {
  email: string;
  userId: string;
  accounts: { address: string; type: string; namespace: string }[];
  userName: string | null;
}

export interface FrameState {
  projectId: string;
  chainId: string | null;
  /** The e-mail a code was sent to, until it is verified. */
  pendingEmail: string | null;
  /** The first code of an e-mail change, until the second comes. */
  primaryOtp: string | null;
  theme: Record<string, unknown>;
  dapp: Record<string, unknown>;
  /** Tells the host the session changed (SESSION_UPDATE). */
  sessionChanged: (connected: boolean) => void;
  /** Resolves with the token /social/callback hands over. */
  socialToken: () => Promise<string>;
  /** The social providers latch has configured (its frame-config), known after the handshake. */
  socials: string[];
  /** The embedding page's origin (the handshake's). */
  hostOrigin: string;
  /** Tells the host to show or hide the frame (APPROVAL_OPEN / APPROVAL_CLOSED). */
  approvalVisible: (open: boolean) => void;
}

type Handler = (state: FrameState, payload: Record<string, unknown>) => Promise<unknown>;

const text = (payload: Record<string, unknown>, key: string) => String(payload[key] ?? '');

function token(state: FrameState): string {
  const current = sessionToken(state.projectId);
  if (!current) throw new Error('Not logged in');
  return current;
}

async function user(state: FrameState): Promise<User & { chainId: string | null }> {
  const found = await call<User>(state.projectId, 'GET', 'user', { token: token(state) });
  return { ...found, chainId: state.chainId };
}

async function loggedIn(state: FrameState, sessionToken: string) {
  setSessionToken(state.projectId, sessionToken);
  state.pendingEmail = null;
  try {
    // The first login makes the wallet and seals its recovery share; later ones check this
    // device's share against it, or recover it on a new device with the recovery password.
    await ensureWallet({
      projectId: state.projectId,
      token: sessionToken,
      userId: (await user(state)).userId,
      locale: typeof state.dapp.locale === 'string' ? state.dapp.locale : null,
      visible: state.approvalVisible,
    });
  } catch (error) {
    setSessionToken(state.projectId, null);
    throw error;
  }
  state.sessionChanged(true);
  return user(state);
}

async function startEmail(state: FrameState, email: string): Promise<{ action: string }> {
  const answer = await call<{ action: string }>(state.projectId, 'POST', 'email/start', {
    body: { email, deviceId: deviceId() },
  });
  state.pendingEmail = email;
  return answer;
}

/** The schema checked the id's shape; only a provider latch configured can log in. */
function socialProvider(state: FrameState, payload: Record<string, unknown>): string {
  const provider = text(payload, 'provider');
  if (!state.socials.includes(provider)) throw new Error('provider: Invalid input');
  return provider;
}

export const handlers: Record<string, Handler> = {
  CONNECT_EMAIL: (state, payload) => startEmail(state, text(payload, 'email')),
  // After the approval link was opened on the new device, the login starts over.
  CONNECT_DEVICE: async (state) => {
    if (!state.pendingEmail) throw new Error('Enter your e-mail first');
    return startEmail(state, state.pendingEmail);
  },
  CONNECT_OTP: async (state, payload) => {
    if (!state.pendingEmail) throw new Error('Enter your e-mail first');
    const answer = await call<{ token: string }>(state.projectId, 'POST', 'email/verify', {
      body: { email: state.pendingEmail, otp: text(payload, 'otp'), deviceId: deviceId() },
    });
    return loggedIn(state, answer.token);
  },
  GET_SOCIAL_REDIRECT_URI: async (state, payload) => {
    const answer = await call<{ url: string }>(state.projectId, 'GET', `social/${socialProvider(state, payload)}/start`);
    return { uri: answer.url };
  },
  CONNECT_SOCIAL: async (state, payload) => {
    socialProvider(state, payload);
    return loggedIn(state, await state.socialToken());
  },
  GET_USER: async (state, payload) => {
    if (typeof payload.chainId === 'string') state.chainId = payload.chainId;
    return user(state);
  },
  // behaviour 5.15: a failed connection check clears the cached login.
  IS_CONNECTED: async (state) => {
    if (!sessionToken(state.projectId)) return { isConnected: false };
    try {
      await user(state);
      return { isConnected: true };
    } catch {
      setSessionToken(state.projectId, null);
      return { isConnected: false };
    }
  },
  SIGN_OUT: async (state) => {
    const current = sessionToken(state.projectId);
    setSessionToken(state.projectId, null);
    state.sessionChanged(false);
    if (current) await call(state.projectId, 'POST', 'signout', { token: current }).catch(() => undefined);
    return {};
  },
  GET_CHAIN_ID: async (state) => ({ chainId: state.chainId }),
  SWITCH_NETWORK: async (state, payload) => {
    state.chainId = text(payload, 'chainId');
    return { chainId: state.chainId };
  },
  SYNC_THEME: async (state, payload) => {
    state.theme = payload;
    if (payload.themeVariables && typeof payload.themeVariables === 'object') {
      applyTheme(payload.themeVariables as Record<string, unknown>);
    }
    if (payload.themeMode === 'light' || payload.themeMode === 'dark') {
      document.documentElement.dataset.theme = payload.themeMode;
    }
    return {};
  },
  SYNC_DAPP_DATA: async (state, payload) => {
    state.dapp = payload;
    // The panel's words in the host's locale, fetched before the answer so the next panel speaks
    // it; a failed fetch leaves English (the panel must still show).
    if (typeof payload.locale === 'string') await loadPanelLocale(payload.locale).catch(() => undefined);
    return {};
  },
  RPC_REQUEST: async (state, payload) => {
    const current = token(state);
    const method = text(payload, 'method');
    // The Solana sign methods sign with the Solana account, on the network the request names.
    const namespace = isSolanaMethod(method) ? 'solana' : 'eip155';
    const chainId = namespace === 'solana' && typeof payload.chainId === 'string' ? payload.chainId : state.chainId;
    return rpcRequest(
      {
        projectId: state.projectId,
        chainId,
        token: current,
        identity: async () => {
          const found = await user(state);
          const account = found.accounts.find((item) => item.namespace === namespace)?.address;
          if (!account) throw new Error('Not logged in');
          return { userId: found.userId, account };
        },
        origin: state.hostOrigin,
        locale: typeof state.dapp.locale === 'string' ? state.dapp.locale : null,
        visible: state.approvalVisible,
      },
      method,
      payload.params,
    );
  },
  RPC_ABORT: async () => {
    abortApproval();
    abortRecovery();
    return {};
  },
  RELOAD: async () => {
    // After the answer is posted: the host handshakes again with the fresh page.
    setTimeout(() => location.reload(), 0);
    return {};
  },
  UPDATE_EMAIL: async (state, payload) =>
    call<{ action: string }>(state.projectId, 'POST', 'email/update', {
      body: { newEmail: text(payload, 'email') },
      token: token(state),
    }),
  UPDATE_EMAIL_PRIMARY_OTP: async (state, payload) => {
    token(state);
    state.primaryOtp = text(payload, 'otp');
    return { action: 'VERIFY_SECONDARY_OTP' };
  },
  UPDATE_EMAIL_SECONDARY_OTP: async (state, payload) => {
    if (!state.primaryOtp) throw new Error('Enter the code sent to your current e-mail first');
    const primaryOtp = state.primaryOtp;
    try {
      await call(state.projectId, 'POST', 'email/update/verify', {
        body: { primaryOtp, secondaryOtp: text(payload, 'otp') },
        token: token(state),
      });
    } catch (error) {
      // A mistyped second code is typed again; the first one stays. Anything else (a wrong first
      // code, expired codes) starts from the first code.
      if (!(error instanceof ApiError && error.code === 'OTP_INVALID' && error.field === 'secondaryOtp')) {
        state.primaryOtp = null;
      }
      throw error;
    }
    state.primaryOtp = null;
    return user(state);
  },
};
