import { useLayoutEffect, useRef } from 'react';

/**
 * Behaviour 1.8: the modal's height follows its view. The body gets the content's measured height
 * in pixels, so the CSS `height` transition (`.latch-modal-body`, 150 ms, none under reduced
 * motion) runs between views; `auto` never animates. Without `ResizeObserver` (jsdom, very old
 * browsers) the body keeps `auto` height: no animation, nothing clipped.
 */
export function useAnimatedHeight<Body extends HTMLElement, Content extends HTMLElement>() {
  const bodyRef = useRef<Body>(null);
  const contentRef = useRef<Content>(null);

  useLayoutEffect(() => {
    const body = bodyRef.current;
    const content = contentRef.current;
    if (!body || !content || typeof ResizeObserver === 'undefined') return;
    const follow = () => {
      body.style.height = `${content.getBoundingClientRect().height}px`;
    };
    // The first height is set before paint (from `auto`, which does not animate); later ones animate.
    follow();
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  return { bodyRef, contentRef };
}
