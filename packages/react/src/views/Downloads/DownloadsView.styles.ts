export const downloadsViewStyles = `
.latch-downloads-wallet {
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 0.8);
}
.latch-downloads-icon {
  width: calc(var(--latch-font-size-master) * 6.4);
  height: calc(var(--latch-font-size-master) * 6.4);
  border-radius: calc(var(--latch-border-radius-master) * 4);
}
.latch-downloads-name {
  margin: 0;
  font-size: calc(var(--latch-font-size-master) * 1.6);
  font-weight: 600;
}
.latch-downloads-links .latch-button {
  box-sizing: border-box;
  width: 100%;
  text-decoration: none;
}
`;
