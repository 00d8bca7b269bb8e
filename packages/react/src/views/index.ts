import type { ComponentType } from 'react';
import type { ViewName } from '../core/modal.js';
import type { MessageKey } from '../locales/index.js';
import { AccountView } from './Account/AccountView.js';
import { AllWalletsView } from './AllWallets/AllWalletsView.js';
import { DownloadsView } from './Downloads/DownloadsView.js';
import { ConnectView } from './Connect/ConnectView.js';
import { ConnectingExternalView } from './ConnectingExternal/ConnectingExternalView.js';
import {
  ConnectingWalletConnectBasicView,
  ConnectingWalletConnectView,
} from './ConnectingWalletConnect/ConnectingWalletConnectView.js';
import { NetworksView } from './Networks/NetworksView.js';
import { ConnectingSiweView, SIWXSignMessageView } from './SIWXSignMessage/SIWXSignMessageView.js';
import { UnsupportedChainView } from './UnsupportedChain/UnsupportedChainView.js';
import { lazyView } from './lazyView.js';

// Behaviour 1.9: optional parts are chunks of their own, fetched when first shown or preloaded.
const receive = lazyView(() => import('./Receive/ReceiveView.js').then((module) => module.ReceiveView));
const send = lazyView(() => import('./Send/SendView.js').then((module) => module.SendView));
// The two name views are one chunk: both import the same module.
const names = () => import('./RegisterAccountName/index.js');
const registerName = lazyView(() => names().then((module) => module.RegisterAccountNameView));
const registerNameSuccess = lazyView(() => names().then((module) => module.RegisterAccountNameSuccessView));
const buy = lazyView(() => import('./Buy/BuyView.js').then((module) => module.BuyView));
const swap = lazyView(() => import('./Swap/SwapView.js').then((module) => module.SwapView));
// The embedded wallet's e-mail login: one chunk with the Connect view's e-mail field.
const emailVerifyOtp = lazyView(() => import('./EmailLogin/index.js').then((module) => module.EmailVerifyOtpView));
const emailVerifyDevice = lazyView(() => import('./EmailLogin/index.js').then((module) => module.EmailVerifyDeviceView));
// The embedded user's e-mail update: its three views are one chunk, opened from Account.
const updateEmail = () => import('./UpdateEmail/index.js');
const updateEmailWallet = lazyView(() => updateEmail().then((module) => module.UpdateEmailView));
const updateEmailPrimaryOtp = lazyView(() => updateEmail().then((module) => module.UpdateEmailPrimaryOtpView));
const updateEmailSecondaryOtp = lazyView(() => updateEmail().then((module) => module.UpdateEmailSecondaryOtpView));

// The embedded wallet's approval: a chunk of its own, opened by a signing request.
const approveTransaction = lazyView(() =>
  import('./ApproveTransaction/ApproveTransactionView.js').then((module) => module.ApproveTransactionView),
);

export interface ViewEntry {
  /** The message key of its header title. */
  title: MessageKey;
  Component: ComponentType;
  /** A lazily loaded view's chunk, fetched ahead of the click. */
  preload?: () => Promise<unknown>;
}

/** Every router view with the message key of its header title. */
export const views: Record<ViewName, ViewEntry> = {
  Connect: { title: 'connectTitle', Component: ConnectView },
  ConnectingExternal: { title: 'connectingTitle', Component: ConnectingExternalView },
  ConnectingWalletConnect: { title: 'connectingTitle', Component: ConnectingWalletConnectView },
  ConnectingWalletConnectBasic: { title: 'walletConnect', Component: ConnectingWalletConnectBasicView },
  Account: { title: 'accountTitle', Component: AccountView },
  UnsupportedChain: { title: 'unsupportedChainTitle', Component: UnsupportedChainView },
  SIWXSignMessage: { title: 'signInTitle', Component: SIWXSignMessageView },
  ConnectingSiwe: { title: 'signInTitle', Component: ConnectingSiweView },
  Networks: { title: 'networksTitle', Component: NetworksView },
  AllWallets: { title: 'allWalletsTitle', Component: AllWalletsView },
  Downloads: { title: 'downloadsTitle', Component: DownloadsView },
  Receive: { title: 'receiveTitle', ...receive },
  Send: { title: 'sendTitle', ...send },
  RegisterAccountName: { title: 'registerNameTitle', ...registerName },
  RegisterAccountNameSuccess: { title: 'registerNameSuccessTitle', ...registerNameSuccess },
  Onramp: { title: 'buyTitle', ...buy },
  Swap: { title: 'swapTitle', ...swap },
  EmailVerifyOtp: { title: 'otpTitle', ...emailVerifyOtp },
  EmailVerifyDevice: { title: 'deviceTitle', ...emailVerifyDevice },
  UpdateEmailWallet: { title: 'updateEmailTitle', ...updateEmailWallet },
  UpdateEmailPrimaryOtp: { title: 'updateEmailPrimaryTitle', ...updateEmailPrimaryOtp },
  UpdateEmailSecondaryOtp: { title: 'updateEmailSecondaryTitle', ...updateEmailSecondaryOtp },
  ApproveTransaction: { title: 'approveTitle', ...approveTransaction },
};
