import { formatBalance, truncateAddress } from '@latch/wasm';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { serverRefusal } from '../../core/gateway.js';
import { useStore } from '../../hooks/useStore.js';

/** The connected address and its native balance. */
export function AccountView() {
  const latch = useLatchInstance();
  const { address, balance, balanceSymbol, balanceStatus, balanceError } = useStore(latch.account);
  if (!address) return null;

  return (
    <div className="latch-view latch-account">
      <p className="latch-account-address" data-testid="account-address" title={address}>
        {truncateAddress(address)}
      </p>
      <div className="latch-account-balance" data-testid="account-balance" aria-busy={balanceStatus === 'loading'}>
        {balanceStatus === 'ready' ? (
          formatBalance(balance, balanceSymbol)
        ) : balanceStatus === 'error' ? (
          <>
            <span className="latch-message--error" role="alert">
              {latch.t(serverRefusal(balanceError) ?? 'balanceUnavailable')}
            </span>
            <Button onClick={() => void latch.refreshBalance()}>{latch.t('retry')}</Button>
          </>
        ) : (
          <span className="latch-account-balance--loading">{latch.t('balanceLoading')}</span>
        )}
      </div>
      <Button data-testid="account-disconnect" onClick={latch.disconnect}>
        {latch.t('disconnect')}
      </Button>
    </div>
  );
}
