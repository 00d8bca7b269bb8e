import { useCallback, useRef, useState } from 'react';
import type { TransactionRequest, WalletRequestError } from '../core/transactions.js';
import { useLatchInstance } from '../context.js';

export type LatchRequestStatus = 'idle' | 'pending' | 'success' | 'error';

export interface LatchRequestState<T> {
  status: LatchRequestStatus;
  /** The last call's result. */
  data?: T;
  /** Why the last call failed; `kind` says whether the user declined. */
  error?: WalletRequestError;
  /** Back to idle. */
  reset(): void;
}

/** One wallet request's state: the latest call wins, an earlier one's answer is dropped. */
function useRequest<A, T>(run: (arg: A) => Promise<T>) {
  const [state, setState] = useState<{ status: LatchRequestStatus; data?: T; error?: WalletRequestError }>({
    status: 'idle',
  });
  const latest = useRef(0);
  const call = useCallback(
    async (arg: A) => {
      const id = ++latest.current;
      setState({ status: 'pending' });
      try {
        const data = await run(arg);
        if (id === latest.current) setState({ status: 'success', data });
        return data;
      } catch (error) {
        if (id === latest.current) setState({ status: 'error', error: error as WalletRequestError });
        throw error;
      }
    },
    [run],
  );
  const reset = useCallback(() => {
    latest.current++;
    setState({ status: 'idle' });
  }, []);
  return { ...state, call, reset };
}

export interface LatchSignMessage extends LatchRequestState<string> {
  /** Asks the connected wallet to sign; resolves with the signature, throws `WalletRequestError`. */
  signMessage(message: string): Promise<string>;
}

/** Signs a message with whatever wallet the visitor connected. */
export function useLatchSignMessage(): LatchSignMessage {
  const { call, ...state } = useRequest(useLatchInstance().signMessage);
  return { ...state, signMessage: call };
}

export interface LatchSendTransaction extends LatchRequestState<string> {
  /** Sends through the connected EVM wallet; resolves with the hash, throws `WalletRequestError`. */
  sendTransaction(request: TransactionRequest): Promise<string>;
}

/** Sends an EVM transaction through whatever wallet the visitor connected. */
export function useLatchSendTransaction(): LatchSendTransaction {
  const { call, ...state } = useRequest(useLatchInstance().sendTransaction);
  return { ...state, sendTransaction: call };
}
