export const emailLoginStyles = `
.latch-visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
}
.latch-email-login {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.8);
}
.latch-email-row {
  display: flex;
  gap: calc(var(--latch-font-size-master) * 0.8);
}
.latch-email-input {
  flex: 1;
  min-width: 0;
  padding: calc(var(--latch-font-size-master) * 1.2);
  border: 1px solid var(--latch-color-border);
  border-radius: calc(var(--latch-border-radius-master) * 3);
  background: transparent;
  color: inherit;
  font: inherit;
  font-size: calc(var(--latch-font-size-master) * 1.6);
}
.latch-email-input:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 1px;
}
.latch-social-list {
  display: grid;
  gap: calc(var(--latch-font-size-master) * 0.6);
  margin: 0;
  padding: 0;
  list-style: none;
}
.latch-social-list .latch-button {
  width: 100%;
}
.latch-otp-input {
  letter-spacing: 0.4em;
  text-align: center;
  font-variant-numeric: tabular-nums;
}
`;
