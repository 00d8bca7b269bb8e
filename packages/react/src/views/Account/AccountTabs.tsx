import { filterLowQualityTokens, formatNumber, formatValue } from '@latch/wasm';
import { lazy, Suspense, useEffect, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import { TOKEN_RETRY_MS, type LoadStatus } from '../../core/accountData.js';
import type { NftHoldings, TokenBalance } from '../../core/api.js';
import { serverRefusal } from '../../core/gateway.js';
import type { CaipNetworkId } from '../../core/types.js';
import { useStore } from '../../hooks/useStore.js';
import type { MessageKey } from '../../locales/index.js';
import { ActivityLoading } from './ActivityLoading.js';
import { RowIcon } from './RowIcon.js';

// Behaviour 7.9: Activity is the optional `history` part, a chunk of its own, fetched only with the feature on.
const loadActivityPanel = () => import('./ActivityPanel.js');
const ActivityPanel = lazy(() => loadActivityPanel().then((module) => ({ default: module.ActivityPanel })));

const TABS = ['tokens', 'nfts', 'activity'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, MessageKey> = { tokens: 'tabTokens', nfts: 'tabNfts', activity: 'tabActivity' };

/** Tokens, NFTs and Activity of the connected account (behaviour 1.1 Account), as ARIA tabs. */
export function AccountTabs({ caipNetworkId }: { caipNetworkId: CaipNetworkId }) {
  const latch = useLatchInstance();
  // Behaviour 7.9: Activity is the `history` feature.
  const tabs: readonly Tab[] = latch.features.history ? TABS : TABS.filter((name) => name !== 'activity');
  const [tab, setTab] = useState<Tab>('tokens');
  // Fetched while the visitor looks at Tokens, so choosing Activity does not wait for the chunk.
  useEffect(() => {
    if (latch.features.history) void loadActivityPanel();
  }, [latch]);
  const id = (name: Tab, part: 'tab' | 'panel') => `latch-account-${part}-${name}`;

  // Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = tabs.indexOf(tab);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const chosen = tabs[(next + tabs.length) % tabs.length]!;
    setTab(chosen);
    document.getElementById(id(chosen, 'tab'))?.focus();
  };

  return (
    <div className="latch-account-tabs">
      <div role="tablist" aria-label={latch.t('accountTabs')} className="latch-tablist">
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={id(name, 'tab')}
            data-testid={`account-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={id(name, 'panel')}
            tabIndex={tab === name ? 0 : -1}
            className="latch-tab"
            onClick={() => setTab(name)}
            onKeyDown={onKeyDown}
          >
            {latch.t(TAB_LABELS[name])}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={id(tab, 'panel')} aria-labelledby={id(tab, 'tab')} className="latch-tabpanel" tabIndex={0}>
        {tab === 'tokens' ? (
          <TokensPanel />
        ) : tab === 'nfts' ? (
          <NftsPanel />
        ) : (
          <Suspense fallback={<ActivityLoading />}>
            <ActivityPanel caipNetworkId={caipNetworkId} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

function TokenRow({ balance }: { balance: TokenBalance }) {
  const latch = useLatchInstance();
  return (
    <li className="latch-row" data-testid={`token-${balance.symbol}`}>
      <RowIcon url={balance.iconUrl} />
      <span className="latch-row-main">
        <span className="latch-row-title">{balance.name}</span>
        <span className="latch-row-detail">
          {formatNumber(balance.quantity.numeric, 2)} {balance.symbol}
        </span>
      </span>
      <span className="latch-row-side">{latch.t('usdValue', { value: formatValue(balance.value) })}</span>
    </li>
  );
}

function TokensPanel() {
  const latch = useLatchInstance();
  const { status, balances, error, failedAt } = useStore(latch.accountData.tokens);
  const [now, setNow] = useState(Date.now);
  const waitMs = failedAt === undefined ? 0 : Math.max(0, failedAt + TOKEN_RETRY_MS - now);
  // While a retry is held back, tick once a second so the button enables itself.
  useEffect(() => {
    if (waitMs <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [waitMs > 0]);

  if (status === 'error') {
    return (
      <div className="latch-panel-state">
        {/* Other failures are announced by their toast; an alert here would say it twice. */}
        <p className="latch-message--error" role={serverRefusal(error) ? 'alert' : undefined}>
          {latch.t(serverRefusal(error) ?? 'balanceUnavailable')}
        </p>
        <Button disabled={waitMs > 0} onClick={() => void latch.accountData.refreshTokens()}>
          {waitMs > 0 ? latch.t('tokenRetryIn', { seconds: String(Math.ceil(waitMs / 1_000)) }) : latch.t('retry')}
        </Button>
      </div>
    );
  }
  if (status !== 'ready') return <p className="latch-panel-state latch-loading" aria-busy="true">{latch.t('tokensLoading')}</p>;
  const shown = filterLowQualityTokens(balances as TokenBalance[]) as TokenBalance[];
  if (shown.length === 0) return <p className="latch-panel-state">{latch.t('tokensEmpty')}</p>;
  return (
    <ul className="latch-rows" data-testid="account-tokens">
      {shown.map((balance) => (
        <TokenRow key={balance.address ?? balance.symbol} balance={balance} />
      ))}
    </ul>
  );
}

/** NFTs held, from the server's holdings of the account (every transfer it indexed). */
function NftsPanel() {
  const latch = useLatchInstance();
  const { address, caipNetworkId } = useStore(latch.account);
  const [{ status, holdings, error }, setState] = useState<{ status: LoadStatus; holdings?: NftHoldings; error?: unknown }>({
    status: 'loading',
  });
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    latch.accountData.nfts().then(
      (holdings) => current && setState({ status: 'ready', holdings }),
      (error: unknown) => current && setState({ status: 'error', error }),
    );
    return () => void (current = false);
  }, [latch, address, caipNetworkId]);
  if (status === 'error') {
    return (
      <p className="latch-message--error" role={serverRefusal(error) ? 'alert' : undefined}>
        {latch.t(serverRefusal(error) ?? 'activityFailed')}
      </p>
    );
  }
  if (status !== 'ready') return <p className="latch-panel-state latch-loading" aria-busy="true">{latch.t('nftsLoading')}</p>;
  // Unsolicited tokens are hidden, as Activity hides them (behaviour 5.13 spam).
  const held = (holdings?.data ?? []).filter((nft) => !nft.isSpam);
  if (held.length === 0) return <p className="latch-panel-state">{latch.t('nftsEmpty')}</p>;
  return (
    <ul className="latch-rows" data-testid="account-nfts">
      {held.map(({ chainId, contract, tokenId, name, content }) => {
        const image = content?.preview?.url;
        return (
        <li key={`${chainId}:${contract}:${tokenId}`} className="latch-row">
          <RowIcon url={image} testId="nft-image" />
          <span className="latch-row-title">{name}</span>
        </li>
        );
      })}
    </ul>
  );
}
