export const networksViewStyles = `
.latch-networks {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.4);
}
.latch-network {
  display: flex;
  width: 100%;
  align-items: center;
  justify-content: space-between;
  gap: calc(var(--latch-font-size-master) * 0.8);
  padding: calc(var(--latch-font-size-master) * 1.2);
  border: 1px solid transparent;
  border-radius: calc(var(--latch-border-radius-master) * 4);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font: inherit;
  text-align: start;
  cursor: pointer;
}
.latch-network:hover:not(:disabled) {
  background: var(--latch-color-surface-hover);
}
.latch-network[aria-current='true'] {
  border-color: var(--latch-accent);
}
.latch-network:disabled {
  cursor: progress;
}
.latch-network:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 2px;
}
.latch-network-state {
  color: var(--latch-color-foreground-muted);
  font-size: calc(var(--latch-font-size-master) * 1.2);
}
`;
