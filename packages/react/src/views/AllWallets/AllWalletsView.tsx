import { useCallback, useEffect, useId } from 'react';
import { Button } from '../../components/Button/Button.js';
import { VirtualList } from '../../components/VirtualList/VirtualList.js';
import { WalletButton } from '../../components/WalletButton/WalletButton.js';
import { useLatchInstance } from '../../context.js';
import { useInstalledWallets, useWalletList } from '../../hooks/useWalletList.js';

/** Row and viewport heights of the windowed list, in px. */
export const WALLET_ROW_HEIGHT = 64;
const LIST_HEIGHT = WALLET_ROW_HEIGHT * 6.5;

/**
 * The whole catalogue, page by page as the visitor scrolls, or the results of a search. Installed
 * wallets are marked and connect at once; others open their page.
 */
export function AllWalletsView() {
  const latch = useLatchInstance();
  const { list, search } = useWalletList();
  const installed = useInstalledWallets();
  const searchId = useId();
  const searching = search.query.trim() !== '';
  const shown = searching ? search : list;
  const { wallets, status } = shown;

  useEffect(() => {
    if (latch.walletList.store.getState().list.page === 0) void latch.walletList.loadNextPage();
  }, [latch]);

  const loadMore = useCallback(() => {
    if (!searching) void latch.walletList.loadNextPage();
  }, [latch, searching]);

  function renderWallet(index: number) {
    const wallet = wallets[index]!;
    const connector = wallet.rdns ? installed.get(wallet.rdns.toLowerCase()) : undefined;
    return (
      <WalletButton
        name={wallet.name}
        imageUrl={connector?.imageUrl ?? latch.catalogue.walletImageUrl(wallet)}
        tags={connector ? [latch.t('walletInstalled')] : []}
        testId={`all-wallets-item-${wallet.id}`}
        onClick={() => (connector ? void latch.connect(connector.id) : latch.walletList.select(wallet))}
        // Not installed: it pairs over WalletConnect, whose engine can start loading now.
        onIntent={connector ? undefined : () => latch.walletConnect?.preload()}
      />
    );
  }

  let message: string | undefined;
  if (status === 'error') message = latch.t('walletsFailed');
  else if (status === 'loading' && wallets.length === 0) message = latch.t(searching ? 'walletsSearching' : 'walletsLoading');
  else if (status === 'ready' && wallets.length === 0) {
    message = searching ? latch.t('walletsNoMatch', { query: search.query.trim() }) : latch.t('walletsEmpty');
  } else if (searching && status === 'ready') {
    message = wallets.length === 1 ? latch.t('walletFound') : latch.t('walletsFound', { count: String(wallets.length) });
  }

  return (
    <div className="latch-view latch-all-wallets-view">
      <label className="latch-visually-hidden" htmlFor={searchId}>
        {latch.t('searchWallets')}
      </label>
      <input
        id={searchId}
        type="search"
        className="latch-search"
        data-testid="all-wallets-search"
        placeholder={latch.t('searchWallets')}
        autoComplete="off"
        spellCheck={false}
        value={search.query}
        onChange={(event) => latch.walletList.setSearch(event.target.value)}
      />
      {/* Announced politely: loading, the number of results, an empty or failed listing. */}
      <p
        className={`latch-message${status === 'error' ? ' latch-message--error' : ''}${message ? '' : ' latch-visually-hidden'}`}
        role="status"
        data-testid="all-wallets-status"
        aria-busy={status === 'loading'}
      >
        {message}
      </p>
      {status === 'error' ? (
        <Button
          onClick={() =>
            searching ? latch.walletList.setSearch(search.query) : void latch.walletList.loadNextPage({ retry: true })
          }
        >
          {latch.t('retry')}
        </Button>
      ) : null}
      {wallets.length ? (
        <VirtualList
          // A new search starts at the top.
          key={searching ? `search-${search.query.trim()}` : 'list'}
          testId="all-wallets-list"
          label={latch.t('allWalletsTitle')}
          itemCount={wallets.length}
          itemHeight={WALLET_ROW_HEIGHT}
          maxHeight={LIST_HEIGHT}
          itemKey={(index) => wallets[index]!.id}
          renderItem={renderWallet}
          onEndReached={loadMore}
        />
      ) : null}
    </div>
  );
}
