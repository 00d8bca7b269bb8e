import { describe, expect, it, vi } from 'vitest';
import { createEventBus } from './events.js';
import { createModalController, type ViewName } from './modal.js';
import { createTransactionStack } from './transactionStack.js';

function setup(history: ViewName[] = ['Account']) {
  const modal = createModalController({ events: createEventBus(), isConnected: () => true });
  modal.open({ view: history[0] });
  for (const view of history.slice(1)) modal.push(view);
  const stack = createTransactionStack({ modal });
  const state = () => modal.store.getState();
  return { modal, stack, state };
}

describe('transaction stack (behaviour 1.13)', () => {
  it('push adds the entry and shows its view', () => {
    const { stack, state } = setup();
    const entry = { view: 'Networks' as const, goBack: true };
    stack.push(entry);
    expect(state().history).toEqual(['Account', 'Networks']);
    expect(stack.store.getState().entries).toEqual([entry]);
  });

  it('cancel goes back, then calls onCancel, not onSuccess', () => {
    const { stack, state } = setup();
    const order: string[] = [];
    const onCancel = vi.fn(() => order.push(`cancel at ${state().history.join('>')}`));
    const onSuccess = vi.fn();
    stack.push({ view: 'Networks', reset: 'Connect', onCancel, onSuccess });
    stack.cancel();
    expect(state().history).toEqual(['Account']);
    expect(order).toEqual(['cancel at Account']);
    expect(onSuccess).not.toHaveBeenCalled();
    expect(stack.store.getState().entries).toEqual([]);
  });

  it('success with goBack goes back one view, then calls onSuccess', () => {
    const { stack, state } = setup();
    const seen: string[] = [];
    const onCancel = vi.fn();
    stack.push({ view: 'Networks', goBack: true, onSuccess: () => seen.push(state().history.join('>')), onCancel });
    stack.success();
    expect(state().history).toEqual(['Account']);
    expect(seen).toEqual(['Account']);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('success with replace returns to the view before ConnectingSiwe', () => {
    const { stack, state } = setup(['Account', 'Networks', 'ConnectingSiwe']);
    const seen: string[] = [];
    stack.push({ view: 'AllWallets', replace: true, onSuccess: () => seen.push(state().history.join('>')) });
    expect(state().history).toEqual(['Account', 'Networks', 'ConnectingSiwe', 'AllWallets']);
    stack.success();
    expect(state().history).toEqual(['Account', 'Networks']);
    expect(state().open).toBe(true);
    expect(seen).toEqual(['Account>Networks']);
  });

  it('success with replace closes the modal without a view before ConnectingSiwe', () => {
    for (const history of [['Account'], ['ConnectingSiwe']] as ViewName[][]) {
      const { stack, state } = setup(history);
      const onSuccess = vi.fn(() => expect(state().open).toBe(false));
      stack.push({ view: 'Networks', replace: true, onSuccess });
      stack.success();
      expect(state().open).toBe(false);
      expect(onSuccess).toHaveBeenCalledOnce();
    }
  });

  it('success with reset resets the history to that view', () => {
    const { stack, state } = setup(['Account', 'Networks']);
    const onSuccess = vi.fn(() => expect(state().history).toEqual(['Account']));
    stack.push({ view: 'AllWallets', reset: 'Account', onSuccess });
    stack.success();
    expect(state().history).toEqual(['Account']);
    expect(onSuccess).toHaveBeenCalledOnce();
  });

  it('success checks goBack, then replace, then reset', () => {
    const { stack, state } = setup(['Account', 'Networks']);
    stack.push({ view: 'AllWallets', goBack: true, replace: true, reset: 'Connect' });
    stack.success();
    expect(state().history).toEqual(['Account', 'Networks']);
    expect(state().open).toBe(true);

    stack.push({ view: 'AllWallets', replace: true, reset: 'Connect' });
    stack.success();
    expect(state().open).toBe(false);
  });

  it('success without a destination stays on the view and still calls onSuccess', () => {
    const { stack, state } = setup();
    const onSuccess = vi.fn();
    stack.push({ view: 'Networks', onSuccess });
    stack.success();
    expect(state().history).toEqual(['Account', 'Networks']);
    expect(onSuccess).toHaveBeenCalledOnce();
  });

  it('ends the most recent flow first', () => {
    const { stack, state } = setup();
    const first = { onSuccess: vi.fn(), onCancel: vi.fn() };
    const second = { onSuccess: vi.fn(), onCancel: vi.fn() };
    stack.push({ view: 'Networks', goBack: true, ...first });
    stack.push({ view: 'AllWallets', goBack: true, ...second });
    stack.cancel();
    expect(second.onCancel).toHaveBeenCalledOnce();
    expect(first.onCancel).not.toHaveBeenCalled();
    expect(state().history).toEqual(['Account', 'Networks']);
    stack.success();
    expect(first.onSuccess).toHaveBeenCalledOnce();
    expect(state().history).toEqual(['Account']);
    expect(stack.store.getState().entries).toEqual([]);
  });

  it('cancel and success do nothing with no flow in progress', () => {
    const { stack, state, modal } = setup(['Account', 'Networks']);
    const before = modal.store.getState();
    stack.cancel();
    stack.success();
    expect(modal.store.getState()).toBe(before);
    expect(state().history).toEqual(['Account', 'Networks']);
  });
  it('a flow left by Back is over: it leaves the stack and onCancel is called once', () => {
    const { modal, stack, state } = setup();
    const onCancel = vi.fn();
    const onSuccess = vi.fn();
    stack.push({ view: 'Networks', reset: 'Account', onCancel, onSuccess });
    modal.back();
    expect(state().history).toEqual(['Account']);
    expect(stack.store.getState().entries).toEqual([]);
    expect(onCancel).toHaveBeenCalledTimes(1);
    // Nothing is left for a later success to act on.
    stack.success();
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('ending a flow itself does not count as leaving it', () => {
    const { stack } = setup();
    const onCancel = vi.fn();
    stack.push({ view: 'Networks', goBack: true, onCancel });
    stack.success();
    stack.push({ view: 'Networks', goBack: true, onCancel });
    stack.cancel();
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
