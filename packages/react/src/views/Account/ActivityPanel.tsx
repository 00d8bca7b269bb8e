// The Account view's Activity tab: behaviour 7.9's optional `history` part, a chunk of its own that
// AccountTabs fetches only when the feature is on.
import { filterTransactions, formatQuantity, groupTransactionsByYearMonth, relativeTime } from '@latch/wasm';
import { useEffect } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import type { Transaction } from '../../core/api.js';
import { serverRefusal } from '../../core/gateway.js';
import type { CaipNetworkId } from '../../core/types.js';
import { useStore } from '../../hooks/useStore.js';
import type { MessageKey, Translate } from '../../locales/index.js';
import { ActivityLoading } from './ActivityLoading.js';
import { RowIcon } from './RowIcon.js';

const OPERATION_LABELS: Record<string, MessageKey> = {
  send: 'operationSend',
  receive: 'operationReceive',
  trade: 'operationTrade',
  mint: 'operationMint',
};

function TransactionRow({ transaction, now }: { transaction: Transaction; now: number }) {
  const latch = useLatchInstance();
  const { operationType, minedAt, status } = transaction.metadata;
  const [transfer] = transaction.transfers;
  // The server marks what one of its on-ramp providers delivered (`metadata.onramp`, the provider).
  const purchase = transaction.metadata.onramp;
  const asset = transfer?.fungible_info?.symbol ?? transfer?.nft_info?.name ?? '';
  return (
    <li className="latch-row" data-testid="activity-row" data-purchase={purchase ? 'true' : undefined}>
      <RowIcon url={transfer?.fungible_info?.icon?.url} />
      <span className="latch-row-main">
        <span className="latch-row-title">
          {latch.t(purchase ? 'activityPurchase' : (OPERATION_LABELS[operationType] ?? 'operationOther'))}
          {status === 'failed' ? ` · ${latch.t('activityFailedStatus')}` : ''}
        </span>
        <span className="latch-row-detail">
          {transfer ? `${formatQuantity(transfer.quantity.numeric, operationType)} ${asset}` : ''}
        </span>
      </span>
      <span className="latch-row-side">{relativeLabel(latch.t, Date.parse(minedAt), now)}</span>
    </li>
  );
}

export function ActivityPanel({ caipNetworkId }: { caipNetworkId: CaipNetworkId }) {
  const latch = useLatchInstance();
  const { status, transactions, next, loadingMore, error } = useStore(latch.accountData.activity);
  useEffect(() => void latch.accountData.loadActivity(), [latch]);

  if (status === 'error') {
    return (
      <div className="latch-panel-state">
        <p className="latch-message--error" role={serverRefusal(error) ? 'alert' : undefined}>
          {latch.t(serverRefusal(error) ?? 'activityFailed')}
        </p>
        <Button onClick={() => void latch.accountData.loadActivity()}>{latch.t('retry')}</Button>
      </div>
    );
  }
  if (status !== 'ready') return <ActivityLoading />;
  const now = Date.now();
  const shown = filterTransactions(transactions as Transaction[], caipNetworkId) as Transaction[];
  if (shown.length === 0) return <p className="latch-panel-state">{latch.t('activityEmpty')}</p>;
  const groups = groupTransactionsByYearMonth(shown, now, -new Date().getTimezoneOffset());
  return (
    <div data-testid="account-activity">
      {groups.map((group) => (
        <section key={`${group.year}-${group.month}`} className="latch-activity-group">
          <h3 className="latch-activity-month">{monthHeading(latch.t, group)}</h3>
          <ul className="latch-rows">
            {(group.transactions as Transaction[]).map((transaction) => (
              <TransactionRow key={transaction.id} transaction={transaction} now={now} />
            ))}
          </ul>
        </section>
      ))}
      {next !== null ? (
        <Button disabled={loadingMore} onClick={() => void latch.accountData.loadActivity(true)}>
          {latch.t('activityMore')}
        </Button>
      ) : null}
    </div>
  );
}

const MONTH_KEYS = [
  'month1', 'month2', 'month3', 'month4', 'month5', 'month6',
  'month7', 'month8', 'month9', 'month10', 'month11', 'month12',
] as const satisfies readonly MessageKey[];

/** `März` this year, `März 2023` before, in the modal's language (the core's label is English). */
function monthHeading(t: Translate, group: { year: number; month: number; currentYear: boolean }): string {
  const month = t(MONTH_KEYS[group.month - 1] ?? 'month1');
  return group.currentYear ? month : t('activityMonthInYear', { month, year: String(group.year) });
}

const RELATIVE_KEYS = {
  justNow: 'relativeJustNow',
  minutes: 'relativeMinutes',
  hours: 'relativeHours',
  days: 'relativeDays',
  months: 'relativeMonths',
  years: 'relativeYears',
} as const satisfies Record<ReturnType<typeof relativeTime>['unit'], MessageKey>;

/** `5 min`, `1 hr`, `vor 3 T.`: the core counts, the catalogue words it. */
function relativeLabel(t: Translate, timestampMs: number, nowMs: number): string {
  const { unit, count } = relativeTime(timestampMs, nowMs);
  return t(unit === 'hours' && count === 1 ? 'relativeHour' : RELATIVE_KEYS[unit], { count: String(count) });
}
