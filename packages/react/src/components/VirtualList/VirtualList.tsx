import { useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';

export interface VirtualListProps {
  itemCount: number;
  /** Every row's height in px: fixed heights make the window a division, not a measurement. */
  itemHeight: number;
  /** The scrolling viewport's greatest height in px; a shorter list takes only its rows' height. */
  maxHeight: number;
  /** Rows rendered beyond each edge of the viewport, so Tab and scrolling find a row ready. */
  overscan?: number;
  /** The list's accessible name. */
  label: string;
  itemKey(index: number): string;
  renderItem(index: number): ReactNode;
  /** Called when the rendered rows come within `endThreshold` rows of the end. */
  onEndReached?(): void;
  endThreshold?: number;
  testId?: string;
}

/**
 * A windowed list: only the rows in (and near) the viewport are in the DOM, each positioned at
 * `index * itemHeight` inside a list as tall as all rows. Rows keep list semantics (`aria-setsize`,
 * `aria-posinset` tell assistive technology the full length); the focused row stays rendered
 * while it scrolls out of view, and Arrow keys, Home and End move focus across the whole list.
 */
export function VirtualList({
  itemCount,
  itemHeight,
  maxHeight,
  overscan = 4,
  label,
  itemKey,
  renderItem,
  onEndReached,
  endThreshold = 10,
  testId,
}: VirtualListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [focused, setFocused] = useState<number | null>(null);
  const pendingFocus = useRef<number | null>(null);
  const height = Math.min(maxHeight, itemCount * itemHeight);

  const first = Math.max(0, Math.floor(scrollTop / itemHeight) - overscan);
  const last = Math.min(itemCount - 1, Math.ceil((scrollTop + height) / itemHeight) + overscan);
  const indices: number[] = [];
  for (let index = first; index <= last; index++) indices.push(index);
  if (focused !== null && focused < itemCount && (focused < first || focused > last)) {
    indices.push(focused);
    indices.sort((a, b) => a - b);
  }

  useEffect(() => {
    if (itemCount > 0 && last >= itemCount - 1 - endThreshold) onEndReached?.();
  }, [last, itemCount, endThreshold, onEndReached]);

  useLayoutEffect(() => {
    const index = pendingFocus.current;
    if (index === null) return;
    pendingFocus.current = null;
    scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"] button, [data-index="${index}"] a`)?.focus();
  });

  function indexOf(target: EventTarget | null): number | null {
    const row = target instanceof Element ? target.closest<HTMLElement>('[data-index]') : null;
    return row ? Number(row.dataset.index) : null;
  }

  function onFocus(event: FocusEvent) {
    setFocused(indexOf(event.target));
  }

  function onBlur(event: FocusEvent) {
    if (!scroller.current?.contains(event.relatedTarget as Node | null)) setFocused(null);
  }

  function onKeyDown(event: KeyboardEvent) {
    const current = indexOf(event.target);
    if (current === null || itemCount === 0) return;
    const target = {
      ArrowDown: Math.min(itemCount - 1, current + 1),
      ArrowUp: Math.max(0, current - 1),
      Home: 0,
      End: itemCount - 1,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const element = scroller.current;
    if (element) {
      // Scroll just enough to show the row, then render it and focus it.
      const top = target * itemHeight;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (top + itemHeight > element.scrollTop + height) element.scrollTop = top + itemHeight - height;
      setScrollTop(element.scrollTop);
    }
    pendingFocus.current = target;
    setFocused(target);
  }

  return (
    <div
      ref={scroller}
      className="latch-virtual-list"
      style={{ height, overflowY: 'auto' }}
      data-testid={testId}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <ul
        aria-label={label}
        className="latch-virtual-list-rows"
        style={{ height: itemCount * itemHeight }}
        onFocus={onFocus}
        onBlur={onBlur}
        onKeyDown={onKeyDown}
      >
        {indices.map((index) => (
          <li
            key={itemKey(index)}
            data-index={index}
            aria-setsize={itemCount}
            aria-posinset={index + 1}
            style={{ top: index * itemHeight, height: itemHeight }}
          >
            {renderItem(index)}
          </li>
        ))}
      </ul>
    </div>
  );
}
