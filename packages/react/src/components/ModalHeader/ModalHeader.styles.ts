export const modalHeaderStyles = `
.latch-header {
  display: grid;
  grid-template-columns: calc(var(--latch-font-size-master) * 3.2) 1fr calc(var(--latch-font-size-master) * 3.2);
  align-items: center;
  padding: calc(var(--latch-font-size-master) * 1.2) calc(var(--latch-font-size-master) * 1.4);
  border-bottom: 1px solid var(--latch-color-border);
}
.latch-header-title {
  margin: 0;
  text-align: center;
  font-size: calc(var(--latch-font-size-master) * 1.6);
  font-weight: 600;
  /* Behaviour 1.8: header text changes in 120 ms, four fifths of the 150 ms transition. */
  animation: latch-fade-in calc(var(--latch-duration) * 0.8) ease backwards;
}
.latch-icon-button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: calc(var(--latch-font-size-master) * 3.2);
  height: calc(var(--latch-font-size-master) * 3.2);
  padding: 0;
  border: none;
  border-radius: calc(var(--latch-border-radius-master) * 2);
  background: transparent;
  color: var(--latch-color-foreground-muted);
  cursor: pointer;
}
.latch-icon-button:hover {
  background: var(--latch-color-surface-hover);
  color: var(--latch-color-foreground);
}
.latch-icon-button:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
`;
