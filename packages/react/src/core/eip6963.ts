import type { Connector, Eip6963ProviderDetail } from './types.js';

const ANNOUNCE_EVENT = 'eip6963:announceProvider';
const REQUEST_EVENT = 'eip6963:requestProvider';

/**
 * Listens for wallets announcing themselves (EIP-6963) and asks the already loaded ones to
 * announce again. Wallets re-announce on every request, so the receiver de-duplicates.
 * Returns the cleanup that stops listening.
 */
export function watchAnnouncedWallets(
  target: Window,
  onConnector: (connector: Connector) => void,
): () => void {
  function onAnnounce(event: Event) {
    const detail = (event as CustomEvent<Partial<Eip6963ProviderDetail> | null>).detail;
    if (!detail?.info?.uuid || !detail.provider) return;
    const { uuid, rdns, name, icon } = detail.info;
    onConnector({ id: uuid, type: 'ANNOUNCED', name, imageUrl: icon, rdns, provider: detail.provider });
  }

  target.addEventListener(ANNOUNCE_EVENT, onAnnounce);
  target.dispatchEvent(new Event(REQUEST_EVENT));
  return () => target.removeEventListener(ANNOUNCE_EVENT, onAnnounce);
}
