/** Wallet rows of the Connect and AllWallets views. */
export const walletButtonStyles = `
.latch-wallet {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 1.2);
  box-sizing: border-box;
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
  flex: none;
  width: calc(var(--latch-font-size-master) * 3.6);
  height: calc(var(--latch-font-size-master) * 3.6);
  border-radius: calc(var(--latch-border-radius-master) * 2);
}
.latch-wallet-icon--blank {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  background: var(--latch-color-border);
  font-weight: 600;
}
.latch-wallet-name {
  flex: 1;
  min-width: 0;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
}
.latch-wallet-tags {
  display: flex;
  gap: calc(var(--latch-font-size-master) * 0.4);
}
.latch-wallet-tag {
  padding: calc(var(--latch-font-size-master) * 0.2) calc(var(--latch-font-size-master) * 0.6);
  border-radius: calc(var(--latch-border-radius-master) * 2);
  background: var(--latch-color-border);
  color: var(--latch-color-foreground);
  font-size: calc(var(--latch-font-size-master) * 1.1);
  font-weight: 600;
}
`;
