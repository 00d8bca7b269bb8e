export const accountViewStyles = `
.latch-account {
  align-items: center;
  text-align: center;
}
.latch-account-address {
  margin: 0;
  font-size: calc(var(--latch-font-size-master) * 2);
  font-weight: 600;
  font-variant-numeric: tabular-nums;
}
.latch-account-balance {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 0.8);
  min-height: calc(var(--latch-font-size-master) * 4);
  color: var(--latch-color-foreground-muted);
  font-size: calc(var(--latch-font-size-master) * 1.6);
  font-variant-numeric: tabular-nums;
}
.latch-account-balance--loading {
  animation: latch-pulse 1.2s ease-in-out infinite;
}
.latch-account-avatar {
  border-radius: 50%;
  object-fit: cover;
}
.latch-account-name {
  margin: 0;
  font-size: calc(var(--latch-font-size-master) * 2);
  font-weight: 600;
}
.latch-account-address--secondary {
  font-size: calc(var(--latch-font-size-master) * 1.4);
  color: var(--latch-color-foreground-muted);
  font-weight: 400;
}
.latch-account-actions {
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: calc(var(--latch-font-size-master) * 0.8);
}
.latch-account-tabs {
  width: 100%;
  text-align: start;
}
.latch-tablist {
  display: flex;
  gap: calc(var(--latch-font-size-master) * 0.4);
  border-bottom: 1px solid var(--latch-color-border);
}
.latch-tab {
  flex: 1;
  padding: calc(var(--latch-font-size-master) * 0.8);
  border: 0;
  border-bottom: 2px solid transparent;
  background: none;
  color: var(--latch-color-foreground-muted);
  font: inherit;
  cursor: pointer;
}
.latch-tab[aria-selected='true'] {
  color: var(--latch-color-foreground);
  border-bottom-color: var(--latch-accent);
}
.latch-tab:focus-visible, .latch-tabpanel:focus-visible {
  outline: 2px solid var(--latch-accent);
  outline-offset: 2px;
}
.latch-tabpanel {
  max-height: calc(var(--latch-font-size-master) * 28);
  overflow-y: auto;
  padding-block: calc(var(--latch-font-size-master) * 0.8);
}
.latch-rows {
  list-style: none;
  margin: 0;
  padding: 0;
}
.latch-row {
  display: flex;
  align-items: center;
  gap: calc(var(--latch-font-size-master) * 1);
  padding: calc(var(--latch-font-size-master) * 0.6) 0;
}
.latch-row-icon {
  width: 32px;
  height: 32px;
  border-radius: 50%;
  background: var(--latch-color-border);
  flex: none;
}
.latch-row-main {
  display: flex;
  flex-direction: column;
  flex: 1;
  min-width: 0;
}
.latch-row-title {
  font-weight: 600;
}
.latch-row-detail, .latch-row-side {
  color: var(--latch-color-foreground-muted);
  font-variant-numeric: tabular-nums;
}
.latch-activity-month {
  margin: calc(var(--latch-font-size-master) * 0.8) 0 0;
  font-size: calc(var(--latch-font-size-master) * 1.2);
  color: var(--latch-color-foreground-muted);
}
.latch-panel-state {
  margin: calc(var(--latch-font-size-master) * 1.2) 0;
  text-align: center;
  color: var(--latch-color-foreground-muted);
}
.latch-loading {
  animation: latch-pulse 1.2s ease-in-out infinite;
}
@keyframes latch-pulse {
  50% { opacity: 0.5; }
}
@media (prefers-reduced-motion: reduce) {
  .latch-account-balance--loading, .latch-loading { animation: none; }
}
`;
