export const buttonStyles = `
.latch-button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: calc(var(--latch-font-size-master) * 0.8);
  min-height: calc(var(--latch-font-size-master) * 4);
  padding: 0 calc(var(--latch-font-size-master) * 1.6);
  border: 1px solid var(--latch-color-border);
  border-radius: calc(var(--latch-border-radius-master) * 3);
  font: inherit;
  font-size: calc(var(--latch-font-size-master) * 1.4);
  font-weight: 600;
  cursor: pointer;
  transition: background-color var(--latch-duration) ease;
}
.latch-button--primary {
  background: var(--latch-accent);
  border-color: var(--latch-accent);
  color: var(--latch-accent-foreground);
}
.latch-button--secondary {
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
}
.latch-button--secondary:hover {
  background: var(--latch-color-surface-hover);
}
.latch-button:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 2px;
}
`;
