export const sendViewStyles = `
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
.latch-form-summary.latch-send-summary {
  gap: calc(var(--latch-font-size-master) * 0.6) calc(var(--latch-font-size-master) * 1.2);
}
`;
