// Solana's JSON-RPC methods over a Chain: parameter checks, result shapes and error codes as a
// validator's RPC answers them (agave's rpc crate is the reference for names and codes).
import { ChainError, Chain, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, GENESIS_HASH, parseMint, parseTokenAccount } from './chain.js';
import { fromBase58, fromBase64, toBase58, toBase64, tokenAmount, u64 } from './encoding.js';
import { parseMessage } from './transaction.js';

export const SOLANA_CORE_VERSION = '2.2.0';
const FEATURE_SET = 0;
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const PACKET_DATA_SIZE = 1232;
const MAX_BASE58_ACCOUNT_DATA = 128;
const MAX_AIRDROP_LAMPORTS = 1_000_000_000_000_000; // the whole faucet
const COMMITMENTS = new Set(['processed', 'confirmed', 'finalized', 'recent', 'single', 'singleGossip', 'root', 'max']);

export class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export const invalidParams = (why) => new RpcError(-32602, `Invalid params: ${why}`);
const invalidParam = (why) => new RpcError(-32602, `Invalid param: ${why}`);

function isPlainObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function pubkey(value) {
  if (typeof value !== 'string') throw invalidParams('expected a base58 public key string');
  let bytes;
  try {
    bytes = fromBase58(value);
  } catch {
    throw invalidParam('Invalid');
  }
  if (bytes.length !== 32 || value.length > 44) throw invalidParam('Invalid');
  return value;
}

export function signature(value) {
  if (typeof value !== 'string') throw invalidParams('expected a base58 signature string');
  let bytes;
  try {
    bytes = fromBase58(value);
  } catch {
    throw invalidParam('Invalid');
  }
  if (bytes.length !== 64 || value.length > 88) throw invalidParam('Invalid');
  return value;
}

function integer(value, what, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw invalidParams(`${what} must be an integer in ${min}..${max}`);
  return value;
}

/** Positional parameters: an array of at most `max`, with the first `min` required. */
export function positional(params, min, max) {
  const list = params === undefined ? [] : params;
  if (!Array.isArray(list)) throw invalidParams('expected an array of parameters');
  if (list.length < min) throw invalidParams(`expected at least ${min} parameter${min === 1 ? '' : 's'}`);
  if (list.length > max) throw invalidParams(`expected at most ${max} parameter${max === 1 ? '' : 's'}`);
  return list;
}

/** An optional config object: checks `commitment` and `minContextSlot`, which every method shares. */
export function config(value, chain, allowed) {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw invalidParams('expected a configuration object');
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key) && key !== 'commitment' && key !== 'minContextSlot') {
      throw invalidParams(`unknown field \`${key}\``);
    }
  }
  if (value.commitment !== undefined && !COMMITMENTS.has(value.commitment)) throw invalidParams('unknown commitment');
  if (value.minContextSlot !== undefined) {
    integer(value.minContextSlot, 'minContextSlot');
    if (value.minContextSlot > chain.slot) {
      throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: chain.slot });
    }
  }
  return value;
}

function bool(value, what) {
  if (value !== undefined && typeof value !== 'boolean') throw invalidParams(`${what} must be a boolean`);
  return value === true;
}

function dataSlice(value) {
  if (value === undefined) return null;
  if (!isPlainObject(value)) throw invalidParams('dataSlice must be an object');
  return { offset: integer(value.offset, 'dataSlice.offset'), length: integer(value.length, 'dataSlice.length') };
}

const ACCOUNT_ENCODINGS = ['binary', 'base58', 'base64', 'jsonParsed'];

export function accountEncoding(value, fallback) {
  if (value === undefined) return fallback;
  if (value === 'base64+zstd') throw invalidParams('base64+zstd encoding is not supported by this devnet');
  if (!ACCOUNT_ENCODINGS.includes(value)) throw invalidParams(`unknown encoding \`${value}\``);
  return value;
}

function parsedTokenData(chain, acc) {
  const program = acc.owner === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022';
  if (acc.data.length === 82 || (acc.owner === TOKEN_2022_PROGRAM && acc.data.length > 165 && acc.data[165] === 1)) {
    const m = parseMint(acc.data);
    if (!m.isInitialized) return null;
    const info = {
      decimals: m.decimals,
      freezeAuthority: m.freezeAuthority,
      isInitialized: true,
      mintAuthority: m.mintAuthority,
      supply: m.supply.toString(),
    };
    return { program, parsed: { info, type: 'mint' }, space: acc.data.length };
  }
  if (acc.data.length < 165) return null;
  const t = parseTokenAccount(acc.data);
  if (t.state === 0) return null;
  const mint = chain.account(t.mint);
  if (!mint || mint.data.length < 82) return null;
  const decimals = mint.data[44];
  const info = {
    isNative: t.isNative,
    mint: t.mint,
    owner: t.owner,
    state: t.state === 2 ? 'frozen' : 'initialized',
    tokenAmount: tokenAmount(t.amount, decimals),
  };
  if (t.delegate) {
    info.delegate = t.delegate;
    info.delegatedAmount = tokenAmount(t.delegatedAmount, decimals);
  }
  if (t.isNative) info.rentExemptReserve = tokenAmount(t.rentExemptReserve, decimals);
  if (t.closeAuthority) info.closeAuthority = t.closeAuthority;
  return { program, parsed: { info, type: 'account' }, space: acc.data.length };
}

export function encodeAccount(chain, acc, encoding, slice) {
  if (!acc) return null;
  let data;
  const parsed = encoding === 'jsonParsed' && (acc.owner === TOKEN_PROGRAM || acc.owner === TOKEN_2022_PROGRAM) ? parsedTokenData(chain, acc) : null;
  if (parsed) {
    data = parsed;
  } else {
    const bytes = slice ? acc.data.subarray(slice.offset, slice.offset + slice.length) : acc.data;
    if (encoding === 'binary' || encoding === 'base58') {
      if (bytes.length > MAX_BASE58_ACCOUNT_DATA) {
        throw new RpcError(-32600, 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
      }
      data = encoding === 'binary' ? toBase58(bytes) : [toBase58(bytes), 'base58'];
    } else {
      data = [toBase64(bytes), 'base64'];
    }
  }
  return {
    data,
    executable: acc.executable,
    lamports: u64(acc.lamports),
    owner: acc.owner,
    rentEpoch: acc.rentEpoch,
    space: acc.data.length,
  };
}

function decodeWire(encoded, encoding) {
  if (typeof encoded !== 'string') throw invalidParams('expected an encoded transaction string');
  const enc = encoding ?? 'base58';
  if (enc !== 'base58' && enc !== 'base64') throw invalidParams(`unsupported encoding: ${enc}. Supported encodings: base58, base64`);
  const maxEncoded = enc === 'base58' ? 1683 : 1644;
  if (encoded.length > maxEncoded) {
    throw invalidParams(`${enc} encoded solana_sdk::transaction::versioned::VersionedTransaction too large: ${encoded.length} bytes (max: encoded/raw ${maxEncoded}/${PACKET_DATA_SIZE})`);
  }
  let bytes;
  try {
    bytes = enc === 'base58' ? fromBase58(encoded) : fromBase64(encoded);
  } catch {
    throw invalidParams(`invalid ${enc} encoding`);
  }
  if (bytes.length > PACKET_DATA_SIZE) {
    throw invalidParams(`decoded solana_sdk::transaction::versioned::VersionedTransaction too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
  }
  return bytes;
}

function uiTokenBalances(list) {
  return list.map((b) => ({
    accountIndex: b.accountIndex,
    mint: b.mint,
    owner: b.owner,
    programId: b.programId,
    uiTokenAmount: tokenAmount(b.amount, b.decimals),
  }));
}

function uiMessage(message, jsonParsed, loaded) {
  const { header, staticAccounts } = message;
  const keys = [...staticAccounts, ...loaded.writable, ...loaded.readonly];
  const instructions = message.instructions.map((ix) => ({
    programIdIndex: ix.programAddressIndex,
    accounts: Array.from(ix.accountIndices ?? []),
    data: toBase58(ix.data ?? new Uint8Array()),
    stackHeight: null,
  }));
  const out = {
    header: {
      numReadonlySignedAccounts: header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: header.numReadonlyNonSignerAccounts,
      numRequiredSignatures: header.numSignerAccounts,
    },
    accountKeys: staticAccounts,
    recentBlockhash: message.lifetimeToken,
    instructions,
  };
  if (jsonParsed) {
    const n = staticAccounts.length;
    const writable = (i) =>
      i < header.numSignerAccounts
        ? i < header.numSignerAccounts - header.numReadonlySignerAccounts
        : i < n
          ? i < n - header.numReadonlyNonSignerAccounts
          : i < n + loaded.writable.length;
    out.accountKeys = keys.map((pk, i) => ({
      pubkey: pk,
      signer: i < header.numSignerAccounts,
      writable: writable(i),
      source: i < n ? 'transaction' : 'lookupTable',
    }));
    // Instructions stay undecoded (the "partially decoded" form a validator uses for unknown programs).
    out.instructions = instructions.map((ix) => ({
      programId: keys[ix.programIdIndex],
      accounts: ix.accounts.map((i) => keys[i]),
      data: ix.data,
      stackHeight: null,
    }));
    delete out.header;
  }
  if (message.version === 0) {
    out.addressTableLookups = (message.addressTableLookups ?? []).map((l) => ({
      accountKey: l.lookupTableAddress,
      writableIndexes: Array.from(l.writableIndexes),
      readonlyIndexes: Array.from(l.readonlyIndexes),
    }));
  }
  return out;
}

function statusOf(record) {
  return {
    slot: record.slot,
    confirmations: null,
    err: record.err,
    status: record.err ? { Err: record.err } : { Ok: null },
    confirmationStatus: 'finalized',
  };
}

/** Builds the method table over one chain. */
export function methods(chain) {
  const context = () => ({ slot: chain.slot, apiVersion: SOLANA_CORE_VERSION });
  const withContext = (value) => ({ context: context(), value });

  const tokenAccountsByOwner = (params) => {
    const [owner, filter, rawCfg] = positional(params, 2, 3);
    pubkey(owner);
    if (!isPlainObject(filter) || Object.keys(filter).length !== 1 || !('mint' in filter || 'programId' in filter)) {
      throw invalidParams('expected a filter object with exactly one of `mint` or `programId`');
    }
    const cfg = config(rawCfg, chain, ['encoding', 'dataSlice']);
    const encoding = accountEncoding(cfg.encoding, 'binary');
    const slice = dataSlice(cfg.dataSlice);
    let programs;
    let mint = null;
    if ('programId' in filter) {
      pubkey(filter.programId);
      if (filter.programId !== TOKEN_PROGRAM && filter.programId !== TOKEN_2022_PROGRAM) {
        throw invalidParam('unrecognized Token program id');
      }
      programs = [filter.programId];
    } else {
      mint = pubkey(filter.mint);
      const mintAccount = chain.account(mint);
      if (!mintAccount || (mintAccount.owner !== TOKEN_PROGRAM && mintAccount.owner !== TOKEN_2022_PROGRAM)) {
        throw invalidParam('could not find mint');
      }
      programs = [mintAccount.owner];
    }
    const value = [];
    for (const program of programs) {
      for (const acc of chain.svm.getProgramAccounts(program)) {
        if (acc.data.length < 165 || acc.lamports === 0n) continue;
        if (program === TOKEN_2022_PROGRAM && acc.data.length > 165 && acc.data[165] !== 2) continue;
        const t = parseTokenAccount(acc.data);
        if (t.owner !== owner || t.state === 0 || (mint && t.mint !== mint)) continue;
        const account = { lamports: acc.lamports, owner: acc.programAddress, data: acc.data, executable: acc.executable, rentEpoch: 2n ** 64n - 1n };
        value.push({ pubkey: acc.address, account: encodeAccount(chain, account, encoding, slice) });
      }
    }
    value.sort((a, b) => (a.pubkey < b.pubkey ? -1 : a.pubkey > b.pubkey ? 1 : 0));
    return withContext(value);
  };

  return {
    getHealth: (params) => {
      positional(params, 0, 0);
      return 'ok';
    },
    getVersion: (params) => {
      positional(params, 0, 0);
      return { 'solana-core': SOLANA_CORE_VERSION, 'feature-set': FEATURE_SET };
    },
    getGenesisHash: (params) => {
      positional(params, 0, 0);
      return GENESIS_HASH;
    },
    getSlot: (params) => {
      config(positional(params, 0, 1)[0], chain, []);
      return chain.slot;
    },
    getBlockHeight: (params) => {
      config(positional(params, 0, 1)[0], chain, []);
      return chain.slot;
    },
    getEpochInfo: (params) => {
      config(positional(params, 0, 1)[0], chain, []);
      return {
        absoluteSlot: chain.slot,
        blockHeight: chain.slot,
        epoch: 0,
        slotIndex: chain.slot,
        slotsInEpoch: 432000,
        transactionCount: chain.records.size,
      };
    },
    getLatestBlockhash: (params) => {
      config(positional(params, 0, 1)[0], chain, []);
      const { blockhash, slot } = chain.latest;
      return withContext({ blockhash, lastValidBlockHeight: Chain.lastValidBlockHeight(slot) });
    },
    isBlockhashValid: (params) => {
      const [hash, cfg] = positional(params, 1, 2);
      config(cfg, chain, []);
      if (typeof hash !== 'string') throw invalidParams('expected a base58 blockhash string');
      pubkey(hash);
      return withContext(chain.blockhashValid(hash));
    },
    getBalance: (params) => {
      const [address, cfg] = positional(params, 1, 2);
      config(cfg, chain, []);
      return withContext(u64(chain.balance(pubkey(address))));
    },
    getAccountInfo: (params) => {
      const [address, rawCfg] = positional(params, 1, 2);
      const cfg = config(rawCfg, chain, ['encoding', 'dataSlice']);
      const encoding = accountEncoding(cfg.encoding, 'binary');
      return withContext(encodeAccount(chain, chain.account(pubkey(address)), encoding, dataSlice(cfg.dataSlice)));
    },
    getMultipleAccounts: (params) => {
      const [addresses, rawCfg] = positional(params, 1, 2);
      if (!Array.isArray(addresses)) throw invalidParams('expected an array of public keys');
      if (addresses.length > MAX_MULTIPLE_ACCOUNTS) {
        throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
      }
      const cfg = config(rawCfg, chain, ['encoding', 'dataSlice']);
      const encoding = accountEncoding(cfg.encoding, 'base64');
      const slice = dataSlice(cfg.dataSlice);
      return withContext(addresses.map((a) => encodeAccount(chain, chain.account(pubkey(a)), encoding, slice)));
    },
    getTokenAccountBalance: (params) => {
      const [address, cfg] = positional(params, 1, 2);
      config(cfg, chain, []);
      const acc = chain.account(pubkey(address));
      if (!acc) throw invalidParam('could not find account');
      const parsed = acc.owner === TOKEN_PROGRAM || acc.owner === TOKEN_2022_PROGRAM ? parsedTokenData(chain, acc) : null;
      if (!parsed || parsed.parsed.type !== 'account') throw invalidParam('not a Token account');
      return withContext(parsed.parsed.info.tokenAmount);
    },
    getTokenSupply: (params) => {
      const [address, cfg] = positional(params, 1, 2);
      config(cfg, chain, []);
      const acc = chain.account(pubkey(address));
      const parsed = acc && (acc.owner === TOKEN_PROGRAM || acc.owner === TOKEN_2022_PROGRAM) ? parsedTokenData(chain, acc) : null;
      if (!parsed || parsed.parsed.type !== 'mint') throw invalidParam('not a Token mint');
      return withContext(tokenAmount(BigInt(parsed.parsed.info.supply), parsed.parsed.info.decimals));
    },
    getTokenAccountsByOwner: tokenAccountsByOwner,
    getMinimumBalanceForRentExemption: (params) => {
      const [len, cfg] = positional(params, 1, 2);
      config(cfg, chain, []);
      integer(len, 'data length', { max: 10 * 1024 * 1024 });
      return u64(chain.rentExemptMinimum(len));
    },
    getFeeForMessage: (params) => {
      const [encoded, cfg] = positional(params, 1, 2);
      config(cfg, chain, []);
      if (typeof encoded !== 'string') throw invalidParams('expected a base64 message string');
      let message;
      try {
        message = parseMessage(fromBase64(encoded));
      } catch (err) {
        throw invalidParams(err.message);
      }
      const fee = chain.feeForMessage(message);
      return withContext(fee === null ? null : u64(fee));
    },
    getSignatureStatuses: (params) => {
      const [signatures, rawCfg] = positional(params, 1, 2);
      if (!Array.isArray(signatures)) throw invalidParams('expected an array of signatures');
      if (signatures.length > MAX_SIGNATURE_STATUSES) {
        throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
      }
      const cfg = config(rawCfg, chain, ['searchTransactionHistory']);
      bool(cfg.searchTransactionHistory, 'searchTransactionHistory');
      return withContext(
        signatures.map((s) => {
          const record = chain.records.get(signature(s));
          return record ? statusOf(record) : null;
        }),
      );
    },
    getSignaturesForAddress: (params) => {
      const [address, rawCfg] = positional(params, 1, 2);
      pubkey(address);
      const cfg = config(rawCfg, chain, ['limit', 'before', 'until']);
      const limit = cfg.limit === undefined ? MAX_SIGNATURES_FOR_ADDRESS : integer(cfg.limit, 'limit', { min: 1, max: MAX_SIGNATURES_FOR_ADDRESS });
      const before = cfg.before === undefined ? null : signature(cfg.before);
      const until = cfg.until === undefined ? null : signature(cfg.until);
      const list = chain.byAddress.get(address) ?? [];
      const out = [];
      let started = before === null;
      for (let i = list.length - 1; i >= 0 && out.length < limit; i -= 1) {
        const sig = list[i];
        if (!started) {
          started = sig === before;
          continue;
        }
        if (sig === until) break;
        const r = chain.records.get(sig);
        out.push({ signature: sig, slot: r.slot, err: r.err, memo: null, blockTime: r.blockTime, confirmationStatus: 'finalized' });
      }
      return out;
    },
    getTransaction: (params) => {
      const [sig, rawCfg] = positional(params, 1, 2);
      signature(sig);
      // The legacy second parameter may be the encoding itself.
      const cfg = typeof rawCfg === 'string' ? { encoding: rawCfg } : config(rawCfg, chain, ['encoding', 'maxSupportedTransactionVersion']);
      if (cfg.commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
      const encoding = cfg.encoding ?? 'json';
      if (!['json', 'jsonParsed', 'base58', 'base64'].includes(encoding)) throw invalidParams(`unknown encoding \`${encoding}\``);
      if (cfg.maxSupportedTransactionVersion !== undefined) {
        integer(cfg.maxSupportedTransactionVersion, 'maxSupportedTransactionVersion', { max: 255 });
      }
      const r = chain.records.get(sig);
      if (!r) return null;
      const version = r.tx.message.version;
      if (version !== 'legacy' && (cfg.maxSupportedTransactionVersion === undefined || version > cfg.maxSupportedTransactionVersion)) {
        throw new RpcError(
          -32015,
          `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
        );
      }
      let transaction;
      if (encoding === 'base64') transaction = [toBase64(r.bytes), 'base64'];
      else if (encoding === 'base58') transaction = [toBase58(r.bytes), 'base58'];
      else transaction = { signatures: r.tx.signatures, message: uiMessage(r.tx.message, encoding === 'jsonParsed', r.loadedAddresses) };
      const meta = {
        err: r.err,
        status: r.err ? { Err: r.err } : { Ok: null },
        fee: u64(r.fee),
        preBalances: r.preBalances.map(u64),
        postBalances: r.postBalances.map(u64),
        innerInstructions: r.innerInstructions,
        logMessages: r.logs,
        preTokenBalances: uiTokenBalances(r.preTokenBalances),
        postTokenBalances: uiTokenBalances(r.postTokenBalances),
        rewards: [],
        loadedAddresses: r.loadedAddresses,
        computeUnitsConsumed: r.unitsConsumed,
      };
      if (r.returnData) meta.returnData = r.returnData;
      const out = { slot: r.slot, blockTime: r.blockTime, transaction, meta };
      if (cfg.maxSupportedTransactionVersion !== undefined) out.version = version;
      return out;
    },
    sendTransaction: (params) => {
      const [encoded, rawCfg] = positional(params, 1, 2);
      const cfg = config(rawCfg, chain, ['encoding', 'skipPreflight', 'preflightCommitment', 'maxRetries']);
      if (cfg.preflightCommitment !== undefined && !COMMITMENTS.has(cfg.preflightCommitment)) {
        throw invalidParams('unknown preflightCommitment');
      }
      if (cfg.maxRetries !== undefined) integer(cfg.maxRetries, 'maxRetries');
      const bytes = decodeWire(encoded, cfg.encoding);
      return chain.send(bytes, { skipPreflight: bool(cfg.skipPreflight, 'skipPreflight') });
    },
    simulateTransaction: (params) => {
      const [encoded, rawCfg] = positional(params, 1, 2);
      const cfg = config(rawCfg, chain, ['encoding', 'sigVerify', 'replaceRecentBlockhash', 'accounts', 'innerInstructions']);
      const bytes = decodeWire(encoded, cfg.encoding);
      let addresses = [];
      let accEncoding = 'base64';
      if (cfg.accounts !== undefined && cfg.accounts !== null) {
        if (!isPlainObject(cfg.accounts) || !Array.isArray(cfg.accounts.addresses)) {
          throw invalidParams('accounts must be an object with an `addresses` array');
        }
        addresses = cfg.accounts.addresses.map(pubkey);
        accEncoding = accountEncoding(cfg.accounts.encoding, 'base64');
        if (accEncoding === 'binary') throw invalidParams('binary encoding is not supported for simulation accounts');
      }
      const sim = chain.simulate(bytes, {
        sigVerify: bool(cfg.sigVerify, 'sigVerify'),
        replaceRecentBlockhash: bool(cfg.replaceRecentBlockhash, 'replaceRecentBlockhash'),
        accounts: addresses,
      });
      return withContext({
        err: sim.err,
        logs: sim.logs,
        accounts: cfg.accounts ? sim.accounts.map((a) => encodeAccount(chain, a, accEncoding, null)) : null,
        unitsConsumed: sim.unitsConsumed,
        returnData: sim.returnData,
        innerInstructions: bool(cfg.innerInstructions, 'innerInstructions') ? (sim.innerInstructions ?? []) : null,
        replacementBlockhash: sim.replacementBlockhash ?? null,
      });
    },
    requestAirdrop: (params) => {
      const [address, lamports, cfg] = positional(params, 2, 3);
      config(cfg, chain, []);
      pubkey(address);
      integer(lamports, 'lamports', { min: 1, max: MAX_AIRDROP_LAMPORTS });
      return chain.airdrop(address, BigInt(lamports));
    },
  };
}

/** Runs one method; every failure becomes an RpcError. */
export function call(table, method, params) {
  if (!Object.hasOwn(table, method)) throw new RpcError(-32601, 'Method not found');
  try {
    return table[method](params);
  } catch (err) {
    if (err instanceof RpcError) throw err;
    if (err instanceof ChainError) throw new RpcError(err.code, err.message, err.data);
    throw new RpcError(-32603, `Internal error: ${err.message}`);
  }
}
