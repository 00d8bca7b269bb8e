import type { SiwxSession, SiwxStatus } from '../core/siwx.js';
import { useLatchInstance } from '../context.js';
import { useStore } from './useStore.js';

export interface LatchSIWX {
  /** False without the `siwx` / `siweConfig` option. */
  enabled: boolean;
  status: SiwxStatus;
  /** The session of the connected account, when signed in. */
  session?: SiwxSession;
  /** Asks the wallet to sign in again (e.g. from a button after a cancel). */
  signIn(): Promise<void>;
  signOut(): Promise<void>;
}

/** Sign-in state of the connected account; re-evaluated when the account or network changes. */
export function useLatchSIWX(): LatchSIWX {
  const { siwx } = useLatchInstance();
  const { enabled, status, session } = useStore(siwx.store);
  return { enabled, status, session, signIn: siwx.signIn, signOut: siwx.signOut };
}
