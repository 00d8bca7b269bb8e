import type { Connector, Eip1193Provider, Eip6963ProviderDetail } from './types.js';

/** The connector id of a legacy `window.ethereum` wallet (spec §1 `injected`). */
export const INJECTED_CONNECTOR_ID = 'injected';

/**
 * How long after discovery starts a `window.ethereum` is taken for a wallet that does not announce
 * itself: announcing wallets answer the request at once, so any that share the object are known by then.
 */
export const LEGACY_INJECTED_WAIT_MS = 300;

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

/**
 * Offers a legacy `window.ethereum` (a wallet without EIP-6963) as the browser wallet (spec §5),
 * unless it is the provider of a wallet that announced itself. Nothing is offered when there is
 * none, so a desktop without a wallet shows no such entry. Returns the cleanup.
 */
export function watchLegacyInjected(
  target: Window,
  { name, isAnnounced, onConnector }: {
    name: string;
    isAnnounced: (provider: Eip1193Provider) => boolean;
    onConnector: (connector: Connector) => void;
  },
): () => void {
  const timer = setTimeout(() => {
    const provider = (target as unknown as { ethereum?: Partial<Eip1193Provider> }).ethereum;
    if (!provider || typeof provider.request !== 'function' || typeof provider.on !== 'function') return;
    const eip1193 = provider as Eip1193Provider;
    if (isAnnounced(eip1193)) return;
    onConnector({ id: INJECTED_CONNECTOR_ID, type: 'INJECTED', name, imageUrl: '', rdns: '', provider: eip1193 });
  }, LEGACY_INJECTED_WAIT_MS);
  return () => clearTimeout(timer);
}
