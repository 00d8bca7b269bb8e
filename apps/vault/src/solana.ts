// The embedded wallet's four Solana sign methods (behaviour 5.18, 5.19), after the user approved
// them in the panel: latch-vault signs the approval's `sign` (latch-core `embedded::solana` read
// and checked it) and answers in the WalletConnect shape; `solana_signAndSendTransaction` then
// goes out through latch's gateway (`sendTransaction` with the request's send options) and the
// answer is the node's signature.
import { RpcError } from './approvals';
import { withWallet } from './keys';
import { gateway, type RpcContext } from './rpc';

const METHODS = new Set([
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAllTransactions',
  'solana_signAndSendTransaction',
]);

export function isSolanaMethod(method: string): boolean {
  return METHODS.has(method);
}

interface Signed {
  signature?: string;
  sendParams?: unknown[];
}

export async function signSolana(context: RpcContext, method: string, sign: unknown): Promise<unknown> {
  const answer = await withWallet(context.projectId, context.token, context.userId, (wallet) => {
    try {
      return wallet.solanaSignRequest(method, JSON.stringify(sign)) as Signed;
    } catch (error) {
      throw new RpcError(error instanceof Error ? error.message : 'An error occurred', -32602);
    }
  });
  if (method !== 'solana_signAndSendTransaction') return answer;
  if (!context.chainId?.startsWith('solana:')) throw new RpcError('No Solana network selected', -32602);
  const [signature] = await gateway(context, [{ method: 'sendTransaction', params: answer.sendParams ?? [] }]);
  if (typeof signature !== 'string') throw new RpcError('An error occurred', -32603);
  return { signature };
}
