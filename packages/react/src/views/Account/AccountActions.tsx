import { parseCaipNetworkId, walletFeatures, type WalletFeature } from '@latch/wasm';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import type { ViewName } from '../../core/modal.js';
import type { CaipNetworkId } from '../../core/types.js';
import type { MessageKey } from '../../locales/index.js';
import { views } from '../index.js';

/**
 * Each wallet feature's button: its test id suffix, label and the view it opens; a button shows
 * only when its view is registered.
 */
const ACTIONS: Record<WalletFeature, { id: string; label: MessageKey; view: string; flow: boolean }> = {
  onramp: { id: 'buy', label: 'actionBuy', view: 'Onramp', flow: true },
  swaps: { id: 'swap', label: 'actionSwap', view: 'Swap', flow: true },
  receive: { id: 'receive', label: 'actionReceive', view: 'Receive', flow: false },
  send: { id: 'send', label: 'actionSend', view: 'Send', flow: true },
};

function registered(view: string): view is ViewName {
  return Object.hasOwn(views, view);
}

/**
 * The Account view's actions in the documented order (behaviour 1.12), each only when the host turned its
 * feature on, latch-core says the account's namespace supports it, and its view exists.
 */
export function AccountActions({ caipNetworkId }: { caipNetworkId: CaipNetworkId }) {
  const latch = useLatchInstance();
  const shown = walletFeatures(parseCaipNetworkId(caipNetworkId).namespace).flatMap((feature) => {
    const { id, label, view, flow } = ACTIONS[feature];
    return latch.features[feature] && registered(view) ? [{ id, label, view, flow }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <div className="latch-account-actions" role="group" aria-label={latch.t('walletActions')}>
      {shown.map(({ id, label, view, flow }) => {
        const preload = () => void views[view].preload?.().catch(() => undefined);
        return (
          <Button
            key={id}
            data-testid={`account-action-${id}`}
            onPointerEnter={preload}
            onFocus={preload}
            // A flow that moves funds runs on the transaction stack (behaviour 1.13): done, it
            // returns to Account; left by Back, it is cancelled.
            // The view opens once its chunk is in (hover or focus usually fetched it already), so
            // it shows at once instead of a loading state.
            onClick={() => {
              const open = () =>
                flow ? latch.transactionStack.push({ view, reset: 'Account' }) : latch.modal.push(view);
              const loading = views[view].preload?.();
              if (loading) void loading.then(open, open);
              else open();
            }}
          >
            {latch.t(label)}
          </Button>
        );
      })}
    </div>
  );
}
