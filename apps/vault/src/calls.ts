// wallet_sendCalls and wallet_getCallsStatus (EIP-5792) for the embedded EOA: after one approval
// the batch's calls go out as sequential transactions, each sent once the one before is mined
// (a later call may depend on an earlier one, e.g. approve then swap, so its gas is estimated
// then). The answer, the batch id, comes once the first is sent; the status rule is latch-core's
// (embedded::calls). Batches live in the frame's memory: a reloaded frame knows none
// ("Unknown bundle id").
import { RpcError } from './approvals';
import { withWallet } from './keys';
import { loadKeys } from './wasm';

/** How long a sent call may take to be mined before the rest of its batch is given up. */
const RECEIPT_TIMEOUT_MS = 120_000;
const RECEIPT_POLL_MS = 1_000;

export interface CallsContext {
  projectId: string;
  chainId: string | null;
  token: string;
  userId: string;
  account: string;
}

interface Call {
  method: string;
  params: unknown;
}

/** The gateway of rpc.ts: one JSON-RPC batch, answers in order. */
export type Gateway = (calls: Call[]) => Promise<unknown[]>;

/** latch-core's `sign` of a wallet_sendCalls approval. */
export interface CallsToSign {
  calls: Record<string, unknown>[];
  id: string | null;
  chainId: string | null;
}

interface Batch {
  chainId: string;
  total: number;
  hashes: string[];
  /** The frame stopped sending: all sent, or one failed and the rest were not. */
  finished: boolean;
}

interface Receipt {
  status?: string;
  logs?: unknown[];
  blockHash?: string;
  blockNumber?: string;
  gasUsed?: string;
  transactionHash?: string;
}

const batches = new Map<string, Batch>();

function quantity(value: unknown): string {
  if (typeof value !== 'string') throw new RpcError('An error occurred', -32603);
  return value;
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Reads the chain for `call`, signs it and sends it; its hash. */
async function sendOne(context: CallsContext, gateway: Gateway, call: Record<string, unknown>): Promise<string> {
  const [nonce, gas, block, tip] = await gateway([
    { method: 'eth_getTransactionCount', params: [context.account, 'pending'] },
    { method: 'eth_estimateGas', params: [call] },
    { method: 'eth_getBlockByNumber', params: ['latest', false] },
    { method: 'eth_maxPriorityFeePerGas', params: [] },
  ]);
  const baseFee = (block as { baseFeePerGas?: unknown } | null)?.baseFeePerGas ?? '0x0';
  const { prepareTransaction } = await loadKeys();
  let prepared: string;
  try {
    prepared = JSON.stringify(
      prepareTransaction(JSON.stringify(call), context.chainId ?? '', quantity(nonce), quantity(gas), quantity(baseFee), quantity(tip)),
    );
  } catch (error) {
    throw new RpcError(error instanceof Error ? error.message : 'An error occurred', -32602);
  }
  const raw = await withWallet(context.projectId, context.token, context.userId, (wallet) => wallet.signTransaction(prepared));
  return quantity((await gateway([{ method: 'eth_sendRawTransaction', params: [raw] }]))[0]);
}

async function mined(gateway: Gateway, hash: string): Promise<boolean> {
  const until = Date.now() + RECEIPT_TIMEOUT_MS;
  while (Date.now() < until) {
    const [receipt] = await gateway([{ method: 'eth_getTransactionReceipt', params: [hash] }]);
    if (receipt) return true;
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
  }
  return false;
}

/**
 * Sends an approved batch. Resolves with `{ id }` once its first call is sent; a first call that
 * fails is the request's error (nothing reached the chain). The rest follow in the background.
 */
export async function sendCalls(context: CallsContext, gateway: Gateway, sign: CallsToSign): Promise<{ id: string }> {
  const id = sign.id ?? randomId();
  // EIP-5792's "Duplicate ID".
  if (batches.has(id)) throw new RpcError('Duplicate ID', 5720);
  const [first, ...rest] = sign.calls;
  if (!first || !context.chainId) throw new RpcError('An error occurred', -32603);
  const batch: Batch = { chainId: context.chainId, total: sign.calls.length, hashes: [], finished: rest.length === 0 };
  batch.hashes.push(await sendOne(context, gateway, first));
  batches.set(id, batch);
  if (rest.length) {
    void (async () => {
      try {
        for (const call of rest) {
          if (!(await mined(gateway, batch.hashes.at(-1)!))) return;
          batch.hashes.push(await sendOne(context, gateway, call));
        }
      } catch {
        // The status tells: the calls not sent count as not done (EIP-5792 600 or 500).
      } finally {
        batch.finished = true;
      }
    })();
  }
  return { id };
}

/** `wallet_getCallsStatus`: the batch's EIP-5792 status and the receipts of its mined calls. */
export async function getCallsStatus(gateway: Gateway, params: unknown): Promise<unknown> {
  const id = Array.isArray(params) ? params[0] : undefined;
  const batch = typeof id === 'string' ? batches.get(id) : undefined;
  // EIP-5792's "Unknown bundle id".
  if (!batch) throw new RpcError('Unknown bundle id', 5730);
  // Read before the hashes, so a call sent meanwhile is not counted as finished without its receipt.
  const finished = batch.finished;
  const hashes = [...batch.hashes];
  const receipts = (await gateway(hashes.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })))) as (Receipt | null)[];
  const outcomes = receipts.map((receipt) => (receipt ? receipt.status === '0x1' : null));
  // Loaded already: a batch exists only once sendCalls signed.
  const { callsStatus } = await loadKeys();
  return {
    version: '2.0.0',
    id,
    chainId: `0x${BigInt(batch.chainId.split(':')[1] ?? '0').toString(16)}`,
    status: callsStatus(batch.total, outcomes, finished),
    atomic: false,
    receipts: receipts
      .filter((receipt): receipt is Receipt => receipt !== null)
      .map(({ logs, status, blockHash, blockNumber, gasUsed, transactionHash }) => ({
        logs: logs ?? [],
        status,
        blockHash,
        blockNumber,
        gasUsed,
        transactionHash,
      })),
  };
}
