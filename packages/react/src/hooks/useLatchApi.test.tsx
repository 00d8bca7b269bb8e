import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AccountButton } from '../components/AccountButton/AccountButton.js';
import { LatchProvider } from '../components/LatchProvider/LatchProvider.js';
import { NetworkButton } from '../components/NetworkButton/NetworkButton.js';
import { CHECKSUMMED_ACCOUNT, createTestLatch, createTestProvider, devnet, installWallet, stubGateway, testWalletInfo } from '../test/fixtures.js';
import {
  useDisconnect,
  useLatchEvents,
  useLatchNetwork,
  useLatchProvider,
  useLatchState,
  useLatchTheme,
  useWalletInfo,
} from './useLatchApi.js';
import { useLatchAccount } from './useLatch.js';

/** Shows what the hooks return, so a test can read it from the DOM. */
function Probe() {
  const network = useLatchNetwork();
  const state = useLatchState();
  const theme = useLatchTheme();
  const { event } = useLatchEvents();
  const { walletInfo } = useWalletInfo();
  const { walletProvider } = useLatchProvider('eip155');
  const solana = useLatchAccount({ namespace: 'solana' });
  const { disconnect } = useDisconnect();
  return (
    <>
      <output data-testid="probe">
        {JSON.stringify({
          network: network.caipNetwork?.name ?? null,
          chainId: network.chainId ?? null,
          open: state.open,
          view: state.view,
          theme: theme.themeMode,
          background: theme.themeVariables['--latch-color-background'],
          event: event?.type ?? null,
          wallet: walletInfo?.name ?? null,
          provider: walletProvider !== undefined,
          solana: solana.status,
        })}
      </output>
      <button type="button" onClick={() => theme.setThemeMode('light')}>light</button>
      <button type="button" onClick={disconnect}>disconnect</button>
      <AccountButton />
      <NetworkButton />
    </>
  );
}

const probe = () => JSON.parse(screen.getByTestId('probe').textContent!) as Record<string, unknown>;

// The wallet is an EIP-1193 test double and `fetch` stands in for the Latch server (jsdom has
// neither a browser wallet nor a server); the end-to-end tests cover both for real.
describe('React API hooks and buttons', () => {
  it('follow the connection, theme and events of their instance', async () => {
    stubGateway();
    const latch = createTestLatch();
    installWallet(createTestProvider());
    render(
      <LatchProvider latch={latch}>
        <Probe />
      </LatchProvider>,
    );
    expect(probe()).toMatchObject({ network: null, open: false, theme: 'dark', background: '#121313', wallet: null, provider: false });
    expect(screen.queryByTestId('account-button')).toBeNull();
    expect(screen.getByTestId('network-button').textContent).toBe(devnet.name);

    await act(() => latch.connect(testWalletInfo.uuid));
    expect(probe()).toMatchObject({
      network: devnet.name,
      chainId: 31337,
      wallet: testWalletInfo.name,
      provider: true,
      solana: 'disconnected',
      event: 'CONNECT_SUCCESS',
    });
    expect(await screen.findByText('10000.000 ETH')).toBeTruthy();
    expect(screen.getByTestId('account-button').textContent).toContain(`${CHECKSUMMED_ACCOUNT.slice(0, 4)}...`);

    fireEvent.click(screen.getByTestId('network-button'));
    expect(probe()).toMatchObject({ open: true, view: 'Networks' });
    expect(screen.getByTestId('network-picker')).toBeTruthy();

    fireEvent.click(screen.getByText('light'));
    expect(probe()).toMatchObject({ theme: 'light', background: '#ffffff' });
    expect(screen.getByRole('dialog').parentElement!.getAttribute('data-theme')).toBe('light');

    fireEvent.click(screen.getByText('disconnect'));
    // Disconnecting closes the modal: its MODAL_CLOSE is the last event.
    expect(probe()).toMatchObject({ provider: false, open: false, event: 'MODAL_CLOSE' });
  });
});
