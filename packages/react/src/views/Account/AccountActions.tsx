import { parseCaipNetworkId, walletFeatures, type WalletFeature } from '@latch/wasm';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import type { ViewName } from '../../core/modal.js';
import type { CaipNetworkId } from '../../core/types.js';
import type { MessageKey } from '../../locales/index.js';
import { views } from '../index.js';

/**
 * Each wallet feature's button: its test id suffix, label and the view it opens. The view names of
 * Buy and Swap are the ones their issues register; until then those buttons do not show.
 */
const ACTIONS: Record<WalletFeature, { id: string; label: MessageKey; view: string }> = {
  onramp: { id: 'buy', label: 'actionBuy', view: 'Onramp' },
  swaps: { id: 'swap', label: 'actionSwap', view: 'Swap' },
  receive: { id: 'receive', label: 'actionReceive', view: 'Receive' },
  send: { id: 'send', label: 'actionSend', view: 'Send' },
};

function registered(view: string): view is ViewName {
  return Object.hasOwn(views, view);
}

/**
 * The Account view's actions in the spec's order (§2), each only when the host turned its
 * feature on, latch-core says the account's namespace supports it, and its view exists.
 */
export function AccountActions({ caipNetworkId }: { caipNetworkId: CaipNetworkId }) {
  const latch = useLatchInstance();
  const shown = walletFeatures(parseCaipNetworkId(caipNetworkId).namespace).flatMap((feature) => {
    const { id, label, view } = ACTIONS[feature];
    return latch.features[feature] && registered(view) ? [{ id, label, view }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <div className="latch-account-actions" role="group" aria-label={latch.t('walletActions')}>
      {shown.map(({ id, label, view }) => {
        const preload = () => void views[view].preload?.().catch(() => undefined);
        return (
          <Button
            key={id}
            data-testid={`account-action-${id}`}
            onPointerEnter={preload}
            onFocus={preload}
            onClick={() => latch.modal.push(view)}
          >
            {latch.t(label)}
          </Button>
        );
      })}
    </div>
  );
}
