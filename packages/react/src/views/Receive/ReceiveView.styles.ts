export const receiveViewStyles = `
.latch-receive {
  align-items: center;
  text-align: center;
}
.latch-receive .latch-qr { width: calc(var(--latch-font-size-master) * 20); }
.latch-receive-label,
.latch-receive-network {
  margin: 0;
  color: var(--latch-color-foreground-muted);
}
.latch-receive-address {
  margin: 0;
  max-width: 100%;
  overflow-wrap: anywhere;
  font-family: ui-monospace, monospace;
  font-size: calc(var(--latch-font-size-master) * 1.4);
}
.latch-receive-heading {
  margin: 0;
  font-size: calc(var(--latch-font-size-master) * 1.4);
  font-weight: 600;
}
.latch-receive-networks {
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: calc(var(--latch-font-size-master) * 0.4);
  margin: 0;
  padding: 0;
  list-style: none;
}
.latch-receive-networks li {
  padding: calc(var(--latch-font-size-master) * 0.4) calc(var(--latch-font-size-master) * 0.8);
  border: 1px solid var(--latch-color-border);
  border-radius: calc(var(--latch-border-radius-master) * 4);
}
.latch-receive-networks li[aria-current='true'] { border-color: var(--latch-accent); }
.latch-receive-warning {
  padding: calc(var(--latch-font-size-master) * 0.8);
  border-radius: calc(var(--latch-border-radius-master) * 2);
  background: var(--latch-color-surface);
}
`;
