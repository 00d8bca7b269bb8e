import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Network } from '../../core/types.js';
import { CHECKSUMMED_ACCOUNT, createTestLatch, createTestProvider, devnet, rpcResult, stubGateway } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';
import { createTestStandardWallet, registerStandardWallet, solanaDevnet, testSolanaKey } from '../../test/standardWallet.js';

const sepolia: Network = {
  id: 11155111,
  caipNetworkId: 'eip155:11155111',
  chainNamespace: 'eip155',
  name: 'Sepolia',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
};

// The wallets are test doubles and `fetch` stands in for the Latch server; the QR encoder is the
// real one (@latch/wasm-walletconnect, loaded from disk). e2e/tests/receive.spec.ts decodes the
// drawn code in a real browser.
describe('ReceiveView', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function openReceive(connect: () => void) {
    stubGateway(() => rpcResult('0x0'));
    registerStandardWallet(createTestStandardWallet());
    await openConnectView(createTestProvider(), createTestLatch({ networks: [devnet, sepolia, solanaDevnet] }));
    connect();
    fireEvent.click(await screen.findByTestId('account-action-receive'));
    return screen.findByTestId('receive-view');
  }

  it('shows the EVM address, its QR code named by the address, the network and the EVM networks only', async () => {
    const view = await openReceive(chooseTestWallet);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Receive');
    expect(screen.getByTestId('receive-address').textContent).toBe(CHECKSUMMED_ACCOUNT);
    const qr = await within(view).findByRole('img', { name: `QR code of the address ${CHECKSUMMED_ACCOUNT}` });
    expect(qr.closest('[data-testid="receive-qr"]')?.getAttribute('aria-busy')).toBe('false');
    // A 42-character address fits a version 3 code at level M: 29 modules and the quiet zone.
    expect(qr.getAttribute('viewBox')).toBe('-4 -4 37 37');
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h\d+v1h-\d+z/);
    expect(screen.getByTestId('receive-network').textContent).toBe('Connected on Latch Devnet');
    const networks = within(screen.getByRole('list', { name: 'Networks that can send to this address' }));
    expect(networks.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Latch Devnet', 'Sepolia']);
    expect(screen.getByTestId(`receive-network-${devnet.caipNetworkId}`).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('note').textContent).toContain('Only send EVM assets');
  });

  it('for a Solana account lists Solana networks only and warns about other chains', async () => {
    await openReceive(() => fireEvent.click(screen.getByTestId('wallet-selector-wallet-standard:Test Solana Wallet')));
    const { address } = testSolanaKey();
    expect(screen.getByTestId('receive-address').textContent).toBe(address);
    expect(await screen.findByRole('img', { name: `QR code of the address ${address}` })).toBeTruthy();
    expect(screen.getByTestId('receive-network').textContent).toBe('Connected on Solana Devnet');
    const networks = within(screen.getByTestId('receive-networks'));
    expect(networks.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Solana Devnet']);
    expect(screen.getByRole('note').textContent).toContain('Only send Solana assets');
  });

  it('copies the address and says so in a toast', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await openReceive(chooseTestWallet);
    fireEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    expect((await screen.findByTestId('toast')).textContent).toContain('Address copied');
    expect(writeText).toHaveBeenCalledWith(CHECKSUMMED_ACCOUNT);
  });

  it('reports a refused copy', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    await openReceive(chooseTestWallet);
    fireEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    expect((await screen.findByTestId('toast')).textContent).toContain('The address could not be copied.');
  });

  it('goes back to Account from the header', async () => {
    await openReceive(chooseTestWallet);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByTestId('account-address')).toBeTruthy();
    expect(screen.queryByTestId('receive-view')).toBeNull();
  });
});
