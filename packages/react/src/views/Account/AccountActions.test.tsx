import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Features } from '@latch/wasm';
import { currentView } from '../../core/modal.js';
import type { CaipNetworkId } from '../../core/types.js';
import { createTestLatch } from '../../test/fixtures.js';
import { renderWithLatch } from '../../test/render.js';
import { views, type ViewEntry } from '../index.js';
import { AccountActions } from './AccountActions.js';

const EVM: CaipNetworkId = 'eip155:31337';
const SOLANA: CaipNetworkId = 'solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh';
const registry = views as Record<string, ViewEntry>;

// Stand-ins for the views later issues register (Buy, Swap) and the one built beside this (Send).
function registerFakes(...names: string[]) {
  for (const name of names) registry[name] = { title: 'accountTitle', Component: () => null };
}

function shownActions(caipNetworkId: CaipNetworkId, features: Partial<Features> = {}) {
  renderWithLatch(createTestLatch({ features }), <AccountActions caipNetworkId={caipNetworkId} />);
  return screen.queryAllByTestId(/^account-action-/).map((button) => button.dataset.testid);
}

describe('Account actions (spec §2 wallet feature order, §6 feature support)', () => {
  afterEach(() => {
    for (const name of ['Onramp', 'Swap', 'Send']) delete registry[name];
  });

  it('shows only actions whose view is registered: Receive today', () => {
    expect(shownActions(EVM)).toEqual(['account-action-receive']);
  });

  it('shows an action once its view is registered, in the order onramp, swaps, receive, send', () => {
    registerFakes('Send');
    expect(shownActions(EVM)).toEqual(['account-action-receive', 'account-action-send']);
  });

  it.each([
    [EVM, ['account-action-buy', 'account-action-swap', 'account-action-receive', 'account-action-send']],
    // Swaps work on eip155 only.
    [SOLANA, ['account-action-buy', 'account-action-receive', 'account-action-send']],
    ['bip122:000000000019d6689c085ae165831e93', []],
  ] as [CaipNetworkId, string[]][])('on %s offers what the namespace supports', (caipNetworkId, expected) => {
    registerFakes('Onramp', 'Swap', 'Send');
    expect(shownActions(caipNetworkId)).toEqual(expected);
  });

  it.each([
    [{ onramp: false }, EVM, ['swap', 'receive', 'send']],
    [{ swaps: false }, EVM, ['buy', 'receive', 'send']],
    [{ receive: false }, SOLANA, ['buy', 'send']],
    [{ send: false, onramp: false }, SOLANA, ['receive']],
  ] as [Partial<Features>, CaipNetworkId, string[]][])('hides a feature turned off (%o on %s)', (features, caipNetworkId, expected) => {
    registerFakes('Onramp', 'Swap', 'Send');
    expect(shownActions(caipNetworkId, features)).toEqual(expected.map((id) => `account-action-${id}`));
  });

  it('renders no group when no action is left', () => {
    renderWithLatch(createTestLatch({ features: { receive: false } }), <AccountActions caipNetworkId={EVM} />);
    expect(screen.queryByRole('group', { name: 'Wallet actions' })).toBeNull();
  });

  it('labels the buttons in a named group and opens the action view', () => {
    registerFakes('Send');
    const latch = createTestLatch();
    latch.modal.open({ view: 'Account' });
    renderWithLatch(latch, <AccountActions caipNetworkId={EVM} />);
    expect(screen.getByRole('group', { name: 'Wallet actions' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Receive' }));
    expect(currentView(latch.modal.store.getState())).toBe('Receive');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(latch.modal.store.getState().history).toEqual(['Account', 'Receive', 'Send']);
  });
});
