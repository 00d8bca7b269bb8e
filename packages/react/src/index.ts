export { createLatch, type Latch, type LatchOptions, type ThemeState } from './core/createLatch.js';
export type {
  Network,
  Connector,
  ConnectorId,
  ConnectorType,
  Eip155Connector,
  SolanaConnector,
  StandardWallet,
  StandardWalletAccount,
  CaipAddress,
  CaipNetworkId,
  ChainNamespace,
  Eip1193Provider,
} from './core/types.js';
export type { ModalController, ModalState, OpenData, OpenOptions, ViewData, ViewName, ViewWithData } from './core/modal.js';
export type { NetworkState } from './core/network.js';
export type { TransactionEntry, TransactionStack, TransactionStackState } from './core/transactionStack.js';
export type { AccountState, BalanceStatus, ConnectionError, ConnectionState, ConnectionStatus } from './core/connection.js';
export { NetworkSwitchError } from './core/connection.js';
export {
  CHAIN_ADAPTER_NOT_FOUND,
  LatchAdapterError,
  PROVIDER_UNDEFINED,
  type AdapterErrorCode,
  type AdapterNamespace,
  type NamespaceProviders,
} from './core/adapters.js';
export type { NetworksState } from './core/networks.js';
export { WalletRequestError } from './core/transactions.js';
export { LATCH_FORWARDER_FEATURE } from './core/walletStandard.js';
export { solanaSignatureText } from './core/solanaSignature.js';
export type {
  PendingTransaction,
  TransactionReceipt,
  TransactionRequest,
  TransactionsController,
  TransactionsState,
  WalletRequestErrorKind,
} from './core/transactions.js';
export type { LatchEvent, LatchEventListener } from './core/events.js';
export type { Store } from './core/store.js';
export type {
  AuthenticationAdapter,
  SiweConfig,
  SiwxMessageInput,
  SiwxOptions,
  SiwxSession,
  SiwxState,
  SiwxStatus,
} from './core/siwx.js';
export { createLatchAuthentication } from './core/latchAuthentication.js';
export type { KeyValueStorage } from './core/storage.js';
export type { Toast, ToastVariant } from './core/toasts.js';
export { HttpError, RpcError, type Gateway } from './core/gateway.js';
export type { CatalogueClient, CatalogueWallet, WalletPage, WalletQuery } from './core/catalogue.js';
export type {
  LoadStatus,
  WalletListController,
  WalletListOptions,
  WalletListPage,
  WalletListState,
  WalletSearch,
} from './core/walletList.js';
export type { ConnectEntry, ConnectGroup, RecentWallet } from './core/walletOrder.js';

export { LatchEmbedded, LatchProvider, type LatchProviderProps } from './components/LatchProvider/LatchProvider.js';
export {
  ConnectButton,
  type ConnectButtonCustomProps,
  type ConnectButtonRenderProps,
} from './components/ConnectButton/ConnectButton.js';
export {
  useLatch,
  useLatchAccount,
  useLatchModal,
  type LatchAccount,
  type LatchModalControls,
  type UseLatchResult,
} from './hooks/useLatch.js';
export { useLatchSIWX, type LatchSIWX } from './hooks/useLatchSIWX.js';
export {
  useLatchSendTransaction,
  useLatchSignMessage,
  type LatchRequestState,
  type LatchRequestStatus,
  type LatchSendTransaction,
  type LatchSignMessage,
} from './hooks/useLatchTransactions.js';
export {
  useDisconnect,
  useLatchEvents,
  useLatchNetwork,
  useLatchProvider,
  useLatchState,
  useLatchTheme,
  useWalletInfo,
  type LatchNetwork,
  type LatchState,
  type LatchTheme,
  type WalletInfo,
} from './hooks/useLatchApi.js';
export { AccountButton } from './components/AccountButton/AccountButton.js';
export { NetworkButton } from './components/NetworkButton/NetworkButton.js';
export { useConnectEntries, useWalletList } from './hooks/useWalletList.js';

export { darkTheme, lightTheme, type ThemeMode, type ThemeVariables } from './themes/index.js';
export { LOCALES } from './locales/index.js';
export type { Locale, MessageKey, Messages, Translate } from './locales/index.js';
