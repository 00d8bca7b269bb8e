import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { emailLoginStyles } from './EmailLogin.styles.js';
import { FieldError } from './fields.js';

export interface OtpFormProps {
  /** Where the code went, above the field. */
  message: ReactNode;
  /** The test-id prefix: `<prefix>-input`, `-submit`, `-resend`, `-error`. */
  testId: string;
  /** The store's state: no submit while busy or before the wallet loaded. */
  ready: boolean;
  busy: boolean;
  error?: string | undefined;
  /** When a new code may be asked for (ms since the epoch). */
  resendAt: number;
  onSubmit(otp: string): void;
  onResend(): void;
}

/**
 * A six-digit code form with the resend countdown (behaviour 7.1: a new code after 30 s): the
 * login's code view and the two codes of an e-mail update.
 */
export function OtpForm({ message, testId, ready, busy, error, resendAt, onSubmit, onResend }: OtpFormProps) {
  const latch = useLatchInstance();
  const [otp, setOtp] = useState('');
  const [now, setNow] = useState(() => Date.now());
  const inputId = useId();
  const errorId = useId();
  const wait = Math.max(0, Math.ceil((resendAt - now) / 1000));

  useEffect(() => {
    if (wait === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [wait, now]);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit(otp.trim());
  }

  return (
    <form className="latch-view latch-email-login" onSubmit={submit} noValidate>
      <style>{emailLoginStyles}</style>
      <p className="latch-message">{message}</p>
      <label htmlFor={inputId}>{latch.t('otpLabel')}</label>
      <input
        id={inputId}
        className="latch-email-input latch-otp-input"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={otp}
        onChange={(event) => setOtp(event.target.value.replace(/\D/g, ''))}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
        data-testid={`${testId}-input`}
      />
      {error ? (
        <FieldError id={errorId} testId={`${testId}-error`}>
          {error}
        </FieldError>
      ) : null}
      <Button type="submit" variant="primary" disabled={!ready || busy || otp.length !== 6} data-testid={`${testId}-submit`}>
        {latch.t('otpSubmit')}
      </Button>
      <Button disabled={!ready || busy || wait > 0} onClick={onResend} data-testid={`${testId}-resend`}>
        {wait > 0 ? latch.t('otpResendIn', { seconds: String(wait) }) : latch.t('otpResend')}
      </Button>
    </form>
  );
}
