import { buttonStyles } from './components/Button/Button.styles.js';
import { connectButtonStyles } from './components/ConnectButton/ConnectButton.styles.js';
import { modalStyles } from './components/Modal/Modal.styles.js';
import { modalHeaderStyles } from './components/ModalHeader/ModalHeader.styles.js';
import { accountViewStyles } from './views/Account/AccountView.styles.js';
import { connectViewStyles } from './views/Connect/ConnectView.styles.js';
import { connectingExternalViewStyles } from './views/ConnectingExternal/ConnectingExternalView.styles.js';
import { siwxSignMessageViewStyles } from './views/SIWXSignMessage/SIWXSignMessageView.styles.js';
import { networksViewStyles } from './views/Networks/NetworksView.styles.js';
import { toastStyles } from './components/Toast/Toast.styles.js';
import { walletButtonStyles } from './components/WalletButton/WalletButton.styles.js';
import { virtualListStyles } from './components/VirtualList/VirtualList.styles.js';
import { allWalletsViewStyles } from './views/AllWallets/AllWalletsView.styles.js';
import { downloadsViewStyles } from './views/Downloads/DownloadsView.styles.js';

/** Every component's CSS, rendered once by `LatchProvider`. */
export const latchStyles = [
  buttonStyles,
  connectButtonStyles,
  modalStyles,
  modalHeaderStyles,
  connectViewStyles,
  connectingExternalViewStyles,
  accountViewStyles,
  siwxSignMessageViewStyles,
  networksViewStyles,
  toastStyles,
  walletButtonStyles,
  virtualListStyles,
  allWalletsViewStyles,
  downloadsViewStyles,
].join('');
