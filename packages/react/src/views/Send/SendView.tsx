import { formatBalance, formatNumber, truncateAddress } from '@latch/wasm';
import { useEffect, useId, type FormEvent } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import type { TokenBalance } from '../../core/api.js';
import { useStore } from '../../hooks/useStore.js';
import { AmountInput, FormField } from '../Form.js';
import { sendControllerFor } from './sendController.js';
import { sendViewStyles } from './SendView.styles.js';

const tokenKey = (token: TokenBalance) => token.address ?? 'native';

/** Send (behaviour 5.6): token, amount with Max, receiver (address or name), fee, preview, then the wallet. */
export function SendView() {
  const latch = useLatchInstance();
  const send = sendControllerFor(latch);
  const state = useStore(send.store);
  useStore(latch.accountData.tokens);
  useStore(latch.account);
  const { pending } = useStore(latch.transactions.store);
  const ids = { token: useId(), amount: useId(), receiver: useId(), error: useId() };
  const tokens = send.tokens();
  const network = latch.networks.find((n) => n.caipNetworkId === latch.account.getState().caipNetworkId);

  // `open({ view: 'Send', data })`: the draft starts from the data, once per opening.
  const { data } = useStore(latch.modal.store);
  useEffect(() => {
    const prefill = latch.modal.takeData('Send');
    if (prefill) send.prefill(prefill);
  }, [latch, send, data]);

  // The token the data named once listed, else the first (the native coin) when nothing is picked;
  // gas is read for it.
  const listed = tokens.map(tokenKey).join();
  useEffect(() => send.pickToken(), [send, listed]);

  const token = state.token && tokens.find((t) => tokenKey(t) === tokenKey(state.token as TokenBalance));
  const error = state.error ? (
    <p className="latch-message latch-message--error" role="alert" id={ids.error} data-testid="send-error">
      {latch.t(state.error)}
    </p>
  ) : null;
  const fee =
    state.gasFee !== undefined && network
      ? latch.t('sendNetworkFeeValue', {
          fee: formatNumber(state.gasFee, 6),
          symbol: network.nativeCurrency.symbol,
          usd: formatNumber(state.gasFeeUsd ?? '0', 2),
        })
      : latch.t('sendFeeUnknown');
  const receiverShown = state.receiverName ? (
    <span className="latch-send-receiver" data-testid="send-receiver-name">
      {state.receiverAvatar ? (
        <img
          className="latch-send-avatar"
          src={state.receiverAvatar}
          alt={latch.t('sendReceiverAvatar', { name: state.receiverName })}
          width={24}
          height={24}
        />
      ) : null}
      <span>{state.receiverName}</span>
      {state.receiverAddress ? <span title={state.receiverAddress}>({truncateAddress(state.receiverAddress)})</span> : null}
    </span>
  ) : null;
  const pendingNote =
    pending.length > 0 ? (
      <p className="latch-message" role="status" data-testid="send-pending">
        {latch.t('sendPending', { count: String(pending.length) })}
      </p>
    ) : null;

  if (state.step === 'preview' && token) {
    return (
      <div className="latch-view" data-testid="send-view">
        <style>{sendViewStyles}</style>
        <h3 className="latch-message">{latch.t('sendReviewHeading')}</h3>
        <dl className="latch-form-summary latch-send-summary" data-testid="send-preview">
          <dt>{latch.t('sendReviewAmount')}</dt>
          <dd>
            {state.amount} {token.symbol}
          </dd>
          <dt>{latch.t('sendReceiver')}</dt>
          <dd>{receiverShown ?? <span title={state.receiverAddress}>{state.receiverAddress}</span>}</dd>
          <dt>{latch.t('sendNetworkFee')}</dt>
          <dd>{fee}</dd>
        </dl>
        {error}
        <Button variant="primary" data-testid="send-submit" disabled={state.loading} aria-busy={state.loading} onClick={() => void send.send()}>
          {latch.t(state.loading ? 'sendSending' : 'sendConfirm')}
        </Button>
        <Button disabled={state.loading} onClick={send.edit}>
          {latch.t('sendEdit')}
        </Button>
      </div>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send.preview();
  };

  return (
    <form className="latch-view" data-testid="send-view" onSubmit={onSubmit} noValidate>
      <style>{sendViewStyles}</style>
      {pendingNote}
      {tokens.length === 0 ? <p className="latch-message">{latch.t('sendNoTokens')}</p> : null}
      <FormField id={ids.token} label={latch.t('sendToken')}>
        <select
          id={ids.token}
          className="latch-form-input"
          data-testid="send-token"
          value={token ? tokenKey(token) : ''}
          onChange={(event) => {
            const picked = tokens.find((t) => tokenKey(t) === event.target.value);
            if (picked) send.selectToken(picked);
          }}
        >
          {tokens.map((t) => (
            <option key={tokenKey(t)} value={tokenKey(t)}>
              {t.symbol}
            </option>
          ))}
        </select>
        {token ? (
          <span className="latch-form-label" data-testid="send-balance">
            {latch.t('sendBalance', { amount: formatBalance(token.quantity.numeric, token.symbol) })}
          </span>
        ) : null}
      </FormField>
      <FormField id={ids.amount} label={latch.t('sendAmount')}>
        <AmountInput
          id={ids.amount}
          testId="send-amount"
          value={state.amount}
          aria-describedby={state.error ? ids.error : undefined}
          onChange={(event) => send.setAmount(event.target.value)}
          maxLabel={latch.t('sendMax')}
          maxTestId="send-max"
          onMax={() => void send.setMax()}
        />
      </FormField>
      <FormField id={ids.receiver} label={latch.t('sendReceiver')}>
        <input
          id={ids.receiver}
          className="latch-form-input"
          data-testid="send-receiver"
          autoComplete="off"
          spellCheck={false}
          placeholder={latch.t('sendReceiverPlaceholder')}
          value={state.receiverInput}
          aria-describedby={state.error ? ids.error : undefined}
          onChange={(event) => send.setReceiver(event.target.value)}
          onBlur={() => void send.resolveReceiver()}
        />
        {state.resolving ? (
          <span className="latch-form-label" role="status">
            {latch.t('sendResolving')}
          </span>
        ) : (
          receiverShown
        )}
      </FormField>
      <p className="latch-message" data-testid="send-fee">
        {latch.t('sendNetworkFee')}: {fee}
      </p>
      {error}
      <Button variant="primary" type="submit" data-testid="send-submit" disabled={state.resolving}>
        {latch.t('sendPreview')}
      </Button>
    </form>
  );
}
