/**
 * The English strings a page shows before the modal's chunk has loaded (the Connect button, toasts
 * and errors raised outside the modal). The rest of English loads with the modal; `make size-gate`
 * fails when code outside the modal's chunks names a key that is not here.
 */
export const enPage = {
  connectWallet: 'Connect Wallet',
  connecting: 'Connecting…',
  browserWallet: 'Browser Wallet',
  allWallets: 'All wallets',
  walletConnect: 'WalletConnect',
  balanceUnavailable: 'Token Balance Unavailable',
  invalidProjectId: 'Invalid Project ID',
  invalidAppConfiguration: 'Invalid App Configuration',
  disconnect: 'Disconnect',
  /** The network button while the wallet is on a network the app did not list (behaviour 3.4). */
  networkUnsupported: 'Unsupported network',
  activityFailed: 'Failed to fetch transactions',
  signIn: 'Sign',
  signatureDeclined: 'Signature declined',
  signInInitFailed: 'A problem occurred while trying initialize authentication',
  signInFailed: 'The wallet could not sign the message. Try again.',
  signInRefused: 'The sign-in was refused. Try again.',
  sessionExpired: 'Session Expired',
  sessionExpiredHint: 'Check that your device’s clock is right, then reconnect.',
};
