import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { currentView } from '../../core/modal.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import { useThemeMode, useThemeStyle } from '../../hooks/useThemeStyle.js';
import { views } from '../../views/index.js';
import { modalViewStyles } from '../../views/styles.js';
import { ModalHeader } from '../ModalHeader/ModalHeader.js';
import { focusFirst, wrapTabFocus } from './focus.js';
import { useAnimatedHeight } from './useAnimatedHeight.js';

/**
 * The open modal. Mounted while open, so mounting (or, for the standby, the opening) captures and
 * unmounting restores focus. `standby`: rendered ahead of its first opening, unseen, out of reach
 * of pointer, keyboard and assistive technology (`LatchProvider`); the opening shows this tree.
 * `LatchProvider` imports it lazily (`lazyModal.ts`): this module and everything it imports — the
 * views and their CSS — make the chunk a page loads after its first render, not before.
 */
export function Modal({ embedded = false, standby = false }: { embedded?: boolean; standby?: boolean }) {
  const latch = useLatchInstance();
  const modalState = useStore(latch.modal.store);
  const themeStyle = useThemeStyle();
  const themeMode = useThemeMode();
  const titleId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const { bodyRef, contentRef } = useAnimatedHeight<HTMLDivElement, HTMLDivElement>();
  const view = currentView(modalState);
  const { title, Component } = views[view];
  // The first view shows with the modal's own entrance; later ones fade in (behaviour 1.8). A
  // standby follows the view until it is shown.
  const [first, setFirst] = useState({ view, standby });
  if (first.standby && (first.view !== view || !standby)) setFirst({ view, standby });
  const firstView = first.view;
  // The view's own tree is the same before and after the opening: the opening does not render it again.
  const content = useMemo(
    () => (
      <div key={view} className={view === firstView ? undefined : 'latch-view-enter'}>
        <Component />
      </div>
    ),
    [view, firstView, Component],
  );

  // An embedded modal is part of the page: it neither takes nor traps focus.
  useEffect(() => {
    if (embedded || standby) return;
    const opener = document.activeElement;
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [embedded, standby]);

  // On open, and whenever a view change removes the focused element, focus returns inside.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!embedded && !standby && dialog && !dialog.contains(document.activeElement)) focusFirst(dialog);
  }, [view, embedded, standby]);

  // `inert` set here, not as a prop: React 18 does not know the attribute, React 19 takes a boolean.
  useLayoutEffect(() => {
    rootRef.current?.toggleAttribute('inert', standby);
  }, [standby]);

  // The click or key press that shows a standby, noted as it starts (capture): the entrance is timed from it.
  const shownBy = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!standby) return;
    // Only for the task that handles it: an opening later (after the images' wait, from a timer) starts then.
    const note = (event: Event) => {
      shownBy.current = event.timeStamp;
      setTimeout(() => (shownBy.current = undefined));
    };
    const options = { capture: true, passive: true };
    window.addEventListener('click', note, options);
    window.addEventListener('keydown', note, options);
    return () => {
      window.removeEventListener('click', note, options);
      window.removeEventListener('keydown', note, options);
    };
  }, [standby]);

  // Behaviour 1.8: the entrance runs from the input that shows the modal (else from the commit
  // that does). Left to itself, a new composited animation starts when the compositor has first
  // painted it (≈ 50 ms later with software raster), and the modal would settle that much after
  // its 150 ms. Not the timeline's time: inside a task it is the last frame's, before the click.
  // A frame drawn with an earlier time shows the first keyframe (the animations fill backwards).
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (standby || !root || typeof root.getAnimations !== 'function') return;
    const start = shownBy.current ?? performance.now();
    for (const animation of root.getAnimations({ subtree: true })) if (animation.startTime === null) animation.startTime = start;
  }, [standby]);

  // Escape while focus is outside the dialog (a view change or a disabled button dropped it to the
  // page) still reaches the modal: it is modal, so the page behind takes no keys of its own.
  useEffect(() => {
    if (embedded || standby) return;
    const onPageKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || dialogRef.current?.contains(event.target as Node)) return;
      latch.modal.close();
    };
    document.addEventListener('keydown', onPageKey);
    return () => document.removeEventListener('keydown', onPageKey);
  }, [embedded, standby, latch]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      latch.modal.close();
    } else if (event.key === 'Tab' && dialogRef.current && !embedded) {
      if (wrapTabFocus(dialogRef.current, event.shiftKey)) event.preventDefault();
    }
  }

  return (
    // `lang`: screen readers pronounce the modal in its own language, whatever the page's.
    <div
      ref={rootRef}
      className="latch-root"
      lang={latch.locale.getState().locale}
      data-theme={themeMode}
      data-embedded={embedded}
      data-standby={standby || undefined}
      aria-hidden={standby || undefined}
      style={themeStyle}
    >
      <style data-latch-modal-styles="">{modalViewStyles}</style>
      {embedded ? null : <div className="latch-backdrop" data-testid="latch-backdrop" onClick={latch.modal.close} />}
      <div
        ref={dialogRef}
        role={embedded ? 'region' : 'dialog'}
        aria-modal={embedded ? undefined : true}
        aria-labelledby={titleId}
        tabIndex={-1}
        className="latch-modal"
        data-testid="latch-modal"
        data-state={standby ? 'standby' : 'open'}
        data-shake={modalState.shake}
        data-loading={modalState.loading}
        onKeyDown={onKeyDown}
      >
        <ModalHeader titleId={titleId} title={latch.t(title)} canGoBack={modalState.history.length > 1} />
        <div ref={bodyRef} className="latch-modal-body" data-testid="latch-modal-body">
          <div ref={contentRef}>{content}</div>
        </div>
      </div>
    </div>
  );
}
