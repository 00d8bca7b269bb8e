import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';

/** Shown while the wallet is on a network the host did not configure. */
export function UnsupportedChainView() {
  const latch = useLatchInstance();
  return (
    <div className="latch-view">
      <p className="latch-message">
        {latch.t('unsupportedChainBody', { network: latch.defaultNetwork.name })}
      </p>
      <Button variant="primary" data-testid="unsupported-switch" onClick={() => latch.modal.push('Networks')}>
        {latch.t('switchNetwork')}
      </Button>
      <Button onClick={latch.disconnect}>{latch.t('disconnect')}</Button>
    </div>
  );
}
