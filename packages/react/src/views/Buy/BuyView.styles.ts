export const buyViewStyles = `
.latch-buy-field {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.4);
}
.latch-buy-label {
  color: var(--latch-color-foreground-muted);
  font-size: calc(var(--latch-font-size-master) * 1.2);
}
.latch-buy-input {
  width: 100%;
  box-sizing: border-box;
  padding: calc(var(--latch-font-size-master) * 1);
  border: 1px solid var(--latch-color-surface-hover);
  border-radius: calc(var(--latch-border-radius-master) * 3);
  background: var(--latch-color-surface);
  color: var(--latch-color-foreground);
  font: inherit;
}
.latch-buy-input:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
.latch-buy-row {
  display: flex;
  gap: calc(var(--latch-font-size-master) * 0.6);
}
.latch-buy-quote {
  display: grid;
  grid-template-columns: auto 1fr;
  gap: calc(var(--latch-font-size-master) * 0.4) calc(var(--latch-font-size-master) * 1);
  margin: 0;
}
.latch-buy-quote dd {
  margin: 0;
  text-align: end;
}
`;
