import { useEffect, useId, type FormEvent } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import { FormField } from '../Form.js';
import { registerNameControllerFor } from './registerNameController.js';
import { registerNameViewStyles } from './RegisterAccountNameView.styles.js';

/**
 * RegisterAccountName (behaviour 1.1, 5.12 "Name registration"): a label checked against latch-core's rule
 * (behaviour 5.11) as it is typed, its availability and suggestions, then the wallet signs and the server
 * registers.
 */
export function RegisterAccountNameView() {
  const latch = useLatchInstance();
  const names = registerNameControllerFor(latch);
  const state = useStore(names.store);
  const ids = { input: useId(), hint: useId(), status: useId(), error: useId() };

  useEffect(() => {
    void names.loadOwned();
  }, [names]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void names.submit();
  };

  const status = state.invalid
    ? undefined
    : state.checking
      ? latch.t('registerNameChecking')
      : state.available
        ? latch.t('registerNameAvailable', { name: state.available })
        : undefined;
  // A broken rule, a taken name and behaviour 5.12's errors are all alerts beside the field.
  const problem = state.invalid
    ? latch.t(state.invalid)
    : state.error
      ? latch.t(state.error.key, state.error.values)
      : state.taken
        ? latch.t('registerNameTaken', { name: state.taken })
        : undefined;
  const described = [ids.hint, status ? ids.status : '', problem ? ids.error : ''].filter(Boolean).join(' ');

  return (
    <form className="latch-view" data-testid="register-name-view" onSubmit={onSubmit} noValidate>
      <style>{registerNameViewStyles}</style>
      {state.owned.length > 0 ? (
        <p className="latch-message" data-testid="register-name-owned">
          {latch.t('registerNameOwned', { names: state.owned.join(', ') })}
        </p>
      ) : null}
      <FormField id={ids.input} label={latch.t('registerNameLabel')}>
        <input
          id={ids.input}
          className="latch-form-input"
          data-testid="register-name-input"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={state.input}
          aria-invalid={state.invalid || state.taken ? true : undefined}
          aria-describedby={described}
          disabled={state.submitting}
          onChange={(event) => names.setInput(event.target.value)}
        />
        <span className="latch-form-label" id={ids.hint}>
          {latch.t('registerNameHint')}
        </span>
      </FormField>
      <p className="latch-message" role="status" id={ids.status} data-testid="register-name-status">
        {status}
      </p>
      {problem ? (
        <p className="latch-message latch-message--error" role="alert" id={ids.error} data-testid="register-name-error">
          {problem}
        </p>
      ) : null}
      {state.suggestions.length > 0 ? (
        <div className="latch-form-field">
          <span className="latch-form-label">{latch.t('registerNameSuggestions')}</span>
          <ul className="latch-register-suggestions" aria-label={latch.t('registerNameSuggestions')}>
            {state.suggestions.map(({ name, registered }) => (
              <li key={name}>
                <Button
                  data-testid="register-name-suggestion"
                  disabled={registered || state.submitting}
                  // A suggestion is a full name; the field holds its label.
                  onClick={() => names.setInput(name.split('.')[0] ?? name)}
                >
                  {registered ? latch.t('registerNameSuggestionTaken', { name }) : name}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Button
        variant="primary"
        type="submit"
        data-testid="register-name-submit"
        disabled={!state.available || state.submitting}
        aria-busy={state.submitting}
      >
        {state.submitting
          ? latch.t('registerNameSigning')
          : state.available
            ? latch.t('registerNameSubmit', { name: state.available })
            : latch.t('registerNameSubmitIdle')}
      </Button>
    </form>
  );
}
