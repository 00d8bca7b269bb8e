// The form parts Send, Swap, Buy and RegisterAccountName share, in the modal's chunk (its CSS is
// in the modal's stylesheet) rather than a copy in each view's lazy chunk.
import type { InputHTMLAttributes, ReactNode } from 'react';
import { Button } from '../components/Button/Button.js';

export const formStyles = `
.latch-form-field {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.4);
}
.latch-form-label {
  color: var(--latch-color-foreground-muted);
  font-size: calc(var(--latch-font-size-master) * 1.2);
}
.latch-form-input {
  width: 100%;
  box-sizing: border-box;
  padding: calc(var(--latch-font-size-master) * 1);
  border: 1px solid var(--latch-color-surface-hover);
  border-radius: calc(var(--latch-border-radius-master) * 3);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font: inherit;
}
.latch-form-input:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
.latch-form-input[aria-invalid='true'] {
  border-color: var(--latch-color-error);
}
.latch-form-row {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 0.6);
}
.latch-form-row > .latch-form-input {
  flex: 1;
}
.latch-form-summary {
  display: grid;
  grid-template-columns: auto 1fr;
  gap: calc(var(--latch-font-size-master) * 0.4) calc(var(--latch-font-size-master) * 1);
  margin: 0;
}
.latch-form-summary dt {
  color: var(--latch-color-foreground-muted);
}
.latch-form-summary dd {
  margin: 0;
  text-align: end;
  overflow-wrap: anywhere;
}
`;

/** A field of a view's form: its label names the control `id`; `children` are the control and its notes. */
export function FormField({ id, label, children }: { id: string; label: string; children?: ReactNode }) {
  return (
    <div className="latch-form-field">
      <label className="latch-form-label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

export interface AmountInputProps extends InputHTMLAttributes<HTMLInputElement> {
  testId: string;
  maxLabel: string;
  maxTestId: string;
  maxDisabled?: boolean;
  onMax(): void;
}

/** An amount in whole units with Max beside it (Send, Swap). */
export function AmountInput({ testId, maxLabel, maxTestId, maxDisabled, onMax, ...input }: AmountInputProps) {
  return (
    <div className="latch-form-row">
      <input className="latch-form-input" data-testid={testId} inputMode="decimal" autoComplete="off" placeholder="0.0" {...input} />
      <Button data-testid={maxTestId} disabled={maxDisabled} onClick={onMax}>
        {maxLabel}
      </Button>
    </div>
  );
}
