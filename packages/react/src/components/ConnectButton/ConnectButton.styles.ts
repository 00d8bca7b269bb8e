export const connectButtonStyles = `
.latch-connect-button {
  display: inline-flex;
  align-items: center;
  min-height: calc(var(--latch-font-size-master) * 4);
  padding: 0 calc(var(--latch-font-size-master) * 1.6);
  border: none;
  border-radius: calc(var(--latch-border-radius-master) * 3);
  background: var(--latch-accent);
  color: var(--latch-accent-foreground);
  font-family: var(--latch-font-family);
  font-size: calc(var(--latch-font-size-master) * 1.4);
  font-weight: 600;
  font-variant-numeric: tabular-nums;
  cursor: pointer;
}
.latch-connect-button[data-status='connected'],
.latch-account-button,
.latch-network-button {
  background: var(--latch-color-background);
  color: var(--latch-color-foreground);
  box-shadow: inset 0 0 0 1px var(--latch-color-border);
}
.latch-connect-button:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 2px;
}
.latch-account-button {
  gap: calc(var(--latch-font-size-master) * 0.8);
}
.latch-account-button-balance {
  color: var(--latch-color-foreground-muted);
  font-weight: 400;
}
`;
