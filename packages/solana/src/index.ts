export { LatchSolanaWalletAdapter, LatchWalletName, latchSolanaAdapter } from './adapter.js';
export { latchStandardWallet, registerLatchStandardWallet } from './standard.js';
export {
  connectLatchSolana,
  disconnectLatchSolana,
  LatchConnectCancelledError,
  latchSolanaSession,
  watchLatchSolanaSession,
  type LatchSolanaSession,
} from './session.js';
