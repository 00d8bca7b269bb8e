import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAnimatedHeight } from './useAnimatedHeight.js';

/** jsdom lays nothing out: the content reports the height a test gives it. */
let contentHeight = 0;
let observed: { element: Element; resized: () => void } | undefined;

class FakeResizeObserver {
  constructor(private readonly resized: () => void) {}
  observe(element: Element) {
    observed = { element, resized: this.resized };
  }
  disconnect() {
    observed = undefined;
  }
}

function Body({ children }: { children: string }) {
  const { bodyRef, contentRef } = useAnimatedHeight<HTMLDivElement, HTMLDivElement>();
  return (
    <div ref={bodyRef} data-testid="body">
      <div ref={contentRef} data-testid="content">
        {children}
      </div>
    </div>
  );
}

describe('useAnimatedHeight (behaviour 1.8)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('gives the body the content’s height in px at once, then follows every resize, and stops on unmount', () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() => ({ height: contentHeight }) as DOMRect);
    contentHeight = 212;
    const { getByTestId, unmount } = render(<Body>Connect</Body>);
    const body = getByTestId('body');
    expect(body.style.height).toBe('212px');
    expect(observed?.element).toBe(getByTestId('content'));
    contentHeight = 480.5;
    act(() => observed?.resized());
    expect(body.style.height).toBe('480.5px');
    unmount();
    expect(observed).toBeUndefined();
  });

  it('leaves the height to the content without ResizeObserver', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    const { getByTestId } = render(<Body>Connect</Body>);
    expect(getByTestId('body').style.height).toBe('');
  });
});
