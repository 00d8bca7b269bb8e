export { LatchSolanaWalletAdapter, LatchWalletName, latchSolanaAdapter } from './adapter.js';
export {
  connectLatchSolana,
  disconnectLatchSolana,
  LatchConnectCancelledError,
  latchSolanaSession,
  settledLatchSolanaSession,
  watchLatchSolanaSession,
  type LatchSolanaSession,
} from './session.js';
