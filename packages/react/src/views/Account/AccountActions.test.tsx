import { fireEvent, screen, waitFor } from '@testing-library/react';
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

// The registry as shipped, restored after each test.
const shipped = { ...registry };

// Stand-ins for the views later issues register (Buy).
function registerFakes(...names: string[]) {
  for (const name of names) registry[name] ??= { title: 'accountTitle', Component: () => null };
}

function shownActions(caipNetworkId: CaipNetworkId, features: Partial<Features> = {}) {
  renderWithLatch(createTestLatch({ features }), <AccountActions caipNetworkId={caipNetworkId} />);
  return screen.queryAllByTestId(/^account-action-/).map((button) => button.dataset.testid);
}

describe('Account actions (behaviour 1.12 wallet feature order, behaviour 3.10 feature support)', () => {
  afterEach(() => {
    for (const name of Object.keys(registry)) if (!(name in shipped)) delete registry[name];
    Object.assign(registry, shipped);
  });

  it('shows only actions whose view is registered: Buy, Swap, Receive and Send today', () => {
    expect(shownActions(EVM)).toEqual(['account-action-buy', 'account-action-swap', 'account-action-receive', 'account-action-send']);
  });

  it('shows an action once its view is registered, in the order onramp, swaps, receive, send', () => {
    delete registry.Send;
    delete registry.Onramp;
    expect(shownActions(EVM)).toEqual(['account-action-swap', 'account-action-receive']);
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
    renderWithLatch(createTestLatch({ features: { swaps: false, receive: false, send: false, onramp: false } }), <AccountActions caipNetworkId={EVM} />);
    expect(screen.queryByRole('group', { name: 'Wallet actions' })).toBeNull();
  });

  it('labels the buttons in a named group and opens the action view once its chunk is in', async () => {
    const latch = createTestLatch();
    latch.modal.open({ view: 'Account' });
    renderWithLatch(latch, <AccountActions caipNetworkId={EVM} />);
    expect(screen.getByRole('group', { name: 'Wallet actions' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(currentView(latch.modal.store.getState())).toBe('Receive'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(latch.modal.store.getState().history).toEqual(['Account', 'Receive', 'Send']));
  });

  it('runs Send as a flow on the transaction stack that returns to Account when done (behaviour 1.13)', async () => {
    const latch = createTestLatch();
    latch.modal.open({ view: 'Account' });
    renderWithLatch(latch, <AccountActions caipNetworkId={EVM} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(latch.transactionStack.store.getState().entries).toEqual([{ view: 'Send', reset: 'Account' }]));
    latch.transactionStack.success();
    expect(latch.modal.store.getState().history).toEqual(['Account']);
  });
});
