import { useLatchInstance } from '../../context.js';
import { useLatchAccount } from '../../hooks/useLatch.js';
import { useLatchNetwork } from '../../hooks/useLatchApi.js';
import { useThemeStyle } from '../../hooks/useThemeStyle.js';

/**
 * The network the wallet is on (the default network before connecting); opens the network
 * picker when connected, else Connect.
 */
export function NetworkButton() {
  const latch = useLatchInstance();
  const themeStyle = useThemeStyle();
  const { status } = useLatchAccount();
  const { caipNetwork, caipNetworkId } = useLatchNetwork();
  const connected = status === 'connected';
  const label = connected
    ? (caipNetwork?.name ?? latch.t('unsupportedChainTitle'))
    : latch.defaultNetwork.name;
  return (
    <button
      type="button"
      className="latch-connect-button latch-network-button"
      data-testid="network-button"
      data-caip-network-id={connected ? caipNetworkId : latch.defaultNetwork.caipNetworkId}
      style={themeStyle}
      onClick={() => latch.modal.open({ view: connected ? 'Networks' : 'Connect' })}
    >
      {label}
    </button>
  );
}
