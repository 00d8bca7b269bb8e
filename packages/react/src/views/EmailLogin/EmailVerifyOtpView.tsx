import { useLatchInstance } from '../../context.js';
import { OtpForm } from './OtpForm.js';
import { useEmbeddedWallet } from './useEmbeddedWallet.js';

/** The one-time code view: the code mailed to the address, and a new one after 30 s (behaviour 7.1). */
export function EmailVerifyOtpView() {
  const latch = useLatchInstance();
  const { wallet, state } = useEmbeddedWallet();
  return (
    <OtpForm
      message={latch.t('otpSentTo', { email: state.email ?? '' })}
      testId="otp"
      ready={Boolean(wallet)}
      busy={state.busy}
      error={state.error}
      resendAt={state.resendAt}
      onSubmit={(otp) => void wallet?.submitOtp(otp)}
      onResend={() => void wallet?.resend()}
    />
  );
}
