import { createPublicKey, verify } from 'node:crypto';
import {
  WalletConnectionError,
  WalletNotConnectedError,
  WalletReadyState,
  WalletSignMessageError,
  type WalletError,
} from '@solana/wallet-adapter-base';
import { Keypair, PublicKey, SystemProgram, Transaction, type Connection } from '@solana/web3.js';
import { isWalletAdapterCompatibleStandardWallet } from '@solana/wallet-adapter-base';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LATCH_FORWARDER_FEATURE } from '@latch/react';
import { fakeSolanaLatch, fakeSolanaWallet, SOLANA_CHAIN } from '../../adapters-test/fakeSolanaLatch.mjs';
import { latchSolanaAdapter, LatchConnectCancelledError } from './index.js';
import { latchStandardWallet } from './standard.js';

// Fixed keys, so failures name the same accounts every run.
const A = Keypair.fromSeed(new Uint8Array(32).fill(1));
const B = Keypair.fromSeed(new Uint8Array(32).fill(2));
const BLOCKHASH = new PublicKey(new Uint8Array(32).fill(7)).toBase58();

// RFC 8410 SPKI prefix of a raw 32-byte ed25519 public key.
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');
const verifies = (message: Uint8Array, signature: Uint8Array, key: PublicKey) =>
  verify(null, message, createPublicKey({ key: Buffer.concat([SPKI_ED25519, key.toBuffer()]), format: 'der', type: 'spki' }), signature);

/** Records the adapter's events as text. */
function record(adapter: ReturnType<typeof latchSolanaAdapter>) {
  const events: string[] = [];
  adapter.on('connect', (key) => events.push(`connect ${key.toBase58()}`));
  adapter.on('disconnect', () => events.push('disconnect'));
  adapter.on('error', (error: WalletError) => events.push(`error ${error.name}`));
  return events;
}

/** A web3.js Connection as far as sendTransaction uses it: the blockhash and a raw send. */
function fakeConnection(sent: Uint8Array[] = []) {
  return {
    commitment: 'confirmed',
    getLatestBlockhash: async () => ({ blockhash: BLOCKHASH, lastValidBlockHeight: 10 }),
    sendRawTransaction: async (bytes: Uint8Array) => {
      sent.push(bytes);
      return bs58.encode(Transaction.from(bytes).signature!);
    },
  } as unknown as Connection;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

const transfer = () =>
  new Transaction().add(SystemProgram.transfer({ fromPubkey: A.publicKey, toPubkey: B.publicKey, lamports: 1_000 }));

describe('latchSolanaAdapter: the connection both ways', () => {
  it('is Unsupported where there is no page (server rendering)', () => {
    vi.stubGlobal('window', undefined);
    const { wallet } = fakeSolanaWallet([A]);
    const adapter = latchSolanaAdapter(fakeSolanaLatch(wallet).latch);
    expect(adapter.readyState).toBe(WalletReadyState.Unsupported);
    expect(adapter.url).toBe('');
    vi.stubGlobal('window', globalThis);
  });
});

// The rest runs as in a page: the adapter only checks that `window` and `document` exist.
beforeAll(() => {
  vi.stubGlobal('window', globalThis);
  vi.stubGlobal('document', {});
});
afterAll(() => vi.unstubAllGlobals());

describe('latchSolanaAdapter: the connection both ways, in a page', () => {
  it('connect() opens the modal on Solana wallets and resolves once one connects', async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const { latch, calls, connectWallet } = fakeSolanaLatch(wallet);
    const adapter = latchSolanaAdapter(latch);
    const events = record(adapter);
    expect(adapter.readyState).toBe(WalletReadyState.Loadable);
    expect(adapter.name).toBe('Latch');
    expect(adapter.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(adapter.url).toBe('http://127.0.0.1:8787');
    const connecting = adapter.connect();
    expect(adapter.connecting).toBe(true);
    await tick();
    expect(calls).toEqual(['open {"namespace":"solana"}']);
    connectWallet();
    await connecting;
    expect(adapter.connecting).toBe(false);
    expect(adapter.connected).toBe(true);
    expect(adapter.publicKey?.equals(A.publicKey)).toBe(true);
    expect(events).toEqual([`connect ${A.publicKey.toBase58()}`]);
    // Connected already: no second modal.
    await adapter.connect();
    expect(calls).toHaveLength(1);
  });

  it('reuses an existing Latch Solana connection without opening the modal', async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const { latch, calls, connectWallet } = fakeSolanaLatch(wallet);
    connectWallet();
    const adapter = latchSolanaAdapter(latch);
    expect(adapter.publicKey?.equals(A.publicKey)).toBe(true);
    await adapter.connect();
    expect(calls).toEqual([]);
  });

  it("waits for a reload's restore instead of opening the modal; autoConnect never opens it", async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const { latch, calls, connection, connectWallet } = fakeSolanaLatch(wallet);
    const adapter = latchSolanaAdapter(latch);
    const events = record(adapter);
    connection.setState({ status: 'connecting', activeConnectorId: `wallet-standard:${wallet.name}` });
    const connecting = adapter.connect();
    await tick();
    expect(calls).toEqual([]);
    connectWallet();
    await connecting;
    expect(adapter.publicKey?.equals(A.publicKey)).toBe(true);

    latch.disconnect();
    // Nothing to restore: autoConnect fails quietly for the host (an error event), no modal.
    await expect(adapter.autoConnect()).rejects.toBeInstanceOf(WalletConnectionError);
    connection.setState({ status: 'connecting', activeConnectorId: `wallet-standard:${wallet.name}` });
    const auto = adapter.autoConnect();
    connectWallet();
    await auto;
    expect(adapter.connected).toBe(true);
    expect(calls).toEqual(['disconnect']);
    expect(events).toEqual([
      `connect ${A.publicKey.toBase58()}`,
      'disconnect',
      'error WalletConnectionError',
      `connect ${A.publicKey.toBase58()}`,
    ]);
  });

  it('asks for the wallet list when an EVM wallet is connected, and is not an EVM connection', async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const { latch, calls, connectEvm, modal } = fakeSolanaLatch(wallet);
    connectEvm();
    const adapter = latchSolanaAdapter(latch);
    expect(adapter.connected).toBe(false);
    const connecting = adapter.connect();
    await tick();
    expect(calls).toEqual(['open {"view":"Connect","namespace":"solana"}']);
    modal.close();
    await expect(connecting).rejects.toBeInstanceOf(WalletConnectionError);
    // The adapter's disconnect leaves an EVM connection alone.
    await adapter.disconnect();
    expect(calls).not.toContain('disconnect');
  });

  it('closing the modal without connecting rejects with WalletConnectionError and emits error', async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const { latch, modal } = fakeSolanaLatch(wallet);
    const adapter = latchSolanaAdapter(latch);
    const events = record(adapter);
    const connecting = adapter.connect();
    await tick();
    modal.close();
    const error = await connecting.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(WalletConnectionError);
    expect((error as WalletConnectionError).error).toBeInstanceOf(LatchConnectCancelledError);
    expect(events).toEqual(['error WalletConnectionError']);
    expect(adapter.connecting).toBe(false);
  });

  it('follows Latch: account change emits connect with the new key, a Latch-side disconnect emits disconnect', async () => {
    const { wallet } = fakeSolanaWallet([A, B]);
    const { latch, account, connectWallet } = fakeSolanaLatch(wallet);
    const adapter = latchSolanaAdapter(latch);
    const events = record(adapter);
    connectWallet(A.publicKey.toBase58());
    account.setState({ address: B.publicKey.toBase58() });
    expect(adapter.publicKey?.equals(B.publicKey)).toBe(true);
    // A balance refresh (same account) is no event.
    account.setState({ address: B.publicKey.toBase58() });
    latch.disconnect();
    expect(adapter.publicKey).toBeNull();
    expect(events).toEqual([`connect ${A.publicKey.toBase58()}`, `connect ${B.publicKey.toBase58()}`, 'disconnect']);
  });

  it("disconnect() ends Latch's Solana connection", async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const { latch, calls, connectWallet } = fakeSolanaLatch(wallet);
    const adapter = latchSolanaAdapter(latch);
    const events = record(adapter);
    connectWallet();
    await adapter.disconnect();
    expect(calls).toEqual(['disconnect']);
    expect(adapter.connected).toBe(false);
    expect(events).toEqual([`connect ${A.publicKey.toBase58()}`, 'disconnect']);
  });
});

describe('latchSolanaAdapter: signing and sending through the connected wallet', () => {
  it('needs a connection', async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const adapter = latchSolanaAdapter(fakeSolanaLatch(wallet).latch);
    const events = record(adapter);
    await expect(adapter.signMessage(new Uint8Array([1]))).rejects.toBeInstanceOf(WalletNotConnectedError);
    await expect(adapter.sendTransaction(transfer(), fakeConnection())).rejects.toBeInstanceOf(WalletNotConnectedError);
    expect(events).toEqual(['error WalletNotConnectedError', 'error WalletNotConnectedError']);
  });

  it('signMessage gives an ed25519 signature by the account', async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const { latch, connectWallet } = fakeSolanaLatch(wallet);
    connectWallet();
    const message = new TextEncoder().encode('Hello from web3.js');
    const signature = await latchSolanaAdapter(latch).signMessage(message);
    expect(signature).toHaveLength(64);
    expect(verifies(message, signature, A.publicKey)).toBe(true);
    expect(verifies(new TextEncoder().encode('other'), signature, A.publicKey)).toBe(false);
  });

  it('sendTransaction fills fee payer and blockhash, and the wallet signs and sends on the Latch chain', async () => {
    const { wallet, calls } = fakeSolanaWallet([A]);
    const { latch, connectWallet } = fakeSolanaLatch(wallet);
    connectWallet();
    const transaction = transfer();
    const signature = await latchSolanaAdapter(latch).sendTransaction(transaction, fakeConnection());
    expect(calls).toEqual([`solana:signAndSendTransaction ${SOLANA_CHAIN}`]);
    expect(transaction.feePayer?.equals(A.publicKey)).toBe(true);
    expect(transaction.recentBlockhash).toBe(BLOCKHASH);
    const decoded = bs58.decode(signature);
    expect(decoded).toHaveLength(64);
    expect(verifies(transaction.serializeMessage(), decoded, A.publicKey)).toBe(true);
  });

  it('without signAndSendTransaction the wallet signs and the app connection sends', async () => {
    const { wallet, calls } = fakeSolanaWallet([A], { features: ['standard:connect', 'solana:signMessage', 'solana:signTransaction'] });
    const { latch, connectWallet } = fakeSolanaLatch(wallet);
    connectWallet();
    const sent: Uint8Array[] = [];
    const signature = await latchSolanaAdapter(latch).sendTransaction(transfer(), fakeConnection(sent));
    expect(calls).toEqual([`solana:signTransaction ${SOLANA_CHAIN}`]);
    expect(sent).toHaveLength(1);
    const onWire = Transaction.from(sent[0]!);
    expect(onWire.verifySignatures()).toBe(true);
    expect(bs58.encode(onWire.signature!)).toBe(signature);
  });

  it('signTransaction and signAllTransactions give back signed web3.js transactions', async () => {
    const { wallet } = fakeSolanaWallet([A]);
    const { latch, connectWallet } = fakeSolanaLatch(wallet);
    connectWallet();
    const adapter = latchSolanaAdapter(latch);
    const prepare = (lamports: number) => {
      const transaction = transfer();
      transaction.instructions[0] = SystemProgram.transfer({ fromPubkey: A.publicKey, toPubkey: B.publicKey, lamports });
      return Object.assign(transaction, { feePayer: A.publicKey, recentBlockhash: BLOCKHASH });
    };
    const signed = await adapter.signTransaction(prepare(1));
    expect(signed).toBeInstanceOf(Transaction);
    expect(signed.verifySignatures()).toBe(true);
    const both = await adapter.signAllTransactions([prepare(2), prepare(3)]);
    expect(both.map((transaction) => transaction.verifySignatures())).toEqual([true, true]);
    expect(both[0]!.signature).not.toEqual(both[1]!.signature);
  });

  it('a wallet without signMessage gives WalletSignMessageError, and a refusal is reported', async () => {
    const { wallet } = fakeSolanaWallet([A], { features: ['standard:connect', 'solana:signTransaction'] });
    const { latch, connectWallet } = fakeSolanaLatch(wallet);
    connectWallet();
    const adapter = latchSolanaAdapter(latch);
    const events = record(adapter);
    await expect(adapter.signMessage(new Uint8Array([1]))).rejects.toThrow(
      new WalletSignMessageError('Fake Solana Wallet cannot sign messages'),
    );
    expect(events).toEqual(['error WalletSignMessageError']);
  });
});

describe('latchStandardWallet', () => {
  it('is a Wallet Standard wallet the Solana adapters accept, marked so Latch skips it', () => {
    const { wallet } = fakeSolanaWallet([A]);
    const standard = latchStandardWallet(fakeSolanaLatch(wallet).latch);
    expect(standard.name).toBe('Latch');
    expect(standard.chains).toEqual([SOLANA_CHAIN]);
    expect(standard.accounts).toEqual([]);
    expect(LATCH_FORWARDER_FEATURE in standard.features).toBe(true);
    expect(isWalletAdapterCompatibleStandardWallet(standard)).toBe(true);
  });

  it('connects through Latch, reports changes, and forwards signing to the connected wallet', async () => {
    const { wallet, calls: walletCalls } = fakeSolanaWallet([A, B], {
      features: ['standard:connect', 'solana:signMessage', 'solana:signTransaction'],
    });
    const { latch, calls, account, connectWallet } = fakeSolanaLatch(wallet);
    const standard = latchStandardWallet(latch);
    type Connect = { connect(input?: { silent?: boolean }): Promise<{ accounts: readonly { address: string }[] }> };
    const connect = standard.features['standard:connect'] as Connect;
    const changes: string[][] = [];
    const events = standard.features['standard:events'] as {
      on(event: 'change', listener: (properties: { accounts?: readonly { address: string }[] }) => void): () => void;
    };
    const stop = events.on('change', ({ accounts }) => changes.push((accounts ?? []).map(({ address }) => address)));

    expect((await connect.connect({ silent: true })).accounts).toEqual([]);
    expect(calls).toEqual([]);
    const connecting = connect.connect();
    await tick();
    connectWallet(A.publicKey.toBase58());
    expect((await connecting).accounts.map(({ address }) => address)).toEqual([A.publicKey.toBase58()]);
    // Only the connected wallet's features are offered now.
    expect(Object.keys(standard.features)).not.toContain('solana:signAndSendTransaction');
    expect(Object.keys(standard.features)).toContain('solana:signTransaction');

    const signMessage = standard.features['solana:signMessage'] as {
      signMessage(...inputs: { account: unknown; message: Uint8Array }[]): Promise<readonly { signature: Uint8Array }[]>;
    };
    const message = new TextEncoder().encode('hi');
    const [output] = await signMessage.signMessage({ account: standard.accounts[0], message });
    expect(verifies(message, output!.signature, A.publicKey)).toBe(true);
    expect(walletCalls).toContain('solana:signMessage');
    await expect(signMessage.signMessage({ account: { address: 'someone-else' }, message })).rejects.toThrow('Unknown account');

    account.setState({ address: B.publicKey.toBase58() });
    await (standard.features['standard:disconnect'] as { disconnect(): Promise<void> }).disconnect();
    expect(calls).toEqual(['open {"namespace":"solana"}', 'disconnect']);
    stop();
    connectWallet();
    expect(changes).toEqual([[A.publicKey.toBase58()], [B.publicKey.toBase58()], []]);
    await expect(signMessage.signMessage({ account: standard.accounts[0], message })).resolves.toHaveLength(1);
  });
});
