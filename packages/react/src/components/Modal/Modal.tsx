import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { Latch } from '../../core/createLatch.js';
import { currentView } from '../../core/modal.js';
import { LatchContext, useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import { useThemeMode, useThemeStyle } from '../../hooks/useThemeStyle.js';
import { views } from '../../views/index.js';
import { modalViewStyles } from '../../views/styles.js';
import { ModalHeader } from '../ModalHeader/ModalHeader.js';
import { focusFirst, wrapTabFocus } from './focus.js';
import { useAnimatedHeight } from './useAnimatedHeight.js';

/**
 * The open modal. Mounted only while open, so mounting captures and unmounting restores focus.
 * `LatchProvider` imports it lazily (`lazyModal.ts`): this module and everything it imports — the
 * views and their CSS — make the chunk a page loads after its first render, not before.
 */
export function Modal({ embedded = false }: { embedded?: boolean }) {
  const latch = useLatchInstance();
  const modalState = useStore(latch.modal.store);
  const themeStyle = useThemeStyle();
  const themeMode = useThemeMode();
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const { bodyRef, contentRef } = useAnimatedHeight<HTMLDivElement, HTMLDivElement>();
  const view = currentView(modalState);
  const { title, Component } = views[view];
  // The first view shows with the modal's own entrance; later ones fade in (behaviour 1.8).
  const [firstView] = useState(view);

  // An embedded modal is part of the page: it neither takes nor traps focus.
  useEffect(() => {
    if (embedded) return;
    const opener = document.activeElement;
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [embedded]);

  // On open, and whenever a view change removes the focused element, focus returns inside.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!embedded && dialog && !dialog.contains(document.activeElement)) focusFirst(dialog);
  }, [view, embedded]);

  // Escape while focus is outside the dialog (a view change or a disabled button dropped it to the
  // page) still reaches the modal: it is modal, so the page behind takes no keys of its own.
  useEffect(() => {
    if (embedded) return;
    const onPageKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || dialogRef.current?.contains(event.target as Node)) return;
      latch.modal.close();
    };
    document.addEventListener('keydown', onPageKey);
    return () => document.removeEventListener('keydown', onPageKey);
  }, [embedded, latch]);

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
    <div className="latch-root" lang={latch.locale.getState().locale} data-theme={themeMode} data-embedded={embedded} style={themeStyle}>
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
        data-state="open"
        data-shake={modalState.shake}
        data-loading={modalState.loading}
        onKeyDown={onKeyDown}
      >
        <ModalHeader titleId={titleId} title={latch.t(title)} canGoBack={modalState.history.length > 1} />
        <div ref={bodyRef} className="latch-modal-body" data-testid="latch-modal-body">
          <div ref={contentRef}>
            <div key={view} className={view === firstView ? undefined : 'latch-view-enter'}>
              <Component />
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * Renders the modal once into a hidden container of `document` and removes it again, in one task:
 * the visitor's first click then runs compiled code against parsed styles and commits in a few
 * milliseconds instead of tens (issue 30). As the embedded variant it neither takes nor moves
 * focus, and nothing else can run (or see the copy) between its render and its removal.
 */
export function rehearse(latch: Latch, document: Document): void {
  const container = document.createElement('div');
  container.hidden = true;
  document.body.append(container);
  const root = createRoot(container);
  try {
    flushSync(() =>
      root.render(
        <LatchContext.Provider value={latch}>
          <Modal embedded />
        </LatchContext.Provider>,
      ),
    );
  } finally {
    root.unmount();
    container.remove();
  }
}
