import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import type { Latch } from '../../core/createLatch.js';
import { emailLoginStyles } from '../EmailLogin/EmailLogin.styles.js';
import { EmailInput, FieldError } from '../EmailLogin/fields.js';
import { OtpForm } from '../EmailLogin/OtpForm.js';
import { useEmbeddedWallet } from '../EmailLogin/useEmbeddedWallet.js';

// wallet.ts's UPDATE_EMAIL_SAME and UPDATE_EMAIL_TAKEN, spelled out: importing them would pull that
// module into this chunk.
const UPDATE_EMAIL_SAME = 'UPDATE_EMAIL_SAME';
const UPDATE_EMAIL_TAKEN = 'EMAIL_TAKEN';

/** The store's error, with the update's own refusals in the user's language. */
function updateError(latch: Latch, error: string | undefined): string | undefined {
  if (error === UPDATE_EMAIL_SAME) return latch.t('updateEmailSame');
  if (error === UPDATE_EMAIL_TAKEN) return latch.t('updateEmailTaken');
  return error;
}

/** An embedded-wallet user's new e-mail (behaviour 5.15 "update e-mail"): the first step. */
export function UpdateEmailView() {
  const latch = useLatchInstance();
  const { wallet, state } = useEmbeddedWallet();
  const [email, setEmail] = useState(state.newEmail ?? '');
  const inputId = useId();
  const errorId = useId();
  const error = updateError(latch, state.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    void wallet?.updateEmail(email);
  }

  return (
    <form className="latch-view latch-email-login" onSubmit={submit} noValidate>
      <style>{emailLoginStyles}</style>
      <p className="latch-message" data-testid="update-email-current">
        {latch.t('updateEmailCurrent', { email: state.user?.email ?? '' })}
      </p>
      <label htmlFor={inputId}>{latch.t('updateEmailLabel')}</label>
      <EmailInput id={inputId} value={email} onChange={setEmail} errorId={error ? errorId : undefined} testId="update-email-input" />
      {error ? (
        <FieldError id={errorId} testId="update-email-error">
          {error}
        </FieldError>
      ) : null}
      <Button type="submit" variant="primary" disabled={!wallet || state.busy || !email.trim()} data-testid="update-email-submit">
        {latch.t('emailSubmit')}
      </Button>
    </form>
  );
}

/** The code mailed to the current address: it proves the change comes from its owner. */
export function UpdateEmailPrimaryOtpView() {
  const latch = useLatchInstance();
  const { wallet, state } = useEmbeddedWallet();
  return (
    <OtpForm
      message={latch.t('updateEmailPrimarySentTo', { email: state.user?.email ?? '' })}
      testId="update-email-primary-otp"
      ready={Boolean(wallet)}
      busy={state.busy}
      error={updateError(latch, state.error)}
      resendAt={state.resendAt}
      onSubmit={(otp) => void wallet?.submitUpdatePrimaryOtp(otp)}
      onResend={() => void wallet?.resendUpdate()}
    />
  );
}

/** The code mailed to the new address: it proves the address is the user's; then Account. */
export function UpdateEmailSecondaryOtpView() {
  const latch = useLatchInstance();
  const { wallet, state } = useEmbeddedWallet();
  return (
    <OtpForm
      message={latch.t('updateEmailSecondarySentTo', { email: state.newEmail ?? '' })}
      testId="update-email-secondary-otp"
      ready={Boolean(wallet)}
      busy={state.busy}
      error={updateError(latch, state.error)}
      resendAt={state.resendAt}
      onSubmit={(otp) => void wallet?.submitUpdateSecondaryOtp(otp)}
      onResend={() => void wallet?.resendUpdate()}
    />
  );
}
