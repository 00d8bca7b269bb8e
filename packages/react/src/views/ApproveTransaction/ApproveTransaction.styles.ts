export const approveTransactionStyles = `
.latch-approve {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 0.8);
}
.latch-approve-frame {
  /* The wallet frame is laid over this box: the host draws nothing inside it. */
  height: min(60vh, 420px);
  border: 1px solid var(--latch-color-border);
  border-radius: calc(var(--latch-border-radius-master) * 3);
}
`;
