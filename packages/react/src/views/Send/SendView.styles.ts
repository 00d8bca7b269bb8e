export const sendViewStyles = `
.latch-send-field {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.4);
}
.latch-send-label {
  color: var(--latch-color-foreground-muted);
  font-size: calc(var(--latch-font-size-master) * 1.2);
}
.latch-send-input {
  width: 100%;
  box-sizing: border-box;
  padding: calc(var(--latch-font-size-master) * 1);
  border: 1px solid var(--latch-color-surface-hover);
  border-radius: calc(var(--latch-border-radius-master) * 3);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font: inherit;
}
.latch-send-input:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
.latch-send-row {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 0.6);
}
.latch-send-row > .latch-send-input {
  flex: 1;
}
.latch-send-receiver {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 0.6);
  color: var(--latch-color-foreground);
}
.latch-send-avatar {
  width: calc(var(--latch-font-size-master) * 2.4);
  height: calc(var(--latch-font-size-master) * 2.4);
  border-radius: 50%;
  object-fit: cover;
}
.latch-send-summary {
  display: grid;
  grid-template-columns: auto 1fr;
  gap: calc(var(--latch-font-size-master) * 0.6) calc(var(--latch-font-size-master) * 1.2);
  margin: 0;
}
.latch-send-summary dt {
  color: var(--latch-color-foreground-muted);
}
.latch-send-summary dd {
  margin: 0;
  text-align: end;
  overflow-wrap: anywhere;
}
`;
