import type { Latch } from '@latch/react';
import type {
  MessageSignerWalletAdapter,
  SignerWalletAdapter,
  WalletAdapter,
  WalletName,
} from '@solana/wallet-adapter-base';
import type { Connection, PublicKey, Transaction, VersionedTransaction } from '@solana/web3.js';
import type { Wallet } from '@wallet-standard/base';
import { describe, expectTypeOf, it } from 'vitest';
import {
  latchSolanaAdapter,
  latchSolanaSession,
  watchLatchSolanaSession,
  type LatchSolanaSession,
} from './index.js';
import { latchStandardWallet, registerLatchStandardWallet } from './standard.js';

declare const latch: Latch;
declare const connection: Connection;

describe('the public API', () => {
  it('gives a wallet-adapter-base adapter that signs messages and transactions', () => {
    const adapter = latchSolanaAdapter(latch);
    expectTypeOf(adapter).toMatchTypeOf<WalletAdapter<'Latch'>>();
    expectTypeOf(adapter).toMatchTypeOf<SignerWalletAdapter<'Latch'>>();
    expectTypeOf(adapter).toMatchTypeOf<MessageSignerWalletAdapter<'Latch'>>();
    expectTypeOf(adapter.name).toEqualTypeOf<WalletName<'Latch'>>();
    expectTypeOf(adapter.publicKey).toEqualTypeOf<PublicKey | null>();
    expectTypeOf(adapter.sendTransaction).parameter(1).toEqualTypeOf<Connection>();
    expectTypeOf(adapter.sendTransaction({} as Transaction, connection)).toEqualTypeOf<Promise<string>>();
    expectTypeOf(adapter.signTransaction({} as VersionedTransaction)).toEqualTypeOf<Promise<VersionedTransaction>>();
    expectTypeOf(adapter.signAllTransactions([{} as Transaction])).toEqualTypeOf<Promise<Transaction[]>>();
    expectTypeOf(adapter.signMessage).toEqualTypeOf<(message: Uint8Array) => Promise<Uint8Array>>();
    // @ts-expect-error: the adapter needs the Latch instance
    latchSolanaAdapter();
  });

  it('gives a Wallet Standard wallet', () => {
    expectTypeOf(latchStandardWallet(latch)).toEqualTypeOf<Wallet>();
    expectTypeOf(registerLatchStandardWallet(latch)).toEqualTypeOf<Wallet>();
  });

  it('exposes the Latch Solana session', () => {
    expectTypeOf(latchSolanaSession(latch)).toEqualTypeOf<LatchSolanaSession | undefined>();
    expectTypeOf(watchLatchSolanaSession).parameter(1).parameter(0).toEqualTypeOf<LatchSolanaSession | undefined>();
    expectTypeOf(watchLatchSolanaSession(latch, () => undefined)).toEqualTypeOf<() => void>();
  });
});
