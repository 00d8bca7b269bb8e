export const registerNameViewStyles = `
.latch-register-field {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.4);
}
.latch-register-label,
.latch-register-hint {
  color: var(--latch-color-foreground-muted);
  font-size: calc(var(--latch-font-size-master) * 1.2);
}
.latch-register-row {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 0.6);
}
.latch-register-input {
  flex: 1;
  min-width: 0;
  box-sizing: border-box;
  padding: calc(var(--latch-font-size-master) * 1);
  border: 1px solid var(--latch-color-surface-hover);
  border-radius: calc(var(--latch-border-radius-master) * 3);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font: inherit;
}
.latch-register-input:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
.latch-register-input[aria-invalid='true'] {
  border-color: var(--latch-color-error);
}
.latch-register-suggestions {
  display: flex;
  flex-wrap: wrap;
  gap: calc(var(--latch-font-size-master) * 0.6);
  margin: 0;
  padding: 0;
  list-style: none;
}
`;
