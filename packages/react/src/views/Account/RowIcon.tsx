/**
 * A row's 32-px picture (a token's icon, an NFT's preview, an activity's asset), or the blank
 * circle when there is none: no `<img>` without a URL (an empty `src` fetches the page again).
 */
export function RowIcon({ url, testId }: { url: string | undefined; testId?: string }) {
  return url ? (
    <img className="latch-row-icon" src={url} alt="" width={32} height={32} data-testid={testId} />
  ) : (
    <span className="latch-row-icon" aria-hidden="true" />
  );
}
