export const swapViewStyles = `
.latch-form-summary.latch-swap-quote {
  font-size: calc(var(--latch-font-size-master) * 1.3);
}
.latch-swap-warning {
  color: var(--latch-color-error);
}
`;
