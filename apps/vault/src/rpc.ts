// RPC_REQUEST (behaviour 5.18, 5.19): safe methods go to latch's
// gateway; not-safe ones are summarized by latch-core, shown in the frame's approval panel and
// signed only after the user confirms; anything else is refused. The host sees the frame only
// while APPROVAL_OPEN … APPROVAL_CLOSED.
import { classifyRpcMethod, init } from '@latch/wasm-vault';
import { createApprovalQueue, RpcError, type Ticket } from './approvals';
import { showApproval, type Summary } from './approve';
import { type CallsToSign, getCallsStatus, sendCalls } from './calls';
import { withWallet } from './keys';
import { isSolanaMethod, signSolana } from './solana';
import { loadKeys } from './wasm';

export { RpcError };
export const NOT_ALLOWED = 'Requested RPC call is not allowed';
export const USER_REJECTED = 'User rejected the request';

export interface RpcContext {
  projectId: string;
  chainId: string | null;
  token: string;
  userId: string;
  /** The user's address for the method's namespace (EVM, or Solana for `solana_*`), as latch lists it. */
  account: string;
  /** The embedding page's origin, shown in the panel. */
  origin: string;
  /** The modal's locale (SYNC_DAPP_DATA), which the panel speaks. */
  locale: string | null;
  /** Tells the host to show (true) or hide (false) the frame. */
  visible: (open: boolean) => void;
}

interface Call {
  method: string;
  params: unknown;
}

interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string };
}

/**
 * What a request starts with: the user's id and address are read after it has taken its place in
 * the approval queue (a read must not let a later request's panel jump ahead of it).
 */
export type RpcSession = Omit<RpcContext, 'userId' | 'account'> & {
  identity(): Promise<Pick<RpcContext, 'userId' | 'account'>>;
};

/** JSON-RPC calls to latch's gateway for the frame (`POST /v1/embedded/rpc`), one batch. */
export async function gateway(context: Pick<RpcContext, 'projectId' | 'chainId'>, calls: Call[]): Promise<unknown[]> {
  if (!context.chainId) throw new Error('No network selected');
  const query = new URLSearchParams({ projectId: context.projectId, chainId: context.chainId });
  const body = calls.map((call, index) => ({ jsonrpc: '2.0', id: index + 1, method: call.method, params: call.params }));
  const response = await fetch(`/v1/embedded/rpc?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  });
  const data = (await response.json().catch(() => null)) as unknown;
  if (!response.ok || !Array.isArray(data)) {
    const reason = (data as { reasons?: { description?: string }[] } | null)?.reasons?.[0]?.description;
    throw new RpcError(reason ?? 'An error occurred', -32603);
  }
  const answers = data as RpcAnswer[];
  return calls.map((_, index) => {
    const answer = answers.find((item) => item.id === index + 1);
    if (!answer) throw new RpcError('An error occurred', -32603);
    if (answer.error) throw new RpcError(answer.error.message ?? 'An error occurred', answer.error.code ?? -32603);
    return answer.result;
  });
}

const approvals = createApprovalQueue();

/**
 * Behaviour 5.19: the host closed its ApproveTransaction view, which rejects the pending
 * requests: the one shown and those waiting behind it.
 */
export function abortApproval(): void {
  approvals.rejectAll();
}

/** One approval at a time: a second waits for the first to be decided. */
function ask(context: RpcContext, ticket: Ticket, summary: Summary): Promise<boolean> {
  return ticket.ask(() => showApproval(summary, context.origin, context.locale), context.visible);
}

interface Approval {
  summary: Summary;
  sign: unknown;
}

function quantity(value: unknown): string {
  if (typeof value !== 'string') throw new RpcError('An error occurred', -32603);
  return value;
}

export async function rpcRequest(session: RpcSession, method: string, params: unknown): Promise<unknown> {
  await init();
  const kind = classifyRpcMethod(method);
  if (kind === 'notAllowed') {
    // Behaviour 5.19: an unknown method rejects every pending request. After this refusal is
    // posted (a task after its microtasks), so the host shows "Action not allowed" in the view it
    // keeps open instead of closing it for the approval that ends.
    setTimeout(() => approvals.rejectAll(), 0);
    throw new RpcError(NOT_ALLOWED, 4200);
  }
  // EIP-5792: the batches are the frame's own, not the node's.
  if (method === 'wallet_getCallsStatus') return getCallsStatus((calls) => gateway(session, calls), params);
  if (kind === 'safe') return (await gateway(session, [{ method, params }]))[0];
  // Taken before any read, so panels show in arrival order, a flood is refused at once and a
  // rejection reaches these too.
  const ticket = approvals.reserve();
  try {
    const context: RpcContext = { ...session, ...(await session.identity()) };
    return await approved(context, ticket, method, params);
  } finally {
    ticket.release();
  }
}

async function approved(context: RpcContext, ticket: Ticket, method: string, params: unknown): Promise<unknown> {
  // Summaries and signing come with the keys module, first needed here (a login loads only `login`).
  const { approvalSummary, prepareTransaction } = await loadKeys();
  let approval: Approval;
  try {
    approval = approvalSummary(method, JSON.stringify(params), context.account) as Approval;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'An error occurred';
    throw new RpcError(message, message === NOT_ALLOWED ? 4200 : -32602);
  }
  let prepared: string | null = null;
  if (method === 'eth_sendTransaction') {
    // Read before asking, so a call that would revert fails before the user is asked.
    const [nonce, gas, block, tip] = await gateway(context, [
      { method: 'eth_getTransactionCount', params: [context.account, 'pending'] },
      { method: 'eth_estimateGas', params: [approval.sign] },
      { method: 'eth_getBlockByNumber', params: ['latest', false] },
      { method: 'eth_maxPriorityFeePerGas', params: [] },
    ]);
    const baseFee = (block as { baseFeePerGas?: unknown } | null)?.baseFeePerGas ?? '0x0';
    prepared = JSON.stringify(prepareTransaction(
      JSON.stringify(approval.sign),
      context.chainId ?? '',
      quantity(nonce),
      quantity(gas),
      quantity(baseFee),
      quantity(tip),
    ));
  }
  if (!(await ask(context, ticket, approval.summary))) throw new RpcError(USER_REJECTED, 4001);
  if (isSolanaMethod(method)) return signSolana(context, method, approval.sign);
  if (method === 'wallet_sendCalls') return sendCalls(context, (calls) => gateway(context, calls), approval.sign as CallsToSign);
  const signed = await withWallet(context.projectId, context.token, context.userId, (wallet) => {
    if (method === 'personal_sign') return wallet.personalSign(String(approval.sign));
    if (method === 'eth_signTypedData_v4') {
      // The request's typed data, as it came: JSON text or an object.
      return wallet.signTypedData(typeof approval.sign === 'string' ? approval.sign : JSON.stringify(approval.sign));
    }
    return wallet.signTransaction(prepared ?? '');
  });
  if (method !== 'eth_sendTransaction') return signed;
  return (await gateway(context, [{ method: 'eth_sendRawTransaction', params: [signed] }]))[0];
}
