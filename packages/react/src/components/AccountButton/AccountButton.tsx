import { formatBalance, truncateAddress } from '@latch/wasm';
import { useLatchInstance } from '../../context.js';
import { useLatchAccount } from '../../hooks/useLatch.js';
import { useThemeStyle } from '../../hooks/useThemeStyle.js';

/** The connected account's balance and address; opens Account. Renders nothing while disconnected. */
export function AccountButton() {
  const latch = useLatchInstance();
  const themeStyle = useThemeStyle();
  const { status, address, balance, balanceSymbol, balanceStatus } = useLatchAccount();
  if (status !== 'connected' || !address) return null;
  return (
    <button
      type="button"
      className="latch-connect-button latch-account-button"
      data-testid="account-button"
      style={themeStyle}
      onClick={() => latch.modal.open({ view: 'Account' })}
    >
      {balanceStatus === 'ready' ? <span className="latch-account-button-balance">{formatBalance(balance, balanceSymbol)}</span> : null}
      <span>{truncateAddress(address)}</span>
    </button>
  );
}
