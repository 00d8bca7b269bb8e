import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { vi } from 'vitest';
import type { Network, StandardWallet, StandardWalletAccount } from '../core/types.js';
import { toBase58 } from './base58.js';

/** The local Solana devnet as `scripts/solana-devnet` names it (its genesis hash is fixed). */
export const solanaDevnet: Network = {
  id: '62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh',
  caipNetworkId: 'solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh',
  chainNamespace: 'solana',
  name: 'Solana Devnet',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } },
};

// RFC 8410 PKCS#8 prefix of a raw 32-byte ed25519 seed.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A real ed25519 key from a fixed seed, as a Solana wallet holds it. */
export function testSolanaKey(seedByte = 7) {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, Buffer.alloc(32, seedByte)]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
  return {
    publicKey,
    address: toBase58(publicKey),
    sign: (message: Uint8Array) => new Uint8Array(sign(null, message, privateKey)),
  };
}

type ChangeListener = (properties: { accounts?: readonly StandardWalletAccount[] }) => void;

export interface TestStandardWallet extends StandardWallet {
  /** Changes the authorised accounts and tells the app (`standard:events` `change`). */
  setAccounts(keys: ReturnType<typeof testSolanaKey>[]): void;
  connect: ReturnType<typeof vi.fn>;
  disconnect: ReturnType<typeof vi.fn>;
  signMessage: ReturnType<typeof vi.fn>;
  listenerCount(): number;
}

/**
 * A Wallet Standard wallet test double (no browser extension runs in jsdom): it signs for real
 * with an ed25519 key, authorises the app on its first non-silent connect, and answers a silent
 * connect with the accounts already authorised. `reject` makes connect or sign throw a 4001 as
 * wallets do for a declined request. The real path is covered by the Playwright tests.
 */
export function createTestStandardWallet({
  key = testSolanaKey(),
  name = 'Test Solana Wallet',
  authorised = false,
  reject = {} as { connect?: boolean; sign?: boolean },
  features = {} as Record<string, unknown>,
} = {}): TestStandardWallet {
  const accountOf = (k: ReturnType<typeof testSolanaKey>): StandardWalletAccount =>
    Object.freeze({
      address: k.address,
      publicKey: k.publicKey,
      chains: ['solana:localnet'],
      features: ['solana:signMessage'],
    });
  let accounts: StandardWalletAccount[] = authorised ? [accountOf(key)] : [];
  let keys = [key];
  const listeners = new Set<ChangeListener>();
  const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });

  const connect = vi.fn(async (input?: { silent?: boolean }) => {
    if (!input?.silent && accounts.length === 0) {
      if (reject.connect) throw rejection();
      accounts = keys.map(accountOf);
    }
    return { accounts };
  });
  const disconnect = vi.fn(async () => {
    accounts = [];
  });
  const signMessage = vi.fn(async (...inputs: { account: StandardWalletAccount; message: Uint8Array }[]) => {
    if (reject.sign) throw rejection();
    return inputs.map(({ account, message }) => {
      const signer = keys.find((k) => k.address === account.address);
      if (!signer || !accounts.includes(account)) throw new Error('unknown account');
      return { signedMessage: message, signature: signer.sign(message) };
    });
  });

  return {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
    chains: ['solana:mainnet', 'solana:devnet', 'solana:localnet'],
    get accounts() {
      return accounts;
    },
    features: {
      'standard:connect': { version: '1.0.0', connect },
      'standard:disconnect': { version: '1.0.0', disconnect },
      'standard:events': {
        version: '1.0.0',
        on(event: string, listener: ChangeListener) {
          if (event !== 'change') return () => undefined;
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      'solana:signMessage': { version: '1.0.0', signMessage },
      ...features,
    },
    setAccounts(next) {
      keys = next;
      accounts = next.map(accountOf);
      for (const listener of listeners) listener({ accounts });
    },
    connect,
    disconnect,
    signMessage,
    listenerCount: () => listeners.size,
  };
}

const uninstallers: (() => void)[] = [];

/** The app side's `{ register }`, as the standard's window events carry it. */
interface RegisterApi {
  register(...wallets: StandardWallet[]): () => void;
}

/**
 * Installs `wallet` as `@wallet-standard/wallet`'s `registerWallet` does (its window events: at
 * once with an app already listening, and with any app that announces itself later), and also
 * keeps the unregister function the app returns, which `registerWallet` drops: each test starts
 * with no wallet although the app's registry lives as long as the test file.
 */
export function registerStandardWallet(wallet: StandardWallet): void {
  const callback = ({ register }: RegisterApi) => {
    uninstallers.push(register(wallet));
  };
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
  const onAppReady = (event: Event) => callback((event as CustomEvent<RegisterApi>).detail);
  window.addEventListener('wallet-standard:app-ready', onAppReady);
  uninstallers.push(() => window.removeEventListener('wallet-standard:app-ready', onAppReady));
}

export function unregisterStandardWallets(): void {
  for (const uninstall of uninstallers.splice(0)) uninstall();
}
