// The local chain: litesvm executes transactions; this file adds what a node has and litesvm lacks
// (slots, a window of recent blockhashes, a signature/transaction store, a faucet, subscriptions).
//
// Slots: one slot per landed transaction (airdrops included); nothing ticks while idle. Every slot is a
// block (block height = slot), its blockhash stays valid for 150 slots, and everything is final at once.
import { EventEmitter } from 'node:events';

import { getTransactionDecoder } from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';

import { keypairFromSeed, sha256, toBase58 } from './encoding.js';
import { transactionError } from './errors.js';
import {
  messageFee,
  parseTransaction,
  signaturesValid,
  transferTransaction,
  usesDurableNonce,
} from './transaction.js';

/** Fixed, so the CAIP-2 id `solana:<first 32 characters>` never changes. */
export const GENESIS_HASH = toBase58(sha256('latch solana devnet genesis v1'));
export const CAIP2 = `solana:${GENESIS_HASH.slice(0, 32)}`;
export const MAX_BLOCKHASH_AGE = 150;
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
/** The faucet that pays airdrops (a real keypair; its transfers are ordinary transactions). */
export const FAUCET = keypairFromSeed(sha256('latch solana devnet faucet'));
const FAUCET_LAMPORTS = 1_000_000_000_000_000n; // 1,000,000 SOL: below 2^53, so JSON numbers stay exact
const SIGNATURE_HISTORY = 100_000;

const txDecoder = getTransactionDecoder();

/** A failure the RPC layer turns into a JSON-RPC error (`code`, `message`, optional `data`). */
export class ChainError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

const isTokenProgram = (owner) => owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;

// Errors that stop a transaction before it is committed: nothing lands, no fee is taken.
const NOT_LANDED = new Set([
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'InsufficientFundsForFee', 'InvalidAccountForFee',
  'AlreadyProcessed', 'BlockhashNotFound', 'MissingSignatureForFee', 'SignatureFailure', 'SanitizeFailure',
  'UnsupportedVersion', 'TooManyAccountLocks', 'AddressLookupTableNotFound', 'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData', 'InvalidAddressLookupTableIndex', 'ResanitizationNeeded',
]);

export class Chain extends EventEmitter {
  constructor({ now = () => Date.now() } = {}) {
    super();
    this.now = now;
    // Blockhash ages are checked here (a 150-slot window, like a validator), not by litesvm (latest only).
    this.svm = new LiteSVM().withBlockhashCheck(false);
    this.slot = 0;
    this.svm.warpToSlot(0n);
    this.setClock();
    this.blockhashes = new Map([[this.svm.latestBlockhash(), 0]]);
    this.latest = { blockhash: this.svm.latestBlockhash(), slot: 0 };
    this.records = new Map(); // signature → landed transaction
    this.byAddress = new Map(); // address → signatures, oldest first
    this.setAccount(FAUCET.address, { lamports: FAUCET_LAMPORTS });
  }

  setClock() {
    const clock = this.svm.getClock();
    clock.slot = BigInt(this.slot);
    clock.unixTimestamp = BigInt(Math.floor(this.now() / 1000));
    this.svm.setClock(clock);
  }

  /** Sets an account directly (fixture set-up only; not a transaction). */
  setAccount(address, { lamports, data = new Uint8Array(), owner = '11111111111111111111111111111111', executable = false }) {
    this.svm.setAccount({ address, lamports, data, programAddress: owner, executable, space: BigInt(data.length) });
  }

  /** `{ lamports, owner, data, executable, rentEpoch }` or null when the account does not exist. */
  account(address) {
    const a = this.svm.getAccount(address);
    if (!a.exists || a.lamports === 0n) return null;
    return { lamports: a.lamports, owner: a.programAddress, data: a.data, executable: a.executable, rentEpoch: 2n ** 64n - 1n };
  }

  balance(address) {
    return this.account(address)?.lamports ?? 0n;
  }

  rentExemptMinimum(len) {
    return this.svm.minimumBalanceForRentExemption(BigInt(len));
  }

  blockhashValid(blockhash) {
    const slot = this.blockhashes.get(blockhash);
    return slot !== undefined && this.slot - slot <= MAX_BLOCKHASH_AGE;
  }

  /** The last slot a blockhash produced at `slot` can land in (what clients call lastValidBlockHeight). */
  static lastValidBlockHeight(slot) {
    return slot + MAX_BLOCKHASH_AGE;
  }

  /** Fee in lamports for a compiled message, or null when its blockhash is no longer valid. */
  feeForMessage(message) {
    return this.blockhashValid(message.lifetimeToken) || usesDurableNonce(message) ? messageFee(message) : null;
  }

  decode(bytes) {
    try {
      return parseTransaction(bytes);
    } catch (err) {
      throw new ChainError(-32602, `invalid transaction: ${err.message}`);
    }
  }

  /** Addresses an address lookup table lends a v0 message, or throws a transaction error name. */
  loadedAddresses(message) {
    const writable = [];
    const readonly = [];
    for (const lookup of message.addressTableLookups ?? []) {
      const table = this.account(lookup.lookupTableAddress);
      if (!table) throw new Error('AddressLookupTableNotFound');
      if (table.owner !== ADDRESS_LOOKUP_TABLE_PROGRAM) throw new Error('InvalidAddressLookupTableOwner');
      // A lookup table is a 56-byte header then 32-byte addresses.
      if (table.data.length < 56 || (table.data.length - 56) % 32 !== 0) throw new Error('InvalidAddressLookupTableData');
      const count = (table.data.length - 56) / 32;
      const at = (i) => {
        if (i >= count) throw new Error('InvalidAddressLookupTableIndex');
        return toBase58(table.data.subarray(56 + 32 * i, 88 + 32 * i));
      };
      writable.push(...lookup.writableIndexes.map(at));
      readonly.push(...lookup.readonlyIndexes.map(at));
    }
    return { writable, readonly };
  }

  tokenBalances(keys) {
    const out = [];
    keys.forEach((key, accountIndex) => {
      const acc = this.account(key);
      if (!acc || !isTokenProgram(acc.owner) || acc.data.length < 165) return;
      const token = parseTokenAccount(acc.data);
      const mint = this.account(token.mint);
      if (!mint || mint.data.length < 82) return;
      out.push({ accountIndex, mint: token.mint, owner: token.owner, programId: acc.owner, amount: token.amount, decimals: mint.data[44] });
    });
    return out;
  }

  /**
   * Runs the checks a validator's RPC does before forwarding (sanitise, signatures, blockhash age,
   * duplicates). Returns the transaction error name that stops it, or null.
   */
  precheck(tx, { sigVerify = true } = {}) {
    if (sigVerify && !signaturesValid(tx)) return 'SignatureFailure';
    if (this.records.has(tx.signatures[0])) return 'AlreadyProcessed';
    if (!this.blockhashValid(tx.message.lifetimeToken) && !usesDurableNonce(tx.message)) return 'BlockhashNotFound';
    try {
      this.loadedAddresses(tx.message);
    } catch (err) {
      return err.message;
    }
    return null;
  }

  /** Simulates without changing state: `{ err, logs, unitsConsumed, returnData, accounts }`. */
  simulate(bytes, { sigVerify = false, replaceRecentBlockhash = false, accounts = [] } = {}) {
    const tx = this.decode(bytes);
    if (sigVerify && replaceRecentBlockhash) {
      throw new ChainError(-32602, 'sigVerify may not be used with replaceRecentBlockhash');
    }
    const checkErr = replaceRecentBlockhash ? null : this.precheck(tx, { sigVerify });
    if (checkErr) return { err: checkErr, logs: [], unitsConsumed: 0, returnData: null, accounts: accounts.map(() => null) };
    const wasVerifying = this.svm.inner.getSigverify();
    this.svm.withSigverify(sigVerify);
    let result;
    try {
      result = this.svm.simulateTransaction(txDecoder.decode(bytes));
    } finally {
      this.svm.withSigverify(wasVerifying);
    }
    const failed = result instanceof FailedTransactionMetadata;
    const meta = result.meta();
    const post = new Map(failed ? [] : result.postAccounts().map((a) => [a.address, a]));
    return {
      err: failed ? transactionError(result.err()) : null,
      logs: meta.logs(),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnData(meta),
      innerInstructions: innerInstructions(meta),
      accounts: accounts.map((address) => {
        const a = post.get(address);
        if (a) return { lamports: a.lamports, owner: a.programAddress, data: a.data, executable: a.executable, rentEpoch: 2n ** 64n - 1n };
        return this.account(address);
      }),
      replacementBlockhash: replaceRecentBlockhash ? { blockhash: this.latest.blockhash, lastValidBlockHeight: Chain.lastValidBlockHeight(this.latest.slot) } : undefined,
    };
  }

  /**
   * Accepts a signed wire transaction the way sendTransaction does: preflight (unless skipped), then
   * execution in a new slot. Returns the signature. Throws ChainError for what the RPC rejects.
   */
  send(bytes, { skipPreflight = false } = {}) {
    const tx = this.decode(bytes);
    if (!signaturesValid(tx)) throw new ChainError(-32003, 'Transaction signature verification failure');
    if (!skipPreflight) {
      const sim = this.simulate(bytes, { sigVerify: true });
      if (sim.err) {
        throw new ChainError(-32002, `Transaction simulation failed: ${describeError(sim.err)}`, {
          accounts: null,
          err: sim.err,
          innerInstructions: null,
          logs: sim.logs,
          replacementBlockhash: null,
          returnData: sim.returnData,
          unitsConsumed: sim.unitsConsumed,
        });
      }
    }
    // Without preflight a validator forwards the transaction; one that cannot land is dropped silently.
    if (this.precheck(tx) === null) this.execute(bytes, tx);
    return tx.signatures[0];
  }

  /** Pays `lamports` from the faucet with a real transfer in a new slot; returns its signature. */
  airdrop(address, lamports) {
    if (this.balance(FAUCET.address) < lamports + 5000n) throw new ChainError(-32603, 'airdrop request failed: faucet is empty');
    if (address === FAUCET.address) throw new ChainError(-32602, 'Invalid params: the faucet cannot airdrop to itself');
    const bytes = transferTransaction(FAUCET, address, lamports, this.latest.blockhash);
    const tx = this.decode(bytes);
    const record = this.execute(bytes, tx);
    if (record?.err) throw new ChainError(-32603, `airdrop request failed: ${describeError(record.err)}`);
    return tx.signatures[0];
  }

  execute(bytes, tx) {
    const loaded = this.loadedAddresses(tx.message);
    const keys = [...tx.message.staticAccounts, ...loaded.writable, ...loaded.readonly];
    const preBalances = keys.map((k) => this.balance(k));
    const preTokenBalances = this.tokenBalances(keys);
    this.slot += 1;
    this.setClock();
    const result = this.svm.sendTransaction(txDecoder.decode(bytes));
    const failed = result instanceof FailedTransactionMetadata;
    const err = failed ? transactionError(result.err()) : null;
    if (typeof err === 'string' && NOT_LANDED.has(err)) {
      this.slot -= 1;
      this.setClock();
      return null;
    }
    const meta = failed ? result.meta() : result;
    // A new blockhash per slot, derived by litesvm from the previous one (deterministic).
    this.svm.expireBlockhash();
    this.latest = { blockhash: this.svm.latestBlockhash(), slot: this.slot };
    this.blockhashes.set(this.latest.blockhash, this.slot);
    for (const [hash, slot] of this.blockhashes) {
      if (this.slot - slot > 2 * MAX_BLOCKHASH_AGE) this.blockhashes.delete(hash);
    }
    const record = {
      signature: tx.signatures[0],
      slot: this.slot,
      blockTime: Math.floor(this.now() / 1000),
      err,
      bytes,
      tx,
      loadedAddresses: loaded,
      fee: messageFee(tx.message),
      preBalances,
      postBalances: keys.map((k) => this.balance(k)),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(keys),
      logs: meta.logs(),
      innerInstructions: innerInstructions(meta),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnData(meta),
    };
    this.records.set(record.signature, record);
    for (const key of new Set(keys)) {
      let list = this.byAddress.get(key);
      if (!list) this.byAddress.set(key, (list = []));
      list.push(record.signature);
    }
    if (this.records.size > SIGNATURE_HISTORY) this.forget(this.records.keys().next().value);
    this.emit('slot', this.slot);
    this.emit('transaction', record);
    return record;
  }

  forget(signature) {
    const record = this.records.get(signature);
    this.records.delete(signature);
    for (const key of record.tx.message.staticAccounts) {
      const list = this.byAddress.get(key);
      if (list?.[0] === signature) list.shift();
      if (list?.length === 0) this.byAddress.delete(key);
    }
  }
}

/** A token account's base fields (the first 165 bytes, the same for Token and Token-2022). */
export function parseTokenAccount(data) {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const option = (at) => (view.readUInt32LE(at) === 1 ? toBase58(data.subarray(at + 4, at + 36)) : null);
  const isNative = view.readUInt32LE(109) === 1;
  return {
    mint: toBase58(data.subarray(0, 32)),
    owner: toBase58(data.subarray(32, 64)),
    amount: view.readBigUInt64LE(64),
    delegate: option(72),
    state: data[108],
    isNative,
    rentExemptReserve: isNative ? view.readBigUInt64LE(113) : null,
    delegatedAmount: view.readBigUInt64LE(121),
    closeAuthority: option(129),
  };
}

/** A mint's base fields (the first 82 bytes). */
export function parseMint(data) {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const option = (at) => (view.readUInt32LE(at) === 1 ? toBase58(data.subarray(at + 4, at + 36)) : null);
  return {
    mintAuthority: option(0),
    supply: view.readBigUInt64LE(36),
    decimals: data[44],
    isInitialized: data[45] === 1,
    freezeAuthority: option(46),
  };
}

function returnData(meta) {
  const rd = meta.returnData();
  const data = rd.data();
  if (data.length === 0) return null;
  return { programId: toBase58(rd.programId()), data: [Buffer.from(data).toString('base64'), 'base64'] };
}

function innerInstructions(meta) {
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: Array.from(ix.accounts()),
          data: toBase58(ix.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
}

/** The human text Solana's RPC puts after "Transaction simulation failed: ". */
export function describeError(err) {
  if (err === 'BlockhashNotFound') return 'Blockhash not found';
  if (err === 'AlreadyProcessed') return 'This transaction has already been processed';
  if (err === 'AccountNotFound') return 'Attempt to debit an account but found no record of a prior credit.';
  if (err === 'InsufficientFundsForFee') return 'Insufficient funds for fee';
  if (typeof err === 'object' && err.InsufficientFundsForRent) {
    return `Transaction results in an account (${err.InsufficientFundsForRent.account_index}) with insufficient funds for rent`;
  }
  if (typeof err === 'object' && err.InstructionError) {
    const [index, inner] = err.InstructionError;
    const what = typeof inner === 'object' && 'Custom' in inner ? `custom program error: 0x${inner.Custom.toString(16)}` : JSON.stringify(inner);
    return `Error processing Instruction ${index}: ${what}`;
  }
  return typeof err === 'string' ? err : JSON.stringify(err);
}

