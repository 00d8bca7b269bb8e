export const accountViewStyles = `
.latch-account {
  align-items: center;
  text-align: center;
}
.latch-account-address {
  margin: 0;
  font-size: calc(var(--latch-font-size-master) * 2);
  font-weight: 600;
  font-variant-numeric: tabular-nums;
}
.latch-account-balance {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 0.8);
  min-height: calc(var(--latch-font-size-master) * 4);
  color: var(--latch-color-foreground-muted);
  font-size: calc(var(--latch-font-size-master) * 1.6);
  font-variant-numeric: tabular-nums;
}
.latch-account-balance--loading {
  animation: latch-pulse 1.2s ease-in-out infinite;
}
@keyframes latch-pulse {
  50% { opacity: 0.5; }
}
@media (prefers-reduced-motion: reduce) {
  .latch-account-balance--loading { animation: none; }
}
`;
