import { solanaSignatureText, type Latch } from '@latch/react';
import {
  BaseMessageSignerWalletAdapter,
  isVersionedTransaction,
  WalletConnectionError,
  WalletError,
  WalletNotConnectedError,
  WalletNotReadyError,
  WalletReadyState,
  WalletSendTransactionError,
  WalletSignMessageError,
  WalletSignTransactionError,
  type SendTransactionOptions,
  type SupportedTransactionVersions,
  type TransactionOrVersionedTransaction,
  type WalletName,
} from '@solana/wallet-adapter-base';
import { PublicKey, Transaction, VersionedTransaction, type Connection, type TransactionSignature } from '@solana/web3.js';
import {
  LATCH_ICON,
  transactionVersions,
  walletFeature,
  type SignAndSendTransactionFeature,
  type SignMessageFeature,
  type SignTransactionFeature,
} from './features.js';
import {
  connectLatchSolana,
  disconnectLatchSolana,
  latchSolanaSession,
  settledLatchSolanaSession,
  watchLatchSolanaSession,
  type LatchSolanaSession,
} from './session.js';

export const LatchWalletName = 'Latch' as WalletName<'Latch'>;

type AnyTransaction = Transaction | VersionedTransaction;

/** web3.js's own wire format: the wallet takes the transaction as bytes. */
function serialize(transaction: AnyTransaction): Uint8Array {
  return isVersionedTransaction(transaction)
    ? transaction.serialize()
    : new Uint8Array(transaction.serialize({ requireAllSignatures: false, verifySignatures: false }));
}

/** The signed bytes back as the kind of transaction the app gave. */
function deserialize<T extends AnyTransaction>(bytes: Uint8Array, like: T): T {
  return (isVersionedTransaction(like) ? VersionedTransaction.deserialize(bytes) : Transaction.from(bytes)) as T;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A `@solana/wallet-adapter-base` adapter over the Solana wallet the visitor connects through the
 * Latch modal. It follows the Latch connection both ways: `connect`, `disconnect` (with
 * `publicKey` updated first) are emitted whenever Latch's Solana connection starts, changes
 * account or ends, whoever caused it.
 */
export class LatchSolanaWalletAdapter extends BaseMessageSignerWalletAdapter<'Latch'> {
  readonly name = LatchWalletName;
  readonly url: string;
  readonly icon = LATCH_ICON;
  private _publicKey: PublicKey | null = null;
  private _connecting = false;
  private session: LatchSolanaSession | undefined;

  constructor(private readonly latch: Latch) {
    super();
    // Where the Latch server is: the "wallet" the visitor reaches (read lazily: SSR-safe).
    this.url = typeof window === 'undefined' ? '' : latch.server.getServerUrl();
    watchLatchSolanaSession(latch, (session) => this.follow(session));
  }

  /** Latch opens in any browser; there is nothing to install. */
  get readyState(): WalletReadyState {
    return typeof window === 'undefined' || typeof document === 'undefined'
      ? WalletReadyState.Unsupported
      : WalletReadyState.Loadable;
  }

  get publicKey(): PublicKey | null {
    return this._publicKey;
  }

  get connecting(): boolean {
    return this._connecting;
  }

  /** What the connected wallet says it signs (`null`: legacy only); both before one connects. */
  get supportedTransactionVersions(): SupportedTransactionVersions {
    const versions = this.session ? transactionVersions(this.session.wallet) : (['legacy', 0] as const);
    return versions.includes(0) ? new Set(versions) : null;
  }

  private follow(session: LatchSolanaSession | undefined) {
    const previous = this.session;
    this.session = session;
    if (session && session.address !== previous?.address) {
      this._publicKey = new PublicKey(session.address);
      this.emit('connect', this._publicKey);
    } else if (!session && previous) {
      this._publicKey = null;
      this.emit('disconnect');
    }
  }

  /** Emits `error` then throws it, as wallet adapters report failures. */
  private fail(error: unknown, Wrap: new (message?: string, error?: unknown) => WalletError): never {
    const reported = error instanceof WalletError ? error : new Wrap(messageOf(error), error);
    this.emit('error', reported);
    throw reported;
  }

  private connected_(): LatchSolanaSession {
    const session = latchSolanaSession(this.latch);
    if (!session) this.fail(new WalletNotConnectedError(), WalletNotConnectedError);
    return session;
  }

  /** Reuses Latch's Solana connection, or opens the Latch modal on its Solana wallets. */
  async connect(): Promise<void> {
    if (this.connected || this._connecting) return;
    if (this.readyState !== WalletReadyState.Loadable) this.fail(new WalletNotReadyError(), WalletNotReadyError);
    this._connecting = true;
    try {
      this.follow(await connectLatchSolana(this.latch));
    } catch (error) {
      this.fail(error, WalletConnectionError);
    } finally {
      this._connecting = false;
    }
  }

  /**
   * What wallet-adapter hosts call on load: the connection Latch restored (or already has), never
   * the modal. Throws `WalletConnectionError` when there is none.
   */
  override async autoConnect(): Promise<void> {
    if (this.connected || this._connecting) return;
    this._connecting = true;
    try {
      const session = await settledLatchSolanaSession(this.latch);
      if (!session) throw new WalletConnectionError('No Solana wallet is connected through Latch');
      this.follow(session);
    } catch (error) {
      this.fail(error, WalletConnectionError);
    } finally {
      this._connecting = false;
    }
  }

  /** Ends Latch's Solana connection (the modal follows); `disconnect` is emitted as Latch ends it. */
  async disconnect(): Promise<void> {
    disconnectLatchSolana(this.latch);
    this.follow(latchSolanaSession(this.latch));
  }

  override async sendTransaction(
    transaction: TransactionOrVersionedTransaction<this['supportedTransactionVersions']>,
    connection: Connection,
    options: SendTransactionOptions = {},
  ): Promise<TransactionSignature> {
    const session = this.connected_();
    try {
      const { signers, ...sendOptions } = options;
      let prepared: AnyTransaction = transaction;
      if (isVersionedTransaction(prepared)) {
        if (!transactionVersions(session.wallet).includes(prepared.version as 0)) {
          throw new WalletSendTransactionError(`${session.wallet.name} does not sign version ${prepared.version} transactions`);
        }
        if (signers?.length) prepared.sign(signers);
      } else {
        prepared = await this.prepareTransaction(prepared, connection, sendOptions);
        if (signers?.length) prepared.partialSign(...signers);
      }
      sendOptions.preflightCommitment ??= connection.commitment;

      const signAndSend = walletFeature<SignAndSendTransactionFeature>(session.wallet, 'solana:signAndSendTransaction');
      if (signAndSend && session.account.features.includes('solana:signAndSendTransaction')) {
        // The wallet sends it to the chain Latch is connected on (the network the app configured).
        const [output] = await signAndSend.signAndSendTransaction({
          account: session.account,
          chain: session.chain,
          transaction: serialize(prepared),
          options: {
            ...(sendOptions.preflightCommitment && { preflightCommitment: sendOptions.preflightCommitment }),
            ...(sendOptions.minContextSlot !== undefined && { minContextSlot: sendOptions.minContextSlot }),
            ...(sendOptions.skipPreflight !== undefined && { skipPreflight: sendOptions.skipPreflight }),
            ...(sendOptions.maxRetries !== undefined && { maxRetries: sendOptions.maxRetries }),
          },
        });
        if (!output) throw new WalletSendTransactionError(`${session.wallet.name} returned no signature`);
        // Its id as web3.js gives one: base58, written by latch-core.
        return await solanaSignatureText(output.signature);
      }
      // Otherwise the wallet signs and the app's own connection sends.
      const signed = await this.signWith(session, [prepared]);
      return await connection.sendRawTransaction(serialize(signed[0]!), sendOptions);
    } catch (error) {
      this.fail(error, WalletSendTransactionError);
    }
  }

  private async signWith<T extends AnyTransaction>(session: LatchSolanaSession, transactions: T[]): Promise<T[]> {
    const feature = walletFeature<SignTransactionFeature>(session.wallet, 'solana:signTransaction');
    if (!feature) throw new WalletSignTransactionError(`${session.wallet.name} cannot sign transactions`);
    const outputs = await feature.signTransaction(
      ...transactions.map((transaction) => ({ account: session.account, chain: session.chain, transaction: serialize(transaction) })),
    );
    if (outputs.length !== transactions.length) {
      throw new WalletSignTransactionError(`${session.wallet.name} returned ${outputs.length} of ${transactions.length} transactions`);
    }
    return outputs.map(({ signedTransaction }, index) => deserialize(signedTransaction, transactions[index]!));
  }

  async signTransaction<T extends TransactionOrVersionedTransaction<this['supportedTransactionVersions']>>(
    transaction: T,
  ): Promise<T> {
    const session = this.connected_();
    try {
      const [signed] = await this.signWith(session, [transaction as AnyTransaction]);
      return signed as T;
    } catch (error) {
      this.fail(error, WalletSignTransactionError);
    }
  }

  override async signAllTransactions<T extends TransactionOrVersionedTransaction<this['supportedTransactionVersions']>>(
    transactions: T[],
  ): Promise<T[]> {
    const session = this.connected_();
    try {
      return (await this.signWith(session, transactions as AnyTransaction[])) as T[];
    } catch (error) {
      this.fail(error, WalletSignTransactionError);
    }
  }

  /** The ed25519 signature of `message` by the connected account (64 bytes). */
  async signMessage(message: Uint8Array): Promise<Uint8Array> {
    const session = this.connected_();
    try {
      const feature = walletFeature<SignMessageFeature>(session.wallet, 'solana:signMessage');
      if (!feature) throw new WalletSignMessageError(`${session.wallet.name} cannot sign messages`);
      const [output] = await feature.signMessage({ account: session.account, message });
      if (!output) throw new WalletSignMessageError(`${session.wallet.name} returned no signature`);
      return output.signature;
    } catch (error) {
      this.fail(error, WalletSignMessageError);
    }
  }
}

/** A `@solana/wallet-adapter-base` adapter over the Latch Solana connection (one per Latch instance is enough). */
export function latchSolanaAdapter(latch: Latch): LatchSolanaWalletAdapter {
  return new LatchSolanaWalletAdapter(latch);
}
