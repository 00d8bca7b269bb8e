import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import { registerNameControllerFor } from './registerNameController.js';

/** RegisterAccountNameSuccess (behaviour 1.1, 5.12): the registered name, then back to Account. */
export function RegisterAccountNameSuccessView() {
  const latch = useLatchInstance();
  const names = registerNameControllerFor(latch);
  const { registered } = useStore(names.store);
  return (
    <div className="latch-view" data-testid="register-name-success">
      <p className="latch-message" role="status">
        {latch.t('registerNameSuccess', { name: registered ?? '' })}
      </p>
      <Button
        variant="primary"
        data-testid="register-name-done"
        onClick={() => {
          names.reset();
          latch.modal.reset('Account');
        }}
      >
        {latch.t('registerNameDone')}
      </Button>
    </div>
  );
}
