// The wallet's keys (latch-vault through @latch/wasm-vault; ARCHITECTURE.md "Embedded-wallet
// keys"). A 2-of-3 split of one seed: the device share stays in this origin's storage, the auth
// share on latch (released to a session only), the recovery share sealed for the user.
import { init, splitSeed, Wallet } from '@latch/wasm-vault';
import { ApiError, call } from './api';
import { readItem, writeItem } from './storage';

interface StoredWallet {
  authShare: string;
  envelopes: unknown[];
  accounts: Record<string, string>;
}

const deviceKey = (projectId: string, userId: string) => `latch-vault:${projectId}:${userId}:device`;
// Until the user seals it (a password or passkey envelope, not built yet), the recovery share
// waits here, on the device: the server alone still holds one share only.
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

/**
 * Makes the user's wallet on the first login (a fresh seed, split; the auth share and the
 * addresses to latch), or checks on a later one that this device's share and the auth share
 * rebuild the stored addresses. Resolves to the EVM address, or null on a device without its
 * share (recovery, not built yet: the accounts still come from latch).
 */
export async function ensureWallet(projectId: string, token: string, userId: string): Promise<string | null> {
  await init();
  const stored = await storedWallet(projectId, token);
  if (stored) {
    const device = readItem(deviceKey(projectId, userId));
    if (!device) return null;
    const wallet = Wallet.fromShares(device, stored.authShare);
    try {
      if (wallet.evmAddress !== stored.accounts.eip155) throw new Error('This device holds another wallet');
      return wallet.evmAddress;
    } finally {
      wallet.free();
    }
  }
  const seed = random(32);
  const coefficients = random(32);
  const [device, auth, recovery] = splitSeed(seed, coefficients);
  seed.fill(0);
  coefficients.fill(0);
  if (!device || !auth || !recovery) throw new Error('An error occurred');
  const wallet = Wallet.fromShares(device, auth);
  try {
    writeItem(deviceKey(projectId, userId), device);
    writeItem(recoveryKey(projectId, userId), recovery);
    await call(projectId, 'PUT', 'wallet', {
      token,
      body: { authShare: auth, envelopes: [], accounts: { eip155: wallet.evmAddress, solana: wallet.solanaAddress } },
    });
    return wallet.evmAddress;
  } finally {
    wallet.free();
  }
}

/**
 * Runs `use` with the wallet rebuilt from this device's share and the auth share latch releases
 * to the session, then wipes it: the key exists only for one signature.
 */
export async function withWallet<T>(projectId: string, token: string, userId: string, use: (wallet: Wallet) => T): Promise<T> {
  await init();
  const stored = await storedWallet(projectId, token);
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
