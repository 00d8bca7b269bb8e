export const allWalletsViewStyles = `
.latch-search {
  box-sizing: border-box;
  width: 100%;
  min-height: calc(var(--latch-font-size-master) * 4);
  padding: 0 calc(var(--latch-font-size-master) * 1.2);
  border: 1px solid var(--latch-color-border);
  border-radius: calc(var(--latch-border-radius-master) * 3);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font: inherit;
}
.latch-search::placeholder {
  color: var(--latch-color-foreground-muted);
}
.latch-search:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
.latch-visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
}
`;
