import { formatNumber } from '@latch/wasm';
import { useEffect, useId, type FormEvent } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { useStore } from '../../hooks/useStore.js';
import { FormField } from '../Form.js';
import { buyControllerFor } from './buyController.js';

/** Buy (behaviour 5.9): amount, fiat currency, method, asset and network, a live quote, then the provider. */
export function BuyView() {
  const latch = useLatchInstance();
  const buy = buyControllerFor(latch);
  const state = useStore(buy.store);
  const ids = { amount: useId(), currency: useId(), method: useId(), asset: useId(), network: useId(), provider: useId(), error: useId() };
  // `open({ view: 'Onramp', data })`: the amount starts from the data, once per opening.
  const { data } = useStore(latch.modal.store);
  useEffect(() => {
    const prefill = latch.modal.takeData('Onramp');
    if (prefill?.amount !== undefined) buy.prefill(String(prefill.amount));
  }, [latch, buy, data]);
  useEffect(() => {
    if (buy.store.getState().status === 'idle') void buy.load();
  }, [buy]);

  const options = state.options;
  const currency = options?.paymentCurrencies.find((c) => c.id === state.currency);
  const asset = options?.purchaseCurrencies.find((c) => c.symbol === state.asset);
  const limit = currency?.payment_method_limits.find((l) => l.id === state.method);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void buy.submit();
  };
  const error = state.error ? (
    <p className="latch-message latch-message--error" role="alert" id={ids.error} data-testid="buy-error">
      {latch.t(state.error, { min: limit?.min ?? '', max: limit?.max ?? '', currency: state.currency })}
    </p>
  ) : null;
  const money = (m: { amount: string; currency: string }) => `${m.amount ? formatNumber(m.amount, 2) : '—'} ${m.currency}`;
  const q = state.quote;

  return (
    <form className="latch-view" data-testid="buy-view" onSubmit={onSubmit} noValidate aria-busy={state.status === 'loading'}>
      {state.status === 'loading' ? <p className="latch-message">{latch.t('viewLoading')}</p> : null}
      {options && options.providers.length > 1 ? (
        <FormField id={ids.provider} label={latch.t('buyProvider')}>
          <select id={ids.provider} className="latch-form-input" data-testid="buy-provider" value={state.provider} onChange={(e) => void buy.load(e.target.value)}>
            {options.providers.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </FormField>
      ) : null}
      <div className="latch-form-row">
        <FormField id={ids.amount} label={latch.t('buyAmount')}>
          <input
            id={ids.amount}
            className="latch-form-input"
            data-testid="buy-amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder={limit ? `${limit.min} – ${limit.max}` : ''}
            value={state.amount}
            aria-invalid={state.error === 'buyErrorBelowMin' || state.error === 'buyErrorAboveMax' || state.error === 'buyErrorAmount'}
            aria-describedby={state.error ? ids.error : undefined}
            onChange={(e) => buy.set({ amount: e.target.value })}
          />
        </FormField>
        <FormField id={ids.currency} label={latch.t('buyCurrency')}>
          <select id={ids.currency} className="latch-form-input" data-testid="buy-currency" value={state.currency} onChange={(e) => buy.set({ currency: e.target.value })}>
            {options?.paymentCurrencies.map((c) => <option key={c.id} value={c.id}>{c.id}</option>)}
          </select>
        </FormField>
      </div>
      <FormField id={ids.method} label={latch.t('buyMethod')}>
        <select id={ids.method} className="latch-form-input" data-testid="buy-method" value={state.method} onChange={(e) => buy.set({ method: e.target.value })}>
          {currency?.payment_method_limits.map((l) => (
            <option key={l.id} value={l.id}>{latch.t(l.id === 'CARD' ? 'buyMethodCard' : l.id === 'ACH_BANK_ACCOUNT' ? 'buyMethodBank' : 'buyMethodOther')}</option>
          ))}
        </select>
      </FormField>
      <div className="latch-form-row">
        <FormField id={ids.asset} label={latch.t('buyAsset')}>
          <select id={ids.asset} className="latch-form-input" data-testid="buy-asset" value={state.asset} onChange={(e) => buy.set({ asset: e.target.value })}>
            {options?.purchaseCurrencies.map((c) => <option key={c.id} value={c.symbol}>{c.symbol}</option>)}
          </select>
        </FormField>
        <FormField id={ids.network} label={latch.t('buyNetwork')}>
          <select id={ids.network} className="latch-form-input" data-testid="buy-network" value={state.network} onChange={(e) => buy.set({ network: e.target.value })}>
            {asset?.networks.map((n) => <option key={n.name} value={n.name}>{n.display_name}</option>)}
          </select>
        </FormField>
      </div>
      <div data-testid="buy-quote" aria-live="polite" aria-busy={state.quoting}>
        {q ? (
          <dl className="latch-form-summary">
            <dt>{latch.t('buyQuoteReceive')}</dt>
            <dd data-testid="buy-quote-amount">{q.purchaseAmount.amount ? `${q.purchaseAmount.amount} ${q.purchaseAmount.currency}` : latch.t('buyQuoteUnknown')}</dd>
            <dt>{latch.t('buyQuoteFee')}</dt>
            <dd>{money(q.coinbaseFee)}</dd>
            <dt>{latch.t('buyQuoteNetworkFee')}</dt>
            <dd>{money(q.networkFee)}</dd>
            <dt>{latch.t('buyQuoteTotal')}</dt>
            <dd>{money(q.paymentTotal)}</dd>
          </dl>
        ) : null}
        {q?.estimate ? <p className="latch-message">{latch.t('buyQuoteEstimate')}</p> : null}
      </div>
      {error}
      {state.following ? <p className="latch-message" role="status" data-testid="buy-following">{latch.t('buyFollowing')}</p> : null}
      <Button type="submit" variant="primary" data-testid="buy-submit" disabled={!q || state.quoting}>
        {latch.t('buySubmit')}
      </Button>
    </form>
  );
}
