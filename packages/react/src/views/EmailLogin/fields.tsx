// The embedded wallet's form parts: the login's e-mail field is the update-e-mail view's field too,
// and every one of its forms shows an error the same way. In the chunk the two views share.
import type { ReactNode } from 'react';
import { useLatchInstance } from '../../context.js';

export interface EmailInputProps {
  id: string;
  value: string;
  onChange(value: string): void;
  /** The id of the error shown under the field, while there is one: the field is invalid then. */
  errorId: string | undefined;
  testId: string;
}

/** An e-mail address field: the e-mail keyboard and the browser's autofill for it. */
export function EmailInput({ id, value, onChange, errorId, testId }: EmailInputProps) {
  const latch = useLatchInstance();
  return (
    <input
      id={id}
      className="latch-email-input"
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder={latch.t('emailPlaceholder')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      aria-invalid={errorId !== undefined}
      aria-describedby={errorId}
      data-testid={testId}
    />
  );
}

/** A form's error, announced when it appears; `id` is what the field's `aria-describedby` names. */
export function FieldError({ id, testId, children }: { id: string; testId: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="latch-message latch-message--error" data-testid={testId}>
      {children}
    </p>
  );
}
