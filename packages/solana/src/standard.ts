import { LATCH_FORWARDER_FEATURE, type Latch } from '@latch/react';
import type { IdentifierString, Wallet, WalletAccount } from '@wallet-standard/base';
import { registerWallet } from '@wallet-standard/wallet';
import {
  FORWARDED,
  LATCH_ICON,
  transactionVersions,
  walletFeature,
  type ForwardedFeature,
  type TransactionVersion,
} from './features.js';
import { connectLatchSolana, disconnectLatchSolana, latchSolanaSession, watchLatchSolanaSession } from './session.js';

type ChangeListener = (properties: { accounts?: readonly WalletAccount[]; features?: Wallet['features'] }) => void;

/**
 * A Wallet Standard wallet named "Latch" that forwards to the Solana wallet the visitor connects
 * through the Latch modal: `standard:connect` opens the modal (or, `silent`, only reports an existing
 * connection), `standard:disconnect` ends Latch's Solana connection, `standard:events` reports every
 * account change. `solana:signTransaction`, `solana:signAndSendTransaction` and `solana:signMessage`
 * are listed while no wallet is connected and, once one is, only those it has.
 * Latch's own wallet discovery skips this wallet (its `latch:forwarder` feature).
 */
export function latchStandardWallet(latch: Latch): Wallet {
  const accounts = (): readonly WalletAccount[] => {
    const session = latchSolanaSession(latch);
    return session ? [session.account as unknown as WalletAccount] : [];
  };

  const forward = (name: ForwardedFeature) => {
    const method = FORWARDED[name];
    return async (...inputs: { account: WalletAccount }[]) => {
      const session = latchSolanaSession(latch);
      if (!session) throw new Error('No Solana wallet is connected through Latch');
      const target = walletFeature<Record<string, (...args: unknown[]) => Promise<unknown>>>(session.wallet, name);
      if (!target) throw new Error(`${session.wallet.name} does not support ${name}`);
      for (const input of inputs) {
        if (input.account?.address !== session.address) throw new Error(`Unknown account ${String(input.account?.address)}`);
      }
      // The wallet knows its own account object, not a copy an app may have made.
      return target[method]!(...inputs.map((input) => ({ ...input, account: session.account })));
    };
  };

  // Built once per connected wallet so apps comparing feature objects see them stable.
  let featuresFor: object | undefined | null = null;
  let features: Wallet['features'] = {};
  const currentFeatures = (): Wallet['features'] => {
    const wallet = latchSolanaSession(latch)?.wallet;
    if (featuresFor === wallet) return features;
    featuresFor = wallet;
    const versions: readonly TransactionVersion[] = wallet ? transactionVersions(wallet) : ['legacy', 0];
    const solana: Record<string, object> = {
      'solana:signTransaction': { version: '1.0.0', supportedTransactionVersions: versions, signTransaction: forward('solana:signTransaction') },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: versions,
        signAndSendTransaction: forward('solana:signAndSendTransaction'),
      },
      'solana:signMessage': { version: '1.0.0', signMessage: forward('solana:signMessage') },
    };
    features = {
      ...standardFeatures,
      ...Object.fromEntries(
        Object.entries(solana).filter(([name]) => !wallet || walletFeature(wallet, name as ForwardedFeature)),
      ),
    };
    return features;
  };

  const standardFeatures: Wallet['features'] = {
    'standard:connect': {
      version: '1.0.0',
      async connect(input?: { silent?: boolean }) {
        if (!input?.silent) await connectLatchSolana(latch);
        return { accounts: accounts() };
      },
    },
    'standard:disconnect': {
      version: '1.0.0',
      async disconnect() {
        disconnectLatchSolana(latch);
      },
    },
    'standard:events': {
      version: '1.0.0',
      on(event: string, listener: ChangeListener) {
        if (event !== 'change') return () => undefined;
        let first = true;
        return watchLatchSolanaSession(latch, () => {
          // The first call is the state as it is now, not a change.
          if (first) return void (first = false);
          listener({ accounts: accounts(), features: currentFeatures() });
        });
      },
    },
    [LATCH_FORWARDER_FEATURE]: { version: '1.0.0' },
  };

  return {
    version: '1.0.0',
    name: 'Latch',
    icon: LATCH_ICON,
    get chains() {
      return latch.networks
        .filter((network) => network.chainNamespace === 'solana')
        .map((network) => network.caipNetworkId as IdentifierString);
    },
    get accounts() {
      return accounts();
    },
    get features() {
      return currentFeatures();
    },
  };
}

/**
 * Registers {@link latchStandardWallet} with the page's Wallet Standard apps (the standard's window
 * events, through `@wallet-standard/wallet`), so libraries that discover wallets see "Latch".
 * Browser only; returns the wallet.
 */
export function registerLatchStandardWallet(latch: Latch): Wallet {
  const wallet = latchStandardWallet(latch);
  if (typeof window !== 'undefined') registerWallet(wallet);
  return wallet;
}
