const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

export function focusableElements(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
}

/** Moves focus to the first focusable element, or the container itself when it has none. */
export function focusFirst(container: HTMLElement): void {
  (focusableElements(container)[0] ?? container).focus();
}

/**
 * Keeps Tab and Shift+Tab inside the container by wrapping at both ends. Returns whether the
 * key was handled, so the caller prevents the browser's default move.
 */
export function wrapTabFocus(container: HTMLElement, backwards: boolean): boolean {
  const focusables = focusableElements(container);
  const first = focusables[0];
  const last = focusables[focusables.length - 1];
  if (!first || !last) return true;
  const active = container.ownerDocument.activeElement;
  if (backwards && (active === first || active === container)) {
    last.focus();
    return true;
  }
  if (!backwards && (active === last || !container.contains(active))) {
    first.focus();
    return true;
  }
  return false;
}
