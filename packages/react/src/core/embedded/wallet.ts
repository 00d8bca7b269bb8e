// The embedded wallet's login in the modal (behaviour 5.15 "Embedded-wallet requests"): a vanilla
// store the e-mail and code views read, driving the frame. Loaded lazily (load.ts).
import type { ConnectionController } from '../connection.js';
import type { LatchEvent } from '../events.js';
import { currentView, type ModalController } from '../modal.js';
import { createStore, type Store } from '../store.js';
import type { Eip155Connector, Network } from '../types.js';
import { createFrameClient, FrameError, type FrameClient, type FrameHost, type FrameRect } from './frameClient.js';
import { createEmbeddedProvider, type EmbeddedProvider } from './provider.js';
import { createEmbeddedSolanaWallet } from './solanaWallet.js';

/** The embedded wallet's connector id (behaviour 2.1 `ID_AUTH`). */
export { EMBEDDED_CONNECTOR_ID } from './load.js';
import { EMBEDDED_CONNECTOR_ID } from './load.js';
/** behaviour 7.1: a new code may be asked for 30 s after the last one. */
export const RESEND_COOLDOWN_MS = 30_000;
/** The device is still unapproved (latch mailed a new link); the view shows its localized text. */
export const DEVICE_NOT_APPROVED = 'DEVICE_NOT_APPROVED';
/** An e-mail update to the address the user already has; the view shows its localized text. */
export const UPDATE_EMAIL_SAME = 'UPDATE_EMAIL_SAME';
/** latch's `EMAIL_TAKEN`: another user has the new address; the view shows its localized text. */
export const UPDATE_EMAIL_TAKEN = 'EMAIL_TAKEN';
/** The views of an e-mail update, in order. */
const UPDATE_VIEWS = ['UpdateEmailWallet', 'UpdateEmailPrimaryOtp', 'UpdateEmailSecondaryOtp'] as const;

export interface EmbeddedUser {
  email: string;
  userId: string;
  accounts: { address: string; type: string; namespace: string }[];
  userName: string | null;
}

export interface EmbeddedState {
  /** The address a code was sent to. */
  email?: string;
  busy: boolean;
  /** The frame's or the server's message for the last failure. */
  error?: string;
  /** When a new code may be asked for (ms since the epoch). */
  resendAt: number;
  /** The logged-in user. */
  user?: EmbeddedUser;
  /** The address an e-mail update mailed its second code to, until the update is done. */
  newEmail?: string;
  /** The frame's approval panel is open (behaviour 5.19: ApproveTransaction shows the frame). */
  approving: boolean;
  /** The frame refused the last method (behaviour 5.19: "Action not allowed" after 300 ms). */
  refused: boolean;
}

export interface EmbeddedWallet {
  store: Store<EmbeddedState>;
  submitEmail(email: string): Promise<void>;
  submitOtp(otp: string): Promise<void>;
  resend(): Promise<void>;
  /** After the device approval link was opened: asks the frame for the login code (CONNECT_DEVICE). */
  continueDevice(): Promise<void>;
  /** A reload's reconnect: the frame's session, if any, without a new code. */
  restore(): Promise<void>;
  signOut(): Promise<void>;
  /** The social logins latch has configured for the project (frame-config), in its order. */
  socials(): Promise<string[]>;
  /**
   * A social login in `popup`, which the caller opened on the user's click (an iframe may not
   * open one): the frame's authorization URL goes there; the frame answers once the popup's last
   * page handed it the session.
   */
  connectSocial(provider: string, popup: Window | null): Promise<void>;
  /**
   * Changes the user's e-mail (behaviour 5.15 "update e-mail"): latch mails a code to the current
   * address and one to `newEmail`; the first goes to `submitUpdatePrimaryOtp`, the second to
   * `submitUpdateSecondaryOtp`, which swaps the address and returns to Account.
   */
  updateEmail(newEmail: string): Promise<void>;
  submitUpdatePrimaryOtp(otp: string): Promise<void>;
  submitUpdateSecondaryOtp(otp: string): Promise<void>;
  /** Both codes again (they replace the old ones, so the first is asked for again). */
  resendUpdate(): Promise<void>;
  /** ApproveTransaction's box for the frame, or null when the view goes. */
  placeFrame(rect: FrameRect | null): void;
}

export interface EmbeddedDeps {
  vaultUrl: string;
  projectId: string;
  version: string;
  network: Network;
  /** The host's Solana networks now: with one, the embedded wallet's Solana account is offered too. */
  solanaNetworks?: () => readonly Network[];
  modal: ModalController;
  connection: ConnectionController;
  /** Reports SOCIAL_LOGIN_SUCCESS. */
  track: (event: LatchEvent) => void;
  /** The Latch server's API (frame-config). */
  serverUrl: () => string;
  /** The host page's origin, which latch checks against the project. */
  origin: () => string;
  now?: () => number;
  /** Where the frame lives; tests pass a stand-in. */
  host?: (src: string) => FrameHost;
  /** The modal's theme, which the frame's approval panel follows (SYNC_THEME). */
  theme?: ThemeSource;
  /** The modal's locale, which the frame's approval panel speaks (SYNC_DAPP_DATA). */
  locale?: LocaleSource;
}

/** The part of the Latch locale store the frame needs. */
export interface LocaleSource {
  getState(): { locale: string };
  subscribe(listener: () => void): () => void;
}

/** The part of the Latch theme store the frame needs. */
export interface ThemeSource {
  getState(): { themeMode: string; themeVariables: Readonly<Record<string, string>> };
  subscribe(listener: () => void): () => void;
}

export function createEmbeddedWallet(deps: EmbeddedDeps): EmbeddedWallet {
  const now = deps.now ?? Date.now;
  const store = createStore<EmbeddedState>({ busy: false, resendAt: 0, approving: false, refused: false });
  // Behaviour 1.5: going back from the code step before logging in drops that step's error, which the
  // e-mail form would show otherwise; after the back-cleanup delay, so the transition runs first.
  // The e-mail update's views drop theirs when the user goes back, but not when the flow itself
  // went back to the first code with the error that sent it there.
  let keepErrorOnBack = false;
  deps.modal.onBackCleanup((left) => {
    if (left === 'EmailVerifyOtp' && !store.getState().user) store.setState({ error: undefined });
    if ((UPDATE_VIEWS as readonly string[]).includes(left)) {
      if (keepErrorOnBack) keepErrorOnBack = false;
      else store.setState({ error: undefined });
    }
  });
  let client: FrameClient | undefined;
  let provider: EmbeddedProvider | undefined;
  /** Whether the modal was opened for the approval (then it closes after), or the view pushed. */
  let openedForApproval = false;
  /** An approval was shown since the last answer: its success refreshes the balance (not reads). */
  let approved = false;
  const showApproveView = () => {
    const modal = deps.modal.store.getState();
    if (!modal.open) {
      openedForApproval = true;
      deps.modal.open({ view: 'ApproveTransaction' });
    } else if (currentView(modal) !== 'ApproveTransaction') {
      openedForApproval = false;
      deps.modal.push('ApproveTransaction');
    }
  };
  // Behaviour 5.19: the approval ends by popping the view, or closing the modal opened for it.
  const leaveApproveView = () => {
    const modal = deps.modal.store.getState();
    if (!modal.open || currentView(modal) !== 'ApproveTransaction') return;
    if (openedForApproval || modal.history.length === 1) deps.modal.close();
    else deps.modal.back();
  };
  const frame = () => {
    if (client) return client;
    const created = createFrameClient({
      vaultUrl: deps.vaultUrl,
      projectId: deps.projectId,
      chainId: deps.network.caipNetworkId,
      version: deps.version,
      ...(deps.host ? { host: deps.host } : {}),
    });
    created.store.subscribe(() => {
      const frameState = created.store.getState();
      const { approving, refused } = store.getState();
      if (frameState.approval === approving) return;
      // Behaviour 5.19: an unknown method's refusal closes the approval it rejects, but the view
      // stays for its "Action not allowed".
      store.setState({ approving: frameState.approval, refused: frameState.approval ? false : refused });
      if (frameState.approval) {
        approved = true;
        showApproveView();
      } else if (!refused) {
        leaveApproveView();
      }
    });
    // Behaviour 5.19: closing ApproveTransaction (or the modal) rejects the request the frame holds.
    let shown = false;
    deps.modal.store.subscribe(() => {
      const modal = deps.modal.store.getState();
      const here = modal.open && modal.history.includes('ApproveTransaction');
      const { approving, refused } = store.getState();
      if (here) shown = approving;
      else if (refused) store.setState({ refused: false });
      if (approving && shown && !here) {
        shown = false;
        void created.request('RPC_ABORT').catch(() => undefined);
      }
    });
    const theme = deps.theme;
    if (theme) {
      const sync = () => {
        const { themeMode, themeVariables } = theme.getState();
        void created.request('SYNC_THEME', { themeMode, themeVariables: { ...themeVariables } }).catch(() => undefined);
      };
      sync();
      theme.subscribe(sync);
    }
    const locale = deps.locale;
    if (locale) {
      let sent: string | undefined;
      const sync = () => {
        const current = locale.getState().locale;
        if (current === sent) return;
        sent = current;
        void created.request('SYNC_DAPP_DATA', { projectId: deps.projectId, sdkVersion: deps.version, locale: current }).catch(() => undefined);
      };
      sync();
      locale.subscribe(sync);
    }
    return (client = created);
  };

  async function run(work: () => Promise<void>) {
    store.setState({ busy: true, error: undefined });
    try {
      await work();
    } catch (error) {
      store.setState({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      store.setState({ busy: false });
    }
  }

  async function connectUser(user: EmbeddedUser, silent: boolean) {
    const evm = user.accounts.find((account) => account.namespace === 'eip155');
    store.setState({ user });
    if (!evm) throw new Error('An error occurred');
    const hooks = {
      refused: () => {
        store.setState({ refused: true });
        showApproveView();
      },
      settled: (ok: boolean) => {
        if (ok && approved) void deps.connection.refreshBalance();
        approved = false;
      },
    };
    provider = createEmbeddedProvider(frame(), evm.address, deps.network.caipNetworkId, hooks);
    // Issue 28: the same login signs on the host's Solana networks with the user's Solana account.
    const solanaAccount = user.accounts.find((account) => account.namespace === 'solana');
    const solanaChains = (deps.solanaNetworks?.() ?? []).map((network) => network.caipNetworkId);
    const solana =
      solanaAccount && solanaChains.length > 0
        ? await createEmbeddedSolanaWallet(frame(), solanaAccount.address, solanaChains, hooks)
        : undefined;
    const connector: Eip155Connector = {
      id: EMBEDDED_CONNECTOR_ID,
      type: 'AUTH',
      name: user.email,
      rdns: '',
      imageUrl: '',
      provider,
      ...(solana && { solana }),
      // Disconnecting signs out of the frame: its session ends, the next login needs a code.
      disconnect: async () => {
        store.setState({ user: undefined, email: undefined });
        await frame().request('SIGN_OUT');
      },
    };
    await deps.connection.connectWith(connector, { silent });
  }

  async function sendCode(email: string) {
    const answer = await frame().request<{ action: string }>('CONNECT_EMAIL', { email });
    store.setState({ email, resendAt: now() + RESEND_COOLDOWN_MS });
    if (answer.action === 'VERIFY_OTP') deps.modal.push('EmailVerifyOtp');
    // A known user on a new device: latch mailed an approval link first.
    else if (answer.action === 'VERIFY_DEVICE') deps.modal.push('EmailVerifyDevice');
  }

  async function sendUpdateCodes(newEmail: string) {
    const current = store.getState().user?.email;
    if (current && current.trim().toLowerCase() === newEmail.trim().toLowerCase()) throw new Error(UPDATE_EMAIL_SAME);
    try {
      await frame().request('UPDATE_EMAIL', { email: newEmail });
    } catch (error) {
      if (error instanceof FrameError && error.reason === 'EMAIL_TAKEN') throw new Error(UPDATE_EMAIL_TAKEN);
      throw error;
    }
    store.setState({ newEmail, resendAt: now() + RESEND_COOLDOWN_MS });
  }

  function backTo(view: (typeof UPDATE_VIEWS)[number]) {
    if (currentView(deps.modal.store.getState()) === view) return;
    keepErrorOnBack = true;
    deps.modal.back();
  }

  return {
    store,
    updateEmail: (newEmail) =>
      run(async () => {
        await sendUpdateCodes(newEmail.trim());
        deps.modal.push('UpdateEmailPrimaryOtp');
      }),
    resendUpdate: () =>
      run(async () => {
        const { newEmail } = store.getState();
        if (!newEmail) return;
        await sendUpdateCodes(newEmail);
        backTo('UpdateEmailPrimaryOtp');
      }),
    submitUpdatePrimaryOtp: (otp) =>
      run(async () => {
        // The frame keeps the first code; latch checks both together with the second.
        await frame().request('UPDATE_EMAIL_PRIMARY_OTP', { otp });
        deps.modal.push('UpdateEmailSecondaryOtp');
      }),
    submitUpdateSecondaryOtp: (otp) =>
      run(async () => {
        let user: EmbeddedUser;
        try {
          user = await frame().request<EmbeddedUser>('UPDATE_EMAIL_SECONDARY_OTP', { otp });
        } catch (error) {
          // Only a mistyped second code is typed again here: the frame dropped the first code
          // for anything else (a wrong first code, expired codes), so it is asked for again.
          const retype = error instanceof FrameError && error.reason === 'OTP_INVALID' && error.field === 'secondaryOtp';
          if (!retype) backTo('UpdateEmailPrimaryOtp');
          throw error;
        }
        store.setState({ user, email: user.email, newEmail: undefined });
        // The Account view shows the embedded user's e-mail as its connector's name.
        deps.connection.connection.setState(({ connectors }) => ({
          connectors: connectors.map((connector) =>
            connector.id === EMBEDDED_CONNECTOR_ID ? { ...connector, name: user.email } : connector,
          ),
        }));
        deps.modal.reset('Account');
      }),
    submitEmail: (email) => run(() => sendCode(email)),
    resend: () =>
      run(async () => {
        const { email } = store.getState();
        if (email) await sendCode(email);
      }),
    continueDevice: () =>
      run(async () => {
        const answer = await frame().request<{ action: string }>('CONNECT_DEVICE');
        if (answer.action !== 'VERIFY_OTP') throw new Error(DEVICE_NOT_APPROVED);
        store.setState({ resendAt: now() + RESEND_COOLDOWN_MS });
        deps.modal.push('EmailVerifyOtp');
      }),
    submitOtp: (otp) =>
      run(async () => {
        const user = await frame().request<EmbeddedUser>('CONNECT_OTP', { otp });
        await connectUser(user, false);
      }),
    async restore() {
      try {
        const { isConnected } = await frame().request<{ isConnected: boolean }>('IS_CONNECTED');
        if (!isConnected) throw new Error('signed out');
        await connectUser(await frame().request<EmbeddedUser>('GET_USER'), true);
      } catch {
        deps.connection.abandonRestore();
      }
    },
    async socials() {
      const query = new URLSearchParams({ projectId: deps.projectId, origin: deps.origin() });
      try {
        const response = await fetch(`${deps.serverUrl()}/v1/embedded/frame-config?${query}`);
        if (!response.ok) return [];
        const { socials } = (await response.json()) as { socials?: unknown };
        return Array.isArray(socials) ? socials.filter((id): id is string => typeof id === 'string') : [];
      } catch {
        return []; // no social buttons; the e-mail field still works
      }
    },
    connectSocial: (provider, popup) =>
      run(async () => {
        if (!popup) throw new Error('An error occurred');
        try {
          const { uri } = await frame().request<{ uri: string }>('GET_SOCIAL_REDIRECT_URI', { provider });
          popup.location.href = uri;
          const user = await frame().request<EmbeddedUser>('CONNECT_SOCIAL', { provider });
          deps.track({ type: 'SOCIAL_LOGIN_SUCCESS', data: { provider } });
          await connectUser(user, false);
        } catch (error) {
          popup.close();
          throw error;
        }
      }),
    placeFrame: (rect) => client?.place(rect),
    signOut: async () => {
      provider?.signedOut();
      deps.connection.disconnect();
    },
  };
}
