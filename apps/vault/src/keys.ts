// The wallet's keys (latch-vault through @latch/wasm-vault; ARCHITECTURE.md "Embedded-wallet
// keys"). A 2-of-3 split of one seed: the device share stays in this origin's storage, the auth
// share on latch (released to a session only), the recovery share sealed under the user's
// recovery password (Argon2id, AES-256-GCM) and kept by latch as an envelope it cannot open.
// The wasm for shares and accounts (login), for signing (keys) and for envelopes (recovery) are
// loaded here, when first needed: a login never loads the signing module.
import { ApiError, call } from './api';
import { format, panelMessages } from './locales';
import { askRecoveryPassword } from './recovery';
import { readItem, writeItem } from './storage';
import { loadKeys, loadLogin, loadRecovery, type Wallet } from './wasm';

interface StoredWallet {
  authShare: string;
  envelopes: { kind?: unknown }[];
  accounts: Record<string, string>;
}

/** Wrong passwords allowed on one recovery panel (latch cannot count them: it never sees one). */
export const MAX_PASSWORD_ATTEMPTS = 5;
export const TOO_MANY_ATTEMPTS = 'Too many wrong recovery passwords: log in again to retry';
export const NO_RECOVERY = 'This wallet has no recovery password yet: log in on your first device to set one';

/** What the frame shows and is told while a recovery panel is up. */
export interface KeyContext {
  projectId: string;
  token: string;
  userId: string;
  /** The host's locale (SYNC_DAPP_DATA), for the password panel's words. */
  locale: string | null;
  /** Shows (true) or hides (false) the frame over the host's view (APPROVAL_OPEN / _CLOSED). */
  visible: (open: boolean) => void;
}

const deviceKey = (projectId: string, userId: string) => `latch-vault:${projectId}:${userId}:device`;
// The recovery share waits here only between the wallet's creation and its sealing (the user
// closed the panel, the page went away): the next login on this device asks for the password
// again, and the plain share is removed as soon as latch holds its envelope.
const recoveryKey = (projectId: string, userId: string) => `latch-vault:${projectId}:${userId}:recovery`;

function random(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

async function storedWallet(projectId: string, token: string): Promise<StoredWallet | null> {
  try {
    return await call<StoredWallet>(projectId, 'GET', 'wallet', { token });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NO_WALLET') return null;
    throw error;
  }
}

/** The panel shown over the host's view for as long as it is open. */
async function withPanel(context: KeyContext, open: () => Promise<void>): Promise<void> {
  context.visible(true);
  try {
    await open();
  } finally {
    context.visible(false);
  }
}

/** Asks for a new recovery password, seals the pending recovery share with it and stores the envelope. */
async function sealRecovery(context: KeyContext, recovery: string): Promise<void> {
  // Fetched while the user types the password.
  const envelopes = loadRecovery();
  envelopes.catch(() => undefined);
  await withPanel(context, () =>
    askRecoveryPassword('set', async (password) => {
      const { sealWithPassword } = await envelopes;
      const envelope = sealWithPassword(recovery, context.userId, password, random(16), random(12));
      await call(context.projectId, 'POST', 'wallet/envelope', {
        token: context.token,
        body: { envelope: JSON.parse(envelope) as unknown },
      });
      return null;
    }, context.locale),
  );
  writeItem(recoveryKey(context.projectId, context.userId), null);
}

/** The accounts two shares give (the login module's `walletAccounts`). */
interface Accounts {
  evm: string;
  solana: string;
}

function checkAccounts(accounts: Accounts, stored: StoredWallet): void {
  const solana = stored.accounts.solana;
  if (accounts.evm !== stored.accounts.eip155 || (solana && accounts.solana !== solana)) {
    throw new Error('This device holds another wallet');
  }
}

/**
 * A device without its share (a new browser, cleared storage): the recovery password opens the
 * envelope, auth + recovery rebuild the wallet, which must be the accounts latch lists, and the
 * device share is computed and kept. Wrong passwords: MAX_PASSWORD_ATTEMPTS per panel.
 */
async function recover(context: KeyContext, stored: StoredWallet): Promise<string> {
  const envelope = stored.envelopes.find((item) => item.kind === 'password');
  if (!envelope) throw new Error(NO_RECOVERY);
  const text = JSON.stringify(envelope);
  // Fetched while the user types the password.
  const envelopes = loadRecovery();
  envelopes.catch(() => undefined);
  const { deriveShare, walletAccounts } = await loadLogin();
  let wrong = 0;
  let address = '';
  await withPanel(context, () =>
    askRecoveryPassword('enter', async (password) => {
      const { openWithPassword } = await envelopes;
      let recovery: string;
      try {
        recovery = openWithPassword(text, context.userId, password);
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'DECRYPTION_FAILED') throw error;
        wrong += 1;
        if (wrong >= MAX_PASSWORD_ATTEMPTS) throw new Error(TOO_MANY_ATTEMPTS);
        const left = MAX_PASSWORD_ATTEMPTS - wrong;
        const t = panelMessages(context.locale);
        return left === 1 ? t.recoveryWrongLast : format(t.recoveryWrong, { left: String(left) });
      }
      const accounts = walletAccounts(stored.authShare, recovery) as Accounts;
      checkAccounts(accounts, stored);
      address = accounts.evm;
      writeItem(deviceKey(context.projectId, context.userId), deriveShare(stored.authShare, recovery, 1));
      return null;
    }, context.locale),
  );
  return address;
}

/**
 * Makes the user's wallet on the first login (a fresh seed, split; the auth share and the
 * addresses to latch; the recovery share sealed under the password the user sets in the frame),
 * checks on a later one that this device's share and the auth share rebuild the stored addresses,
 * or recovers on a new device with the recovery password. Resolves to the EVM address.
 */
export async function ensureWallet(context: KeyContext): Promise<string> {
  const { projectId, token, userId } = context;
  const [{ splitSeed, walletAccounts }, stored] = await Promise.all([loadLogin(), storedWallet(projectId, token)]);
  if (stored) {
    const device = readItem(deviceKey(projectId, userId));
    if (!device) return recover(context, stored);
    const accounts = walletAccounts(device, stored.authShare) as Accounts;
    checkAccounts(accounts, stored);
    const address = accounts.evm;
    // Sealing was interrupted on this device: it is still required.
    const pending = readItem(recoveryKey(projectId, userId));
    if (pending) await sealRecovery(context, pending);
    return address;
  }
  const seed = random(32);
  const coefficients = random(32);
  const [device, auth, recovery] = splitSeed(seed, coefficients);
  seed.fill(0);
  coefficients.fill(0);
  if (!device || !auth || !recovery) throw new Error('An error occurred');
  const accounts = walletAccounts(device, auth) as Accounts;
  writeItem(deviceKey(projectId, userId), device);
  writeItem(recoveryKey(projectId, userId), recovery);
  await call(projectId, 'PUT', 'wallet', {
    token,
    body: { authShare: auth, envelopes: [], accounts: { eip155: accounts.evm, solana: accounts.solana } },
  });
  await sealRecovery(context, recovery);
  return accounts.evm;
}

/**
 * Runs `use` with the wallet rebuilt from this device's share and the auth share latch releases
 * to the session, then wipes it: the key exists only for one signature.
 */
export async function withWallet<T>(projectId: string, token: string, userId: string, use: (wallet: Wallet) => T): Promise<T> {
  const [{ Wallet }, stored] = await Promise.all([loadKeys(), storedWallet(projectId, token)]);
  const device = readItem(deviceKey(projectId, userId));
  if (!stored || !device) throw new Error('This device cannot sign for this wallet yet');
  const wallet = Wallet.fromShares(device, stored.authShare);
  try {
    if (wallet.evmAddress !== stored.accounts.eip155) throw new Error('This device holds another wallet');
    return use(wallet);
  } finally {
    wallet.free();
  }
}
