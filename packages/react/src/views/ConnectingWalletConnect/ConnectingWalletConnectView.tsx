import { buildNativeDeepLink, buildUniversalLink } from '@latch/wasm';
import { PairingQr } from '../../components/PairingQr/PairingQr.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import { isMobileBrowser } from '../../core/platform.js';
import type { CatalogueWallet } from '../../core/catalogue.js';
import type { WalletConnectController } from '../../core/walletConnect.js';
import { WalletHeading } from '../../components/WalletHeading/WalletHeading.js';

/** A link from the catalogue, or none when the catalogue's text cannot make one. */
function link(build: (app: string, uri: string) => string, app: string | null | undefined, uri: string | undefined) {
  if (!app || !uri) return undefined;
  try {
    return build(app, uri);
  } catch {
    return undefined;
  }
}

/** The wallet's own ways to take the pairing link: its app on this device, its web app. */
function walletLinks(wallet: CatalogueWallet, uri: string | undefined) {
  const app = isMobileBrowser() ? wallet.mobile_link : wallet.desktop_link;
  return { app: link(buildNativeDeepLink, app, uri), web: link(buildUniversalLink, wallet.webapp_link, uri) };
}

/**
 * Behaviour 1.1 ConnectingWalletConnect: pairing with a chosen catalogue wallet. The QR code for a
 * phone, the wallet's deep link (its app on this device) and web app when the catalogue has them,
 * and the wallet's downloads.
 */
export function ConnectingWalletConnectView() {
  const { walletConnect } = useLatchInstance();
  return walletConnect ? <WalletPairing walletConnect={walletConnect} /> : null;
}

function WalletPairing({ walletConnect }: { walletConnect: WalletConnectController }) {
  const latch = useLatchInstance();
  const { wallet, uri } = useStore(walletConnect.store);
  if (!wallet) return null;
  const values = { wallet: wallet.name };
  const links = walletLinks(wallet, uri);

  return (
    <div className="latch-view latch-connecting-wc" data-testid="connecting-walletconnect">
      <WalletHeading wallet={wallet} />
      {links.app ? (
        <a className="latch-button latch-button--primary" href={links.app} data-testid="wc-open-app">
          {latch.t('walletConnectOpen', values)}
        </a>
      ) : null}
      <PairingQr walletConnect={walletConnect} />
      <p className="latch-message">{latch.t('walletConnectScanWallet', values)}</p>
      {links.web ? (
        <a
          className="latch-button latch-button--secondary"
          href={links.web}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="wc-open-web"
        >
          {latch.t('walletConnectOpenWeb', values)}
          <span className="latch-visually-hidden"> {latch.t('opensInNewTab')}</span>
        </a>
      ) : null}
      <button
        type="button"
        className="latch-link"
        data-testid="wc-get-wallet"
        onClick={() => latch.modal.push('Downloads')}
      >
        {latch.t('walletConnectGet', values)}
      </button>
    </div>
  );
}

/** Behaviour 1.1 ConnectingWalletConnectBasic: the plain QR code any WalletConnect wallet can scan. */
export function ConnectingWalletConnectBasicView() {
  const latch = useLatchInstance();
  if (!latch.walletConnect) return null;
  return (
    <div className="latch-view latch-connecting-wc" data-testid="connecting-walletconnect-basic">
      <PairingQr walletConnect={latch.walletConnect} />
      <p className="latch-message">{latch.t('walletConnectScan')}</p>
    </div>
  );
}
