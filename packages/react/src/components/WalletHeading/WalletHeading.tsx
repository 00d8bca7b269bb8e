import { useLatchInstance } from '../../context.js';
import type { CatalogueWallet } from '../../core/catalogue.js';

/** A catalogue wallet's icon (when the catalogue has one) and name, above its links or pairing. */
export function WalletHeading({ wallet }: { wallet: CatalogueWallet }) {
  const latch = useLatchInstance();
  const imageUrl = latch.catalogue.walletImageUrl(wallet);
  return (
    <div className="latch-downloads-wallet">
      {imageUrl ? <img className="latch-downloads-icon" src={imageUrl} alt="" /> : null}
      <p className="latch-downloads-name">{wallet.name}</p>
    </div>
  );
}
