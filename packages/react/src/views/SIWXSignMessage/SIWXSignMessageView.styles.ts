export const siwxSignMessageViewStyles = `
.latch-siwx {
  align-items: center;
  text-align: center;
}
.latch-siwx-actions {
  display: flex;
  gap: calc(var(--latch-font-size-master) * 0.8);
  width: 100%;
}
.latch-siwx-hint {
  display: block;
  color: var(--latch-color-foreground-muted);
}
.latch-siwx-actions > .latch-button {
  flex: 1;
}
`;
