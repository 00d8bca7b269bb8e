/**
 * Runs `task` when the browser is idle (at the latest after 2 s), or after 200 ms where there is
 * no `requestIdleCallback` (Safari); returns the cancel function. For work a page should do soon,
 * but not before what the visitor is waiting for.
 */
export function whenIdle(target: Window, task: () => void): () => void {
  if (typeof target.requestIdleCallback === 'function') {
    const handle = target.requestIdleCallback(task, { timeout: 2000 });
    return () => target.cancelIdleCallback(handle);
  }
  const handle = target.setTimeout(task, 200);
  return () => target.clearTimeout(handle);
}
