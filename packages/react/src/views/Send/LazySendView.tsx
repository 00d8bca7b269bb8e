import { lazy, Suspense } from 'react';

// Send is an optional part (spec §9 `send`): its code and styles load when it first opens.
const loadSendView = () => import('./SendView.js');
const SendView = lazy(() => loadSendView().then((module) => ({ default: module.SendView })));

export function LazySendView() {
  return (
    <Suspense fallback={<div className="latch-view" aria-busy="true" />}>
      <SendView />
    </Suspense>
  );
}
