export const connectViewStyles = `
.latch-wallet-list {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.8);
  margin: 0;
  padding: 0;
  list-style: none;
}
.latch-wallet {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 1.2);
  width: 100%;
  padding: calc(var(--latch-font-size-master) * 1);
  border: 1px solid var(--latch-color-border);
  border-radius: calc(var(--latch-border-radius-master) * 4);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font: inherit;
  font-size: calc(var(--latch-font-size-master) * 1.5);
  font-weight: 500;
  text-align: left;
  cursor: pointer;
  transition: background-color var(--latch-duration) ease;
}
.latch-wallet:hover {
  background: var(--latch-color-surface-hover);
}
.latch-wallet:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
.latch-wallet-icon {
  width: calc(var(--latch-font-size-master) * 3.6);
  height: calc(var(--latch-font-size-master) * 3.6);
  border-radius: calc(var(--latch-border-radius-master) * 2);
}
`;
