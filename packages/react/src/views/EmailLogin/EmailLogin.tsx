import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { emailLoginStyles } from './EmailLogin.styles.js';
import { EmailInput, FieldError } from './fields.js';
import { SocialLogins } from './SocialLogins.js';
import { useEmbeddedWallet } from './useEmbeddedWallet.js';

/**
 * The Connect view's e-mail field (behaviour 1.10: e-mail first in the default connect-method order).
 * A chunk of its own with the embedded wallet's code: the frame loads when it first shows.
 */
export function EmailLogin() {
  const latch = useLatchInstance();
  const { wallet, state } = useEmbeddedWallet();
  const [email, setEmail] = useState(state.email ?? '');
  const inputId = useId();
  const errorId = useId();
  const showError = Boolean(state.error) && !latch.modal.store.getState().history.includes('EmailVerifyOtp');

  function submit(event: FormEvent) {
    event.preventDefault();
    void wallet?.submitEmail(email);
  }

  return (
    <form className="latch-email-login" onSubmit={submit} noValidate>
      <style>{emailLoginStyles}</style>
      <label className="latch-visually-hidden" htmlFor={inputId}>
        {latch.t('emailLabel')}
      </label>
      <div className="latch-email-row">
        <EmailInput id={inputId} value={email} onChange={setEmail} errorId={showError ? errorId : undefined} testId="email-input" />
        <Button type="submit" disabled={!wallet || state.busy || !email.trim()} data-testid="email-submit">
          {latch.t('emailSubmit')}
        </Button>
      </div>
      {showError ? (
        <FieldError id={errorId} testId="email-error">
          {state.error}
        </FieldError>
      ) : null}
      {wallet ? <SocialLogins wallet={wallet} busy={state.busy} /> : null}
    </form>
  );
}
