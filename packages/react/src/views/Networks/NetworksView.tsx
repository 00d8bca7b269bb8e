import { parseCaipNetworkId } from '@latch/wasm';
import { useState } from 'react';
import { useLatchInstance } from '../../context.js';
import { NetworkSwitchError } from '../../core/connection.js';
import type { Network } from '../../core/types.js';
import { useStore } from '../../hooks/useStore.js';
import type { MessageKey } from '../../locales/index.js';

const FAILURE_MESSAGES: Record<NetworkSwitchError['kind'], MessageKey> = {
  rejected: 'networkSwitchRejected',
  unsupported: 'chainNotSupported',
  failed: 'networkSwitchFailed',
};

/** How the picker names a namespace (chain family names, the same in every language). */
const NAMESPACE_NAMES: Record<string, string> = { eip155: 'EVM', solana: 'Solana' };

/** The network picker (behaviour 3.5): the host's networks; choosing one asks the wallet to switch. */
export function NetworksView() {
  const latch = useLatchInstance();
  const { caipNetworkId } = useStore(latch.account);
  const { status, connectors, activeConnectorId } = useStore(latch.connection);
  // Follows `addNetwork` / `removeNetwork` (behaviour 3.8).
  const { networks: all } = useStore(latch.networksStore);
  // A switch or connection of a namespace under way elsewhere (the modal's loading map) blocks its rows too.
  const { namespaceLoading } = useStore(latch.modal.store);
  // A wallet signs for one namespace: other namespaces' networks are not offered while connected.
  // The embedded wallet signs for both (issue 28).
  const active = connectors.find(({ id }) => id === activeConnectorId);
  const both = active !== undefined && active.namespace !== 'solana' && active.solana !== undefined;
  const namespace = status === 'connected' && caipNetworkId && !both ? parseCaipNetworkId(caipNetworkId).namespace : undefined;
  const networks = namespace ? all.filter((network) => network.chainNamespace === namespace) : all;
  const hidden = networks.length < all.length;
  const [pending, setPending] = useState<string>();
  const [failure, setFailure] = useState<MessageKey>();

  async function choose(network: Network) {
    if (network.caipNetworkId === caipNetworkId) return latch.modal.back();
    setPending(network.caipNetworkId);
    setFailure(undefined);
    try {
      await latch.switchNetwork(network);
    } catch (error) {
      setFailure(error instanceof NetworkSwitchError ? FAILURE_MESSAGES[error.kind] : 'networkSwitchFailed');
    } finally {
      setPending(undefined);
    }
  }

  return (
    <div className="latch-view">
      <ul className="latch-rows latch-networks" aria-label={latch.t('networksTitle')} data-testid="network-picker">
        {networks.map((network) => {
          const current = network.caipNetworkId === caipNetworkId;
          return (
            <li key={network.caipNetworkId}>
              <button
                type="button"
                className="latch-network"
                data-testid={`network-${network.caipNetworkId}`}
                aria-current={current ? 'true' : undefined}
                aria-busy={pending === network.caipNetworkId}
                disabled={pending !== undefined || namespaceLoading[network.chainNamespace] === true}
                onClick={() => void choose(network)}
              >
                <span>{network.name}</span>
                {current ? <span className="latch-network-state">{latch.t('networkCurrent')}</span> : null}
                {pending === network.caipNetworkId ? (
                  <span className="latch-network-state">{latch.t('networkSwitching')}</span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
      {hidden ? (
        <p className="latch-message" data-testid="networks-other-namespace">
          {latch.t('networksOtherNamespace', { namespace: NAMESPACE_NAMES[namespace!] ?? namespace! })}
        </p>
      ) : null}
      {failure ? (
        <p role="alert" className="latch-message latch-message--error" data-testid="network-error">
          {latch.t(failure)}
        </p>
      ) : null}
    </div>
  );
}
