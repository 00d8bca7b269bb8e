export const connectingExternalViewStyles = `
.latch-connecting {
  align-items: center;
  text-align: center;
}
.latch-connecting-icon {
  position: relative;
  padding: calc(var(--latch-font-size-master) * 0.6);
}
.latch-connecting-icon img {
  display: block;
  width: calc(var(--latch-font-size-master) * 6.4);
  height: calc(var(--latch-font-size-master) * 6.4);
  border-radius: calc(var(--latch-border-radius-master) * 4);
}
.latch-connecting-icon[data-waiting='true']::after {
  content: '';
  position: absolute;
  inset: 0;
  border: 2px solid var(--latch-color-border);
  border-top-color: var(--latch-accent);
  border-radius: calc(var(--latch-border-radius-master) * 5);
  animation: latch-spin 1s linear infinite;
}
@keyframes latch-spin {
  to { transform: rotate(360deg); }
}
@media (prefers-reduced-motion: reduce) {
  .latch-connecting-icon[data-waiting='true']::after { animation: none; }
}
`;
