import { useLatchInstance } from '../../context.js';
import { useLatchAccount } from '../../hooks/useLatch.js';
import { useLatchNetwork } from '../../hooks/useLatchApi.js';
import { useThemeStyle } from '../../hooks/useThemeStyle.js';

/**
 * The active network (behaviour 3.5: the wallet's when connected, else the one restored at start),
 * or "Unsupported network" on the placeholder; busy while its namespace connects or switches.
 * Opens the network picker when connected, else Connect.
 */
export function NetworkButton() {
  const latch = useLatchInstance();
  const themeStyle = useThemeStyle();
  const { status } = useLatchAccount();
  const { activeNetwork, isSupported, isLoading } = useLatchNetwork();
  const connected = status === 'connected';
  return (
    <button
      type="button"
      className="latch-connect-button latch-network-button"
      data-testid="network-button"
      data-caip-network-id={activeNetwork.caipNetworkId}
      data-unsupported={isSupported ? undefined : 'true'}
      aria-busy={isLoading}
      style={themeStyle}
      onClick={() => latch.modal.open({ view: connected ? 'Networks' : 'Connect' })}
    >
      {isSupported ? activeNetwork.name : latch.t('networkUnsupported')}
    </button>
  );
}
