// The form parts Send, Swap, Buy and RegisterAccountName share: once in the modal's CSS rather
// than a copy in each view's lazy chunk.
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
