/** The English catalogue; its keys define the `Messages` type every locale must fill. */
export const en = {
  connectWallet: 'Connect Wallet',
  connecting: 'Connecting…',
  close: 'Close',
  back: 'Back',
  connectTitle: 'Connect a wallet',
  browserWallets: 'Browser wallets',
  noBrowserWallet: 'No browser wallet was found. Install one, then reload this page.',
  connectionRejected: 'The connection request was rejected.',
  connectingTitle: 'Connecting',
  connectingWaiting: 'Continue in {wallet} to connect.',
  connectionFailed: 'The connection to {wallet} failed.',
  retry: 'Try again',
  accountTitle: 'Account',
  balanceLoading: 'Loading balance…',
  balanceUnavailable: 'Token Balance Unavailable',
  invalidProjectId: 'Invalid Project ID',
  invalidAppConfiguration: 'Invalid App Configuration',
  disconnect: 'Disconnect',
  unsupportedChainTitle: 'Switch network',
  unsupportedChainBody: 'This network is not supported. Switch your wallet to {network}.',
};

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
