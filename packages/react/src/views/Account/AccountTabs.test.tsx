import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_RETRY_MS } from '../../core/accountData.js';
import { createTestLatch, createTestProvider, stubGateway } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';

// `fetch` stands in for the Latch server (no server runs in unit tests); the answers follow the
// server's documented shapes, and the end-to-end suite reads the same tabs from a real server.
const USDC = {
  name: 'USD Coin',
  symbol: 'USDC',
  chainId: 'eip155:31337',
  address: 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3',
  value: 10000,
  price: 1,
  quantity: { decimals: '6', numeric: '10000' },
  iconUrl: 'http://latch.test/public/getTokenImage/USDC?projectId=test-project&st=latch-react&sv=0.1.0',
};
const ETH = { ...USDC, name: 'Ether', symbol: 'ETH', address: undefined, value: 30000000, price: 3000, quantity: { decimals: '18', numeric: '10000' } };
const SPAM = { ...USDC, name: 'Free Money', symbol: 'SPAM', address: 'eip155:31337:0x1', quantity: { decimals: '0', numeric: '5' } };

function transaction(hash: string, operationType: string, minedAt: string, transfer: object, status = 'confirmed') {
  return {
    id: `eip155:31337:${hash}`,
    metadata: { operationType, hash, minedAt, sentFrom: '0x1', sentTo: '0x2', status, nonce: 1, application: null, chain: 'eip155:31337' },
    transfers: [transfer],
  };
}
const received = (symbol: string, numeric: string) => ({
  fungible_info: { name: symbol, symbol, icon: { url: `http://latch.test/public/getTokenImage/${symbol}` } },
  nft_info: null,
  direction: 'in',
  quantity: { numeric },
  value: null,
  price: null,
});

async function connect(latch = createTestLatch()) {
  await openConnectView(createTestProvider(), latch);
  chooseTestWallet();
  return screen.findByTestId('account-address');
}

afterEach(() => vi.useRealTimers());

describe('Account tabs', () => {
  it('lists token balances with 2-decimal amounts and values, hiding low-quality tokens', async () => {
    stubGateway(undefined, { balance: () => Response.json({ balances: [ETH, USDC, SPAM] }) });
    await connect();
    const list = await screen.findByTestId('account-tokens');
    expect(within(list).getAllByRole('listitem').map((row) => row.textContent)).toEqual([
      'Ether10,000.00 ETH$30,000,000.00',
      'USD Coin10,000.00 USDC$10,000.00',
    ]);
    expect(screen.getByRole('tab', { name: 'Tokens' }).getAttribute('aria-selected')).toBe('true');
  });

  it("shows each token's icon, and for a token without one a blank circle, not an <img> with an empty src", async () => {
    stubGateway(undefined, { balance: () => Response.json({ balances: [{ ...ETH, iconUrl: '' }, USDC] }) });
    await connect();
    const usdc = await screen.findByTestId('token-USDC');
    expect(usdc.querySelector('img')?.getAttribute('src')).toBe(USDC.iconUrl);
    const eth = screen.getByTestId('token-ETH');
    expect(eth.querySelector('img')).toBeNull();
    expect(eth.querySelector('.latch-row-icon')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('shows the empty state and the identity name and avatar', async () => {
    stubGateway(undefined, {
      identity: () => Response.json({ name: 'latch-dev.eth', avatar: 'https://example.test/a.png' }),
    });
    await connect();
    expect((await screen.findByTestId('account-name')).textContent).toBe('latch-dev.eth');
    expect(screen.getByTestId('account-avatar').getAttribute('src')).toBe('https://example.test/a.png');
    expect(await screen.findByText('No tokens yet')).toBeTruthy();
  });

  it('holds a failed token read back for 30 s before allowing a retry', async () => {
    let healthy = false;
    stubGateway(undefined, {
      balance: () => (healthy ? Response.json({ balances: [USDC] }) : Response.json({ status: 'FAILED', reasons: [] }, { status: 503 })),
    });
    await connect();
    // Announced once, by the toast (behaviour 5.2); the panel says it in place.
    expect((await screen.findByRole('alert')).textContent).toBe('Token Balance Unavailable');
    expect(screen.getByRole('alert')).toBe(screen.getByTestId('toast'));
    expect(screen.getByRole('tabpanel').textContent).toContain('Token Balance Unavailable');
    const retry = screen.getByRole('button', { name: /Try again in \d+ s/ }) as HTMLButtonElement;
    expect(retry.disabled).toBe(true);
    healthy = true;
    // Only the clock jumps; the view's once-a-second tick then enables the button.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + TOKEN_RETRY_MS + 1_000);
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }, { timeout: 3_000 }));
    expect(await screen.findByTestId('token-USDC')).toBeTruthy();
  });

  it('groups activity by month with signed quantities, and pages', async () => {
    const thisYear = new Date().getUTCFullYear();
    const first = { data: [
      transaction('0xa', 'receive', `${thisYear}-01-15T10:00:00Z`, received('USDC', '1.5')),
      transaction('0xb', 'send', `${thisYear - 1}-12-01T10:00:00Z`, { ...received('ETH', '2'), direction: 'out' }, 'failed'),
    ], next: 'cursor-1' };
    const second = { data: [transaction('0xc', 'receive', `${thisYear - 1}-11-01T10:00:00Z`, received('LTK', '10000'))], next: null };
    const pages: string[] = [];
    stubGateway(undefined, {
      history: (url) => {
        pages.push(url.searchParams.get('cursor') ?? '');
        return Response.json(url.searchParams.get('cursor') ? second : first);
      },
    });
    const latch = createTestLatch();
    await connect(latch);
    fireEvent.click(screen.getByRole('tab', { name: 'Activity' }));
    const activity = await screen.findByTestId('account-activity');
    expect(within(activity).getAllByRole('heading').map((h) => h.textContent)).toEqual(['January', `December ${thisYear - 1}`]);
    const rows = within(activity).getAllByTestId('activity-row');
    expect(rows[0]!.textContent).toContain('Received+1.500 USDC');
    expect(rows[1]!.textContent).toContain('Sent · Failed-2.000 ETH');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(activity).findByText('+10,000.000 LTK')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(pages).toEqual(['', 'cursor-1']);
    // The headings follow the modal's language.
    await act(() => latch.setLocale('de'));
    expect(within(activity).getAllByRole('heading').slice(0, 3).map((h) => h.textContent)).toEqual([
      'Januar',
      `Dezember ${thisYear - 1}`,
      `November ${thisYear - 1}`,
    ]);
    // December of last year is at least a month ago, worded in German.
    expect(within(activity).getAllByTestId('activity-row')[1]!.textContent).toMatch(/vor \d+ (Mon|J)\.$/);
  });

  it('says so when the history cannot be read', async () => {
    stubGateway(undefined, { history: () => Response.json({ status: 'FAILED', reasons: [] }, { status: 500 }) });
    await connect();
    fireEvent.click(screen.getByRole('tab', { name: 'Activity' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch transactions');
    expect(screen.getByRole('alert')).toBe(screen.getByTestId('toast'));
    expect(screen.getByRole('tabpanel').textContent).toContain('Failed to fetch transactions');
  });

  it('lists the NFTs the server holds for the account, without the unsolicited ones', async () => {
    const nft = (tokenId: string, isSpam: boolean) => ({
      chainId: 'eip155:31337',
      contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      tokenId,
      kind: 'erc721',
      amount: '1',
      name: `Latch Punks #${tokenId}`,
      content: tokenId === '0' ? { preview: { url: 'data:image/svg+xml;base64,PHN2Zy8+' } } : null,
      isSpam,
    });
    stubGateway(undefined, { nfts: () => Response.json({ data: [nft('0', false), nft('7', true), nft('2', false)], partial: false }) });
    await connect();
    fireEvent.click(screen.getByRole('tab', { name: 'NFTs' }));
    const list = await screen.findByTestId('account-nfts');
    expect(within(list).getAllByRole('listitem').map((row) => row.textContent)).toEqual(['Latch Punks #0', 'Latch Punks #2']);
    expect(within(list).getAllByTestId('nft-image')).toHaveLength(1);
  });

  it('says so when the NFTs cannot be read', async () => {
    stubGateway(undefined, { nfts: () => Response.json({ status: 'FAILED', reasons: [] }, { status: 500 }) });
    await connect();
    fireEvent.click(screen.getByRole('tab', { name: 'NFTs' }));
    expect((await screen.findByRole('tabpanel')).textContent).toBeTruthy();
    expect(await screen.findByText('Failed to fetch transactions')).toBeTruthy();
  });

  it('moves between tabs with the arrow keys', async () => {
    stubGateway();
    await connect();
    const tokens = screen.getByRole('tab', { name: 'Tokens' });
    tokens.focus();
    fireEvent.keyDown(tokens, { key: 'ArrowRight' });
    const nfts = screen.getByRole('tab', { name: 'NFTs' });
    expect(nfts.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(nfts);
    expect(await screen.findByText('No NFTs yet')).toBeTruthy();
    fireEvent.keyDown(nfts, { key: 'End' });
    expect(screen.getByRole('tab', { name: 'Activity' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Tokens' }).getAttribute('aria-selected')).toBe('true');
  });

  it('has no Activity tab with the history feature off (behaviour 7.9), and the keys skip it', async () => {
    stubGateway();
    await connect(createTestLatch({ features: { history: false } }));
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Tokens', 'NFTs']);
    const tokens = screen.getByRole('tab', { name: 'Tokens' });
    tokens.focus();
    fireEvent.keyDown(tokens, { key: 'End' });
    expect(screen.getByRole('tab', { name: 'NFTs' }).getAttribute('aria-selected')).toBe('true');
  });
});
