import { formatBalance, truncateAddress } from '@latch/wasm';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { EMBEDDED_CONNECTOR_ID } from '../../core/embedded/load.js';
import { serverRefusal } from '../../core/gateway.js';
import { useStore } from '../../hooks/useStore.js';
import { AccountActions } from './AccountActions.js';
import { AccountTabs } from './AccountTabs.js';
import { RegisterNameAction } from './RegisterNameAction.js';
import { UpdateEmailAction } from './UpdateEmailAction.js';

/** The connected account: identity, native balance, and its Tokens / NFTs / Activity tabs. */
export function AccountView() {
  const latch = useLatchInstance();
  const { address, caipNetworkId, balance, balanceSymbol, balanceStatus, balanceError } = useStore(latch.account);
  const { supported } = useStore(latch.network);
  const { name, avatar } = useStore(latch.accountData.identity);
  const { pending } = useStore(latch.transactions.store);
  const { activeConnectorId, connectors } = useStore(latch.connection);
  if (!address || !caipNetworkId) return null;
  // The embedded wallet's connector is named after its user's e-mail (core/embedded/wallet.ts).
  const embeddedUser =
    activeConnectorId === EMBEDDED_CONNECTOR_ID ? connectors.find(({ id }) => id === activeConnectorId)?.name : undefined;

  return (
    <div className="latch-view latch-account">
      {avatar ? <img className="latch-account-avatar" src={avatar} alt="" width={64} height={64} data-testid="account-avatar" /> : null}
      {name ? (
        <p className="latch-account-name" data-testid="account-name">
          {name}
        </p>
      ) : null}
      <p className={name ? 'latch-account-address latch-account-address--secondary' : 'latch-account-address'} data-testid="account-address" title={address}>
        {truncateAddress(address)}
      </p>
      {embeddedUser ? (
        <p className="latch-message" data-testid="account-email">
          {embeddedUser}
        </p>
      ) : null}
      {embeddedUser ? <UpdateEmailAction /> : null}
      <div className="latch-account-balance" data-testid="account-balance" aria-busy={balanceStatus === 'loading'}>
        {balanceStatus === 'ready' ? (
          formatBalance(balance, balanceSymbol)
        ) : balanceStatus === 'error' ? (
          <>
            <span className="latch-message--error" role="alert">
              {latch.t(serverRefusal(balanceError) ?? 'balanceUnavailable')}
            </span>
            <Button onClick={() => void latch.refreshBalance()}>{latch.t('retry')}</Button>
          </>
        ) : balanceStatus === 'idle' && !supported ? (
          // Behaviour 3.4: no balance is read on the unsupported placeholder; nothing is loading.
          '—'
        ) : (
          <span className="latch-account-balance--loading">{latch.t('balanceLoading')}</span>
        )}
      </div>
      {pending.length > 0 ? (
        // Behaviour 5.6 "Send": the flow returns here at once; the send stays pending until mined.
        <p className="latch-message" role="status" data-testid="account-pending">
          {latch.t('sendPending', { count: String(pending.length) })}
        </p>
      ) : null}
      <AccountActions caipNetworkId={caipNetworkId} />
      {name ? null : <RegisterNameAction caipNetworkId={caipNetworkId} />}
      <Button data-testid="account-network" onClick={() => latch.modal.push('Networks')}>
        {latch.t('networkButton', {
          network: latch.networks.find((n) => n.caipNetworkId === caipNetworkId)?.name ?? latch.t('networkUnsupported'),
        })}
      </Button>
      <AccountTabs caipNetworkId={caipNetworkId} />
      {/* Disconnecting the embedded wallet signs out of it (its connector ends the frame's session). */}
      {embeddedUser ? (
        <Button data-testid="embedded-sign-out" onClick={latch.disconnect}>
          {latch.t('embeddedSignOut')}
        </Button>
      ) : (
        <Button data-testid="account-disconnect" onClick={latch.disconnect}>
          {latch.t('disconnect')}
        </Button>
      )}
    </div>
  );
}
