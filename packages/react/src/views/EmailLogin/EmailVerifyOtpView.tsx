import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { emailLoginStyles } from './EmailLogin.styles.js';
import { useEmbeddedWallet } from './useEmbeddedWallet.js';

/** The one-time code view: the code mailed to the address, and a new one after 30 s (behaviour 7.1). */
export function EmailVerifyOtpView() {
  const latch = useLatchInstance();
  const { wallet, state } = useEmbeddedWallet();
  const [otp, setOtp] = useState('');
  const [now, setNow] = useState(() => Date.now());
  const inputId = useId();
  const errorId = useId();
  const wait = Math.max(0, Math.ceil((state.resendAt - now) / 1000));

  useEffect(() => {
    if (wait === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [wait, now]);

  function submit(event: FormEvent) {
    event.preventDefault();
    void wallet?.submitOtp(otp.trim());
  }

  return (
    <form className="latch-view latch-email-login" onSubmit={submit} noValidate>
      <style>{emailLoginStyles}</style>
      <p className="latch-message">{latch.t('otpSentTo', { email: state.email ?? '' })}</p>
      <label htmlFor={inputId}>{latch.t('otpLabel')}</label>
      <input
        id={inputId}
        className="latch-email-input latch-otp-input"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={otp}
        onChange={(event) => setOtp(event.target.value.replace(/\D/g, ''))}
        aria-invalid={Boolean(state.error)}
        aria-describedby={state.error ? errorId : undefined}
        data-testid="otp-input"
      />
      {state.error ? (
        <p id={errorId} role="alert" className="latch-message latch-message--error" data-testid="otp-error">
          {state.error}
        </p>
      ) : null}
      <Button type="submit" variant="primary" disabled={!wallet || state.busy || otp.length !== 6} data-testid="otp-submit">
        {latch.t('otpSubmit')}
      </Button>
      <Button disabled={!wallet || state.busy || wait > 0} onClick={() => void wallet?.resend()} data-testid="otp-resend">
        {wait > 0 ? latch.t('otpResendIn', { seconds: String(wait) }) : latch.t('otpResend')}
      </Button>
    </form>
  );
}
