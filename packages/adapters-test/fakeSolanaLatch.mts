import { createPrivateKey, sign } from 'node:crypto';
import type { Latch, Network, StandardWallet, StandardWalletAccount } from '@latch/react';
import { Keypair, Transaction, VersionedTransaction } from '@solana/web3.js';
import { store } from './store.mjs';

export const SOLANA_CHAIN = 'solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh';
const solanaNetwork: Network = {
  id: '62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh',
  caipNetworkId: SOLANA_CHAIN,
  chainNamespace: 'solana',
  name: 'Solana devnet',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } },
};

// RFC 8410 PKCS#8 prefix of a raw 32-byte ed25519 seed.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * A Wallet Standard wallet signing for real with `keypairs` (ed25519 from node:crypto, transactions
 * with web3.js), recording every feature call in `calls`. `signAndSendTransaction` does not reach a
 * chain: it answers the transaction's first signature, as a wallet that sent it would.
 */
export function fakeSolanaWallet(keypairs: Keypair[], { features }: { features?: string[] } = {}) {
  const calls: string[] = [];
  const accounts: StandardWalletAccount[] = keypairs.map((keypair) => ({
    address: keypair.publicKey.toBase58(),
    publicKey: keypair.publicKey.toBytes(),
    chains: [SOLANA_CHAIN],
    features: ['solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction'],
  }));
  const keypairOf = (account: StandardWalletAccount) => {
    const keypair = keypairs.find(({ publicKey }) => publicKey.toBase58() === account.address);
    if (!keypair || !accounts.includes(account)) throw new Error('unknown account');
    return keypair;
  };
  const signBytes = (account: StandardWalletAccount, transaction: Uint8Array) => {
    const keypair = keypairOf(account);
    try {
      const versioned = VersionedTransaction.deserialize(transaction);
      versioned.sign([keypair]);
      return versioned;
    } catch {
      const legacy = Transaction.from(transaction);
      legacy.partialSign(keypair);
      return legacy;
    }
  };
  const all = {
    'standard:connect': { version: '1.0.0', connect: async () => (calls.push('standard:connect'), { accounts }) },
    'standard:disconnect': { version: '1.0.0', disconnect: async () => void calls.push('standard:disconnect') },
    'solana:signMessage': {
      version: '1.0.0',
      async signMessage(...inputs: { account: StandardWalletAccount; message: Uint8Array }[]) {
        calls.push('solana:signMessage');
        return inputs.map(({ account, message }) => {
          const seed = Buffer.from(keypairOf(account).secretKey.slice(0, 32));
          const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
          return { signedMessage: message, signature: new Uint8Array(sign(null, message, key)) };
        });
      },
    },
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      async signTransaction(...inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain?: string }[]) {
        calls.push(`solana:signTransaction ${inputs.map(({ chain }) => chain).join(',')}`);
        return inputs.map(({ account, transaction }) => {
          const signed = signBytes(account, transaction);
          return {
            signedTransaction: new Uint8Array(
              signed instanceof Transaction ? signed.serialize({ requireAllSignatures: false }) : signed.serialize(),
            ),
          };
        });
      },
    },
    'solana:signAndSendTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      async signAndSendTransaction(...inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain: string }[]) {
        calls.push(`solana:signAndSendTransaction ${inputs.map(({ chain }) => chain).join(',')}`);
        return inputs.map(({ account, transaction }) => {
          const signed = signBytes(account, transaction);
          return { signature: new Uint8Array(signed instanceof Transaction ? signed.signature! : signed.signatures[0]!) };
        });
      },
    },
  } as Record<string, unknown>;
  const wallet: StandardWallet = {
    version: '1.0.0',
    name: 'Fake Solana Wallet',
    icon: 'data:image/svg+xml;base64,',
    chains: [SOLANA_CHAIN],
    features: Object.fromEntries(Object.entries(all).filter(([name]) => !features || features.includes(name))),
    accounts,
  };
  return { wallet, calls, accounts };
}

/**
 * The parts of a Latch instance @latch/solana reads, driven by the test as the modal and the
 * wallet would drive the real one; `calls` records what the adapter asked Latch to do.
 */
export function fakeSolanaLatch(wallet: StandardWallet) {
  const calls: string[] = [];
  const connection = store<{ status: string; connectors: unknown[]; activeConnectorId?: string }>({
    status: 'disconnected',
    connectors: [
      { id: 'evm', type: 'ANNOUNCED', namespace: 'eip155', name: 'EVM', imageUrl: '', rdns: 'evm.wallet', provider: {} },
      { id: `wallet-standard:${wallet.name}`, type: 'ANNOUNCED', namespace: 'solana', name: wallet.name, imageUrl: '', rdns: '', wallet },
    ],
  });
  const account = store<{ address?: string; caipNetworkId?: string }>({});
  const modal = {
    store: store({ open: false, loading: false }),
    open(options?: unknown) {
      calls.push(`open ${JSON.stringify(options)}`);
      modal.store.setState({ open: true });
    },
    close() {
      modal.store.setState({ open: false });
    },
  };
  const latch = {
    networks: [solanaNetwork],
    connection,
    account,
    modal,
    server: { projectId: 'demo', getServerUrl: () => 'http://127.0.0.1:8787' },
    disconnect() {
      calls.push('disconnect');
      connection.setState({ status: 'disconnected', activeConnectorId: undefined });
      account.setState({ address: undefined, caipNetworkId: undefined });
    },
  };
  /** The visitor picks the wallet in the modal (or a reload restores it) with `address`. */
  const connectWallet = (address = wallet.accounts[0]!.address) => {
    // Latch's order: the account first, then the status.
    account.setState({ address, caipNetworkId: SOLANA_CHAIN });
    connection.setState({ status: 'connected', activeConnectorId: `wallet-standard:${wallet.name}` });
    modal.store.setState({ open: false });
  };
  const connectEvm = () => {
    connection.setState({ status: 'connected', activeConnectorId: 'evm' });
    account.setState({ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', caipNetworkId: 'eip155:31337' });
  };
  return { latch: latch as unknown as Latch, calls, connection, account, modal, connectWallet, connectEvm };
}
