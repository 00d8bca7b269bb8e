/**
 * Whether the page runs on a phone or tablet, where a wallet app on the same device is opened by
 * a deep link rather than scanned. Read when used (never at import, for SSR); false on the server.
 */
export function isMobileBrowser(): boolean {
  const agent = globalThis.navigator?.userAgent ?? '';
  return /Android|iPhone|iPad|iPod|Mobile/i.test(agent);
}
