import { formatBalance, formatNumber, formatUnits } from '@latch/wasm';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { HIGH_PRICE_IMPACT, SWAP_SLIPPAGE, type SwapTokenOption } from '../../core/swap.js';
import { useStore } from '../../hooks/useStore.js';
import { AmountInput, FormField } from '../Form.js';
import { swapControllerFor } from './swapController.js';
import { swapViewStyles } from './SwapView.styles.js';

/**
 * Swap (behaviour 5.8): from and to tokens (searchable by symbol or address), amount with Max, a live
 * quote (debounced, re-read every block), price impact, minimum received and network fee, then
 * approve when the allowance is short, then the swap in the wallet.
 */
export function SwapView() {
  const latch = useLatchInstance();
  const swap = swapControllerFor(latch);
  const state = useStore(swap.store);
  useStore(latch.accountData.tokens);
  const [query, setQuery] = useState('');
  const ids = { search: useId(), from: useId(), to: useId(), amount: useId(), error: useId() };

  // `open({ view: 'Swap', data })`: the form starts from the data, once per opening.
  const { data } = useStore(latch.modal.store);
  useEffect(() => {
    const prefill = latch.modal.takeData('Swap');
    if (prefill) swap.prefill(prefill);
  }, [latch, swap, data]);

  useEffect(() => {
    void swap.load();
    return swap.watchBlocks();
  }, [swap]);

  const shown = swap.search(query);
  const options = (selected: SwapTokenOption | undefined) => {
    // The selected token stays listed whatever the search, so the picker keeps showing it.
    const list = selected && !shown.includes(selected) ? [selected, ...shown] : shown;
    return list.map((t) => (
      <option key={t.address} value={t.address}>
        {t.symbol}
      </option>
    ));
  };
  const { from, to, quote } = state;
  const busy = state.step !== 'form';
  // The from and to pickers, and the balance under each.
  const tokenSelect = (id: string, testId: string, token: SwapTokenOption | undefined, select: (address: string) => void) => (
    <select
      id={id}
      className="latch-form-input"
      data-testid={testId}
      value={token?.address ?? ''}
      disabled={busy}
      onChange={(event) => select(event.target.value)}
    >
      {options(token)}
    </select>
  );
  const balance = (testId: string, token: SwapTokenOption | undefined) =>
    token ? (
      <span className="latch-form-label" data-testid={testId}>
        {latch.t('swapBalance', { amount: formatBalance(token.balance, token.symbol) })}
      </span>
    ) : null;
  const units = (amount: string, token: SwapTokenOption | undefined) =>
    token ? formatNumber(formatUnits(amount, token.decimals), 6) : amount;
  const error = state.error ? (
    <p className="latch-message latch-message--error" role="alert" id={ids.error} data-testid="swap-error">
      {latch.t(state.error)}
    </p>
  ) : null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void (state.needsApproval ? swap.approve() : swap.swap());
  };

  return (
    <form className="latch-view" data-testid="swap-view" onSubmit={onSubmit} noValidate>
      <style>{swapViewStyles}</style>
      {state.tokens.length === 0 && !state.error ? <p className="latch-message">{latch.t('swapNoTokens')}</p> : null}
      <FormField id={ids.search} label={latch.t('swapSearch')}>
        <input
          id={ids.search}
          className="latch-form-input"
          data-testid="swap-search"
          type="search"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        {query && shown.length === 0 ? (
          <span className="latch-form-label" role="status">
            {latch.t('swapNoMatch')}
          </span>
        ) : null}
      </FormField>
      <FormField id={ids.from} label={latch.t('swapFrom')}>
        <div className="latch-form-row">
          {tokenSelect(ids.from, 'swap-from-token', from, (address) => swap.selectFrom(address))}
          <Button aria-label={latch.t('swapFlip')} data-testid="swap-flip" disabled={busy} onClick={swap.flip}>
            ⇅
          </Button>
        </div>
        {balance('swap-from-balance', from)}
      </FormField>
      <FormField id={ids.amount} label={latch.t('swapAmount')}>
        <AmountInput
          id={ids.amount}
          testId="swap-amount"
          value={state.amount}
          disabled={busy}
          aria-describedby={state.error ? ids.error : undefined}
          onChange={(event) => swap.setAmount(event.target.value)}
          maxLabel={latch.t('swapMax')}
          maxTestId="swap-max"
          maxDisabled={busy || !from}
          onMax={() => void swap.setMax()}
        />
      </FormField>
      <FormField id={ids.to} label={latch.t('swapTo')}>
        {tokenSelect(ids.to, 'swap-to-token', to, (address) => swap.selectTo(address))}
        {balance('swap-to-balance', to)}
      </FormField>
      {state.quoting ? (
        <p className="latch-message" role="status">
          {latch.t('swapQuoting')}
        </p>
      ) : null}
      {quote && to && !state.quoting ? (
        <dl className="latch-form-summary latch-swap-quote" data-testid="swap-quote" aria-live="polite">
          <dt>{latch.t('swapTo')}</dt>
          <dd data-testid="swap-quote-amount">{latch.t('swapReceiveValue', { amount: units(quote.toAmount, to), symbol: to.symbol })}</dd>
          <dt>{latch.t('swapMinReceived')}</dt>
          <dd data-testid="swap-min-received">{latch.t('swapReceiveValue', { amount: units(quote.toAmountMin, to), symbol: to.symbol })}</dd>
          <dt>{latch.t('swapPriceImpact')}</dt>
          <dd data-testid="swap-price-impact">{formatNumber(String(quote.priceImpact), 2)} %</dd>
          <dt>{latch.t('swapSlippage')}</dt>
          <dd>{SWAP_SLIPPAGE} %</dd>
          <dt>{latch.t('swapNetworkFee')}</dt>
          <dd data-testid="swap-fee">
            {latch.t('swapNetworkFeeValue', { usd: formatNumber(String(quote.networkFeeUsd ?? 0), 2) })}
          </dd>
        </dl>
      ) : null}
      {quote && quote.priceImpact >= HIGH_PRICE_IMPACT ? (
        <p className="latch-message latch-swap-warning" role="alert" data-testid="swap-impact-warning">
          {latch.t('swapPriceImpactHigh')}
        </p>
      ) : null}
      {error}
      {state.needsApproval && from ? (
        <Button variant="primary" type="submit" data-testid="swap-approve" disabled={busy || !quote} aria-busy={state.step === 'approving'}>
          {latch.t(state.step === 'approving' ? 'swapApproving' : 'swapApprove', { symbol: from.symbol })}
        </Button>
      ) : (
        <Button
          variant="primary"
          type="submit"
          data-testid="swap-submit"
          disabled={busy || !quote || state.quoting || !!state.error}
          aria-busy={state.step === 'swapping'}
        >
          {latch.t(state.step === 'swapping' ? 'swapSwapping' : 'swapSubmit')}
        </Button>
      )}
    </form>
  );
}
