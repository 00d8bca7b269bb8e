import { useLatchInstance } from '../../context.js';

/** What the Activity tab shows until its history is read (and, the first time, its chunk). */
export function ActivityLoading() {
  const latch = useLatchInstance();
  return (
    <p className="latch-panel-state latch-loading" aria-busy="true">
      {latch.t('activityLoading')}
    </p>
  );
}
