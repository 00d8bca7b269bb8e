import { describe, expect, it } from 'vitest';
import { catalogueWallet } from '../test/catalogue.js';
import { createTestProvider } from '../test/fixtures.js';
import type { Connector, Eip155Connector } from './types.js';
import { connectEntries, type ConnectEntry, type ConnectListInput } from './walletOrder.js';

function connector(rdns: string, name: string): Eip155Connector {
  return { id: `uuid-${rdns}`, type: 'ANNOUNCED', name, imageUrl: 'data:,', rdns, provider: createTestProvider() };
}

const rabby = catalogueWallet('rabby', 'Rabby Wallet', { rdns: 'io.rabby' });
const metamask = catalogueWallet('metamask', 'MetaMask', { rdns: 'io.metamask' });
const rainbow = catalogueWallet('rainbow', 'Rainbow', { rdns: 'me.rainbow' });
const trust = catalogueWallet('trust', 'Trust Wallet');
const ledger = catalogueWallet('ledger', 'Ledger');
const custom = catalogueWallet('host-wallet', 'Host Wallet');

const input = (overrides: Partial<ConnectListInput> = {}): ConnectListInput => ({
  connectors: [],
  recent: [],
  featured: [],
  custom: [],
  recommended: [],
  restricted: { rdns: [], names: [] },
  walletConnect: false,
  ...overrides,
});

const rows = (entries: ConnectEntry[]) =>
  entries.map((entry) =>
    entry.type === 'walletConnect'
      ? entry.group
      : entry.type === 'connector'
        ? `${entry.group}:installed:${entry.connector.name}${entry.recent ? ':recent' : ''}`
        : `${entry.group}:${entry.wallet.id}${entry.recent ? ':recent' : ''}`,
  );

// The wasm core runs here for real (its Node entry): the order and restriction rules are latch-core's.
describe('Connect view order', () => {
  it('groups walletConnect, recent, injected, featured, custom, external, recommended (behaviour 1.11)', () => {
    const entries = connectEntries(
      input({
        connectors: [connector('dev.latch.testwallet', 'Test Wallet')],
        recent: [{ name: 'Ledger', wallet: ledger }],
        featured: [trust],
        custom: [custom],
        recommended: [rainbow],
        walletConnect: true,
      }),
    );
    expect(rows(entries)).toEqual([
      'walletConnect',
      'recent:ledger:recent',
      'injected:installed:Test Wallet',
      'featured:trust',
      'custom:host-wallet',
      'recommended:rainbow',
    ]);
  });

  it('lists a WalletConnect session as no installed wallet, and no WalletConnect row when it is off', () => {
    const paired = { ...connector('', 'Paired Wallet'), id: 'walletConnect', type: 'WALLET_CONNECT' as const };
    const entries = connectEntries(input({ connectors: [paired, connector('io.rabby', 'Rabby')] }));
    expect(rows(entries)).toEqual(['injected:installed:Rabby']);
  });

  it('lists only the namespace the modal was opened for (behaviour 1.4 filter by namespace)', () => {
    const phantom: Connector = {
      id: 'wallet-standard:Phantom',
      type: 'ANNOUNCED',
      namespace: 'solana',
      name: 'Phantom',
      imageUrl: 'data:,',
      rdns: '',
      wallet: {} as never,
    };
    const all = input({
      connectors: [connector('io.rabby', 'Rabby'), phantom],
      featured: [trust],
      walletConnect: true,
    });
    expect(rows(connectEntries(all))).toEqual([
      'walletConnect',
      'injected:installed:Rabby',
      'injected:installed:Phantom',
      'featured:trust',
    ]);
    expect(rows(connectEntries({ ...all, namespace: 'solana' }))).toEqual(['injected:installed:Phantom']);
    expect(rows(connectEntries({ ...all, namespace: 'eip155' }))).toEqual([
      'walletConnect',
      'injected:installed:Rabby',
      'featured:trust',
    ]);
  });

  it('shows an installed wallet once, as installed, however many lists name it (de-duplication by rdns)', () => {
    const entries = connectEntries(
      input({
        connectors: [connector('io.rabby', 'Rabby (extension)'), connector('IO.METAMASK', 'MetaMask')],
        featured: [rabby, trust],
        recommended: [metamask, trust, rainbow],
      }),
    );
    expect(rows(entries)).toEqual([
      'injected:installed:Rabby (extension)',
      'injected:installed:MetaMask',
      'featured:trust',
      'recommended:rainbow',
    ]);
  });

  it('puts a recent installed wallet first, as installed, and not again among the installed', () => {
    const entries = connectEntries(
      input({
        connectors: [connector('io.metamask', 'MetaMask'), connector('io.rabby', 'Rabby')],
        recent: [{ name: 'Rabby', rdns: 'io.rabby', wallet: rabby }, { name: 'Gone', rdns: 'com.gone' }],
        featured: [rabby],
      }),
    );
    // "Gone" is neither installed nor in the catalogue: nothing could connect it.
    expect(rows(entries)).toEqual(['recent:installed:Rabby:recent', 'injected:installed:MetaMask']);
  });

  it('hides restricted wallets by rdns or name, installed or not (behaviour 2.3)', () => {
    const entries = connectEntries(
      input({
        connectors: [connector('io.metamask', 'MetaMask'), connector('io.rabby', 'Rabby')],
        recent: [{ name: 'Trust Wallet', wallet: trust }],
        featured: [rainbow, ledger],
        restricted: { rdns: ['io.metamask'], names: ['trust wallet', 'Rainbow'] },
      }),
    );
    expect(rows(entries)).toEqual(['injected:installed:Rabby', 'featured:ledger']);
  });
});
