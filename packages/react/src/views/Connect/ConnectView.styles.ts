export const connectViewStyles = `
.latch-wallet-list {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.8);
  margin: 0;
  padding: 0;
  list-style: none;
}
.latch-all-wallets-icon {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  background: var(--latch-color-border);
}
`;
