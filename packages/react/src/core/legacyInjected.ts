import type { Connector, Eip1193Provider } from './types.js';

/** The connector id of a legacy `window.ethereum` wallet (behaviour 2.1 `injected`). */
export const INJECTED_CONNECTOR_ID = 'injected';

/**
 * How long after discovery starts a `window.ethereum` is taken for a wallet that does not announce
 * itself: announcing wallets answer the request at once, so any that share the object are known by then.
 */
export const LEGACY_INJECTED_WAIT_MS = 300;

/**
 * Offers a legacy `window.ethereum` (a wallet without EIP-6963) as the browser wallet (behaviour 2.3),
 * unless it is the provider of a wallet that announced itself. Nothing is offered when there is
 * none, so a desktop without a wallet shows no such entry. Loaded by `mount` as a chunk of its own:
 * few wallets need it, and the entry's budget (issue 6) has no room. Nothing to clean up: the one
 * look adds at most a connector, which a remount's look finds listed already.
 */
export function lookOnce(
  target: Window,
  name: string,
  connection: { connection: { getState(): { connectors: readonly Connector[] } }; addConnector(connector: Connector): void },
): void {
  setTimeout(() => {
    const provider = (target as unknown as { ethereum?: Partial<Eip1193Provider> }).ethereum;
    if (typeof provider?.request !== 'function' || typeof provider.on !== 'function') return;
    const announced = connection.connection
      .getState()
      .connectors.some((connector) => connector.namespace !== 'solana' && connector.provider === provider);
    if (announced) return;
    connection.addConnector({
      id: INJECTED_CONNECTOR_ID,
      type: 'INJECTED',
      name,
      imageUrl: '',
      rdns: '',
      provider: provider as Eip1193Provider,
    });
  }, LEGACY_INJECTED_WAIT_MS);
}
