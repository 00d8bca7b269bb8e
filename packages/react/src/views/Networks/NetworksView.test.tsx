import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestLatch, createTestProvider, devnet, rpcResult, stubGateway } from '../../test/fixtures.js';
import { openConnectView } from '../../test/render.js';
import { createTestStandardWallet, registerStandardWallet, solanaDevnet, testSolanaKey } from '../../test/standardWallet.js';

// The Solana wallet is a Wallet Standard test double and the EVM one an EIP-1193 test double
// (no browser extension runs in jsdom); `fetch` stands in for the Latch server. The Playwright
// tests (e2e/tests/solana.spec.ts, networks.spec.ts) cover real wallets and the real server.
describe('Solana wallets in the modal', () => {
  function openWithSolana() {
    stubGateway(() => rpcResult({ context: { slot: 1 }, value: 2_000_000_000 }));
    registerStandardWallet(createTestStandardWallet());
    return openConnectView(createTestProvider(), createTestLatch({ networks: [devnet, solanaDevnet] }));
  }

  it('lists a Solana wallet among the installed wallets, tagged Solana', async () => {
    await openWithSolana();
    const rows = within(screen.getByRole('list', { name: 'Wallets' }))
      .getAllByRole('listitem')
      .filter((row) => row.dataset.group === 'injected')
      .map((row) => row.textContent);
    expect(rows).toEqual(['Test WalletInstalled', 'Test Solana WalletInstalledSolana']);
    expect(screen.getByRole('button', { name: 'Test Solana Wallet', description: /Installed\s*Solana/ })).toBe(
      screen.getByTestId('wallet-selector-wallet-standard:Test Solana Wallet'),
    );
  });

  it('connects from the row: Account shows the base58 address and the SOL balance; Networks offers Solana networks only', async () => {
    await openWithSolana();
    fireEvent.click(screen.getByTestId('wallet-selector-wallet-standard:Test Solana Wallet'));
    const { address } = testSolanaKey();
    expect((await screen.findByTestId('account-balance')).textContent).toBe('2.000 SOL');
    expect(screen.getByTestId('account-address').getAttribute('title')).toBe(address);
    expect(screen.getByTestId('account-network').textContent).toBe('Network: Solana Devnet');

    fireEvent.click(screen.getByTestId('account-network'));
    const picker = await screen.findByTestId('network-picker');
    expect(within(picker).getAllByRole('button').map((button) => button.dataset.testid)).toEqual([
      `network-${solanaDevnet.caipNetworkId}`,
    ]);
    expect(screen.getByTestId('networks-other-namespace').textContent).toBe(
      'Networks of other chains are hidden: this wallet connects to Solana networks only.',
    );
  });

  it('an EVM connection is offered EVM networks only', async () => {
    await openWithSolana();
    fireEvent.click(screen.getByTestId('wallet-selector-dev.latch.testwallet'));
    fireEvent.click(await screen.findByTestId('account-network'));
    const picker = await screen.findByTestId('network-picker');
    expect(within(picker).getAllByRole('button').map((button) => button.dataset.testid)).toEqual([
      `network-${devnet.caipNetworkId}`,
    ]);
    expect(screen.getByTestId('networks-other-namespace').textContent).toContain('EVM networks only');
  });
});

describe('the network picker and networks added or removed at run time (behaviour 3.8)', () => {
  it('lists a network the host adds while it is open, and drops one it removes', async () => {
    stubGateway();
    const latch = createTestLatch();
    const devnetB = { ...devnet, id: 31338, caipNetworkId: 'eip155:31338' as const, name: 'Latch Devnet B' };
    await openConnectView(createTestProvider(), latch);
    fireEvent.click(screen.getByTestId('wallet-selector-dev.latch.testwallet'));
    fireEvent.click(await screen.findByTestId('account-network'));
    const picker = await screen.findByTestId('network-picker');
    const listed = () => within(picker).getAllByRole('button').map((button) => button.textContent);
    expect(listed()).toEqual(['Latch DevnetConnected']);

    await act(() => latch.addNetwork(devnetB));
    expect(listed()).toEqual(['Latch DevnetConnected', 'Latch Devnet B']);
    await act(() => latch.removeNetwork(devnetB.caipNetworkId));
    expect(listed()).toEqual(['Latch DevnetConnected']);
  });
});
