import { LATCH_CONSTANTS } from '@latch/wasm';
import { useEffect, useRef, useState } from 'react';
import { useLatchInstance } from '../../context.js';
import { useEmbeddedWallet } from '../EmailLogin/useEmbeddedWallet.js';
import { approveTransactionStyles } from './ApproveTransaction.styles.js';

/** Behaviour 7.4: a refused request's message shows after the RPC rejection delay. */
export const REFUSAL_DELAY_MS = LATCH_CONSTANTS.timings.rpcRejectionMessageMs;

/**
 * Behaviour 5.19 ApproveTransaction for the embedded wallet. What will be signed is drawn by the wallet
 * frame, on its own origin, laid over this view's empty box: the host page can neither forge
 * nor read it. This view only makes room, and shows "Action not allowed" for a refused method.
 */
export function ApproveTransactionView() {
  const latch = useLatchInstance();
  const { wallet, state } = useEmbeddedWallet();
  const box = useRef<HTMLDivElement>(null);
  const [refusalShown, setRefusalShown] = useState(false);

  useEffect(() => {
    if (!state.refused) {
      setRefusalShown(false);
      return;
    }
    const timer = setTimeout(() => setRefusalShown(true), REFUSAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.refused]);

  // A refusal while an approval is open: the approval is being rejected, its panel goes.
  const framed = state.approving && !state.refused;
  useEffect(() => {
    const node = box.current;
    if (!wallet || !node || !framed) return;
    // Measured every frame: the modal's opening animation and scrolling move the box without
    // resizing it, and the frame must follow.
    let last = '';
    let frame = 0;
    const place = () => {
      const rect = node.getBoundingClientRect();
      const key = `${rect.top},${rect.left},${rect.width},${rect.height}`;
      if (key !== last) {
        last = key;
        wallet.placeFrame({ top: rect.top, left: rect.left, width: rect.width, height: rect.height });
      }
      frame = requestAnimationFrame(place);
    };
    place();
    return () => {
      cancelAnimationFrame(frame);
      wallet.placeFrame(null);
    };
  }, [wallet, framed]);

  return (
    <div className="latch-view latch-approve">
      <style>{approveTransactionStyles}</style>
      {state.refused ? (
        refusalShown ? (
          <p role="alert" className="latch-message latch-message--error" data-testid="approve-refused">
            {latch.t('actionNotAllowed')}
          </p>
        ) : null
      ) : (
        <>
          <p className="latch-message">{latch.t(state.approving ? 'approveHint' : 'approveWaiting')}</p>
          <div ref={box} className="latch-approve-frame" aria-hidden="true" data-testid="approve-frame-box" />
        </>
      )}
    </div>
  );
}
