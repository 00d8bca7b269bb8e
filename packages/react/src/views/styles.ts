import { modalStyles } from '../components/Modal/Modal.styles.js';
import { modalHeaderStyles } from '../components/ModalHeader/ModalHeader.styles.js';
import { walletButtonStyles } from '../components/WalletButton/WalletButton.styles.js';
import { virtualListStyles } from '../components/VirtualList/VirtualList.styles.js';
import { accountViewStyles } from './Account/AccountView.styles.js';
import { allWalletsViewStyles } from './AllWallets/AllWalletsView.styles.js';
import { connectViewStyles } from './Connect/ConnectView.styles.js';
import { connectingExternalViewStyles } from './ConnectingExternal/ConnectingExternalView.styles.js';
import { pairingQrStyles } from '../components/PairingQr/PairingQr.styles.js';
import { connectingWalletConnectViewStyles } from './ConnectingWalletConnect/ConnectingWalletConnectView.styles.js';
import { downloadsViewStyles } from './Downloads/DownloadsView.styles.js';
import { networksViewStyles } from './Networks/NetworksView.styles.js';
import { formStyles } from './Form.js';
import { siwxSignMessageViewStyles } from './SIWXSignMessage/SIWXSignMessageView.styles.js';

/** The CSS of the modal and its views, rendered by `Modal` (in the modal's lazily loaded chunk). */
export const modalViewStyles = [
  modalStyles,
  modalHeaderStyles,
  connectViewStyles,
  connectingExternalViewStyles,
  accountViewStyles,
  siwxSignMessageViewStyles,
  networksViewStyles,
  walletButtonStyles,
  virtualListStyles,
  allWalletsViewStyles,
  downloadsViewStyles,
  pairingQrStyles,
  connectingWalletConnectViewStyles,
  formStyles,
].join('');
