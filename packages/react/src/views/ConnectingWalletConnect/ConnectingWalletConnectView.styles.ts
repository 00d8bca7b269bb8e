export const connectingWalletConnectViewStyles = `
.latch-connecting-wc {
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 1.2);
}
.latch-connecting-wc > a.latch-button {
  box-sizing: border-box;
  width: 100%;
  text-align: center;
  text-decoration: none;
}
.latch-connecting-wc .latch-message { margin: 0; text-align: center; }
.latch-link {
  border: 0;
  background: none;
  padding: calc(var(--latch-font-size-master) * 0.4);
  /* The theme's text colour: the accent is too faint on the dark ground for small text. */
  color: var(--latch-color-foreground);
  font: inherit;
  cursor: pointer;
  text-decoration: underline;
}
.latch-link:focus-visible { outline: 2px solid var(--latch-accent); outline-offset: 2px; }
`;
