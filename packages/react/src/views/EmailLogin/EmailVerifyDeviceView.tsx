import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { emailLoginStyles } from './EmailLogin.styles.js';
import { useEmbeddedWallet } from './useEmbeddedWallet.js';

/**
 * A known user on a new device: latch mailed a link that approves this browser. Once it is opened
 * (anywhere), Continue asks for the login code; a new device then recovers its wallet with the
 * recovery password, in the wallet frame.
 */
// wallet.ts's DEVICE_NOT_APPROVED, spelled out: importing it would pull that module into this chunk.
const DEVICE_NOT_APPROVED = 'DEVICE_NOT_APPROVED';

export function EmailVerifyDeviceView() {
  const latch = useLatchInstance();
  const { wallet, state } = useEmbeddedWallet();
  const error = state.error === DEVICE_NOT_APPROVED ? latch.t('deviceNotApproved') : state.error;
  return (
    <div className="latch-view latch-email-login">
      <style>{emailLoginStyles}</style>
      <p className="latch-message" data-testid="device-sent-to">
        {latch.t('deviceSentTo', { email: state.email ?? '' })}
      </p>
      {error ? (
        <p role="alert" className="latch-message latch-message--error" data-testid="device-error">
          {error}
        </p>
      ) : null}
      <Button
        variant="primary"
        disabled={!wallet || state.busy}
        onClick={() => void wallet?.continueDevice()}
        data-testid="device-continue"
      >
        {latch.t('deviceContinue')}
      </Button>
    </div>
  );
}
