import { SHAKE_DURATION_MS } from '../../core/modal.js';

export const modalStyles = `
.latch-root {
  position: fixed;
  inset: 0;
  z-index: var(--latch-z-index);
  display: flex;
  align-items: center;
  justify-content: center;
  font-family: var(--latch-font-family);
  color: var(--latch-color-foreground);
}
.latch-root[data-embedded='true'] {
  position: relative;
  inset: auto;
  z-index: auto;
  display: block;
}
/* The standby (LatchProvider): laid out and painted while the page is idle, unseen and out of
   reach (inert, aria-hidden, no pointer), so showing it changes composited properties only; the
   layers it is shown with exist before, so nothing is painted again. Its entrance starts when it
   is shown. */
.latch-root[data-standby] {
  opacity: 0;
  pointer-events: none;
}
.latch-root[data-standby],
.latch-root[data-standby] .latch-modal {
  will-change: opacity, transform;
}
.latch-root[data-standby] .latch-backdrop,
.latch-root[data-standby] .latch-modal,
.latch-root[data-standby] .latch-header-title {
  animation: none;
}
.latch-backdrop {
  position: absolute;
  inset: 0;
  background: var(--latch-color-backdrop);
  animation: latch-fade-in var(--latch-duration) ease backwards;
}
.latch-modal {
  position: relative;
  box-sizing: border-box;
  width: var(--latch-modal-width);
  max-width: calc(100vw - var(--latch-font-size-master) * 2);
  max-height: calc(100vh - var(--latch-font-size-master) * 4);
  overflow: auto;
  border: 1px solid var(--latch-color-border);
  border-radius: calc(var(--latch-border-radius-master) * 8);
  background: var(--latch-color-background);
  box-shadow: 0 calc(var(--latch-font-size-master) * 1.6) calc(var(--latch-font-size-master) * 4.8) var(--latch-color-backdrop);
  font-size: calc(var(--latch-font-size-master) * 1.4);
  /* One fade, from half and quicker than the movement: the wallets are legible in the first
     frame the modal is painted, while the modal still settles over the 150 ms of behaviour 1.8.
     Both run from the commit that shows the modal (Modal.tsx); until a frame reaches that time,
     it shows their first keyframes (backwards). */
  animation:
    latch-modal-in var(--latch-duration) ease-out backwards,
    latch-modal-fade calc(var(--latch-duration) * 0.4) ease-out backwards;
}
.latch-modal-body {
  /* Behaviour 1.8: the height follows the view (set in px by useAnimatedHeight). Clipped only while
     it moves: the content is as tall as the body once it settles. */
  overflow: hidden;
  transition: height var(--latch-height-duration) ease;
}
.latch-view-enter {
  animation: latch-fade-in var(--latch-duration) ease;
}
.latch-modal:focus {
  outline: none;
}
.latch-modal[data-shake='true'] {
  animation: latch-shake ${SHAKE_DURATION_MS}ms ease;
}
.latch-view {
  display: flex;
  flex-direction: column;
  gap: calc(var(--latch-font-size-master) * 1.6);
  padding: calc(var(--latch-font-size-master) * 1.6);
}
.latch-message {
  margin: 0;
  color: var(--latch-color-foreground-muted);
  line-height: 1.4;
}
.latch-message--error {
  color: var(--latch-color-error);
}
@keyframes latch-fade-in {
  from { opacity: 0; }
}
@keyframes latch-modal-fade {
  from { opacity: 0.5; }
}
@keyframes latch-modal-in {
  from { transform: translateY(calc(var(--latch-font-size-master) * 1.2)) scale(0.98); }
}
@keyframes latch-shake {
  20%, 60% { transform: translateX(calc(var(--latch-font-size-master) * -0.6)); }
  40%, 80% { transform: translateX(calc(var(--latch-font-size-master) * 0.6)); }
}
@media (prefers-reduced-motion: reduce) {
  .latch-backdrop, .latch-modal, .latch-modal[data-shake='true'], .latch-header-title { animation: none; }
  .latch-modal-body { transition: none; }
  .latch-view-enter { animation: none; }
}
`;
