import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { views } from '../index.js';

/**
 * An embedded-wallet user's "Update e-mail" (behaviour 5.15): its views' chunk is fetched on hover
 * or focus, and the view opens once it is in, so it shows at once.
 */
export function UpdateEmailAction() {
  const latch = useLatchInstance();
  const preload = () => views.UpdateEmailWallet.preload?.() ?? Promise.resolve();
  const open = () => latch.modal.push('UpdateEmailWallet');
  return (
    <Button
      data-testid="account-update-email"
      onPointerEnter={() => void preload().catch(() => undefined)}
      onFocus={() => void preload().catch(() => undefined)}
      onClick={() => void preload().then(open, open)}
    >
      {latch.t('updateEmailTitle')}
    </Button>
  );
}
