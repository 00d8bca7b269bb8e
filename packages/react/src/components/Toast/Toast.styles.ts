export const toastStyles = `
.latch-toast {
  position: fixed;
  top: calc(var(--latch-font-size-master) * 2);
  left: 50%;
  transform: translateX(-50%);
  z-index: calc(var(--latch-z-index) + 1);
  max-width: calc(100vw - var(--latch-font-size-master) * 4);
  padding: calc(var(--latch-font-size-master) * 1) calc(var(--latch-font-size-master) * 1.6);
  border: 1px solid var(--latch-color-border);
  border-radius: calc(var(--latch-border-radius-master) * 6);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font-family: var(--latch-font-family);
  font-size: calc(var(--latch-font-size-master) * 1.4);
  animation: latch-fade-in var(--latch-duration) ease;
}
.latch-toast[data-variant='error'] {
  color: var(--latch-color-error);
}
`;
