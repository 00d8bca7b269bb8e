export const swapViewStyles = `
.latch-swap-field {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.4);
}
.latch-swap-label {
  color: var(--latch-color-foreground-muted);
  font-size: calc(var(--latch-font-size-master) * 1.2);
}
.latch-swap-input {
  width: 100%;
  box-sizing: border-box;
  padding: calc(var(--latch-font-size-master) * 1);
  border: 1px solid var(--latch-color-surface-hover);
  border-radius: calc(var(--latch-border-radius-master) * 3);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font: inherit;
}
.latch-swap-input:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
.latch-swap-row {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 0.6);
}
.latch-swap-row > .latch-swap-input {
  flex: 1;
}
.latch-swap-quote {
  display: grid;
  grid-template-columns: auto 1fr;
  gap: calc(var(--latch-font-size-master) * 0.4) calc(var(--latch-font-size-master) * 1);
  margin: 0;
  font-size: calc(var(--latch-font-size-master) * 1.3);
}
.latch-swap-quote dt {
  color: var(--latch-color-foreground-muted);
}
.latch-swap-quote dd {
  margin: 0;
  text-align: end;
  overflow-wrap: anywhere;
}
.latch-swap-warning {
  color: var(--latch-color-error);
}
`;
