import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestLatch, whenOpen } from '../../test/fixtures.js';
import { renderWithLatch } from '../../test/render.js';

describe('ModalHeader', () => {
  it('titles the view and offers back only once the history holds more than one view', async () => {
    const latch = createTestLatch();
    renderWithLatch(latch);
    await act(async () => {
      latch.modal.open();
      await whenOpen(latch);
    });
    expect(screen.getByRole('heading', { name: 'Connect a wallet' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();

    act(() => latch.modal.push('ConnectingExternal'));
    expect(screen.getByRole('heading', { name: 'Connecting' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('heading', { name: 'Connect a wallet' })).toBeTruthy();
  });

  it('closes from its labelled close button', async () => {
    const latch = createTestLatch();
    renderWithLatch(latch);
    await act(async () => {
      latch.modal.open();
      await whenOpen(latch);
    });
    const close = screen.getByTestId('modal-close');
    expect(close.getAttribute('aria-label')).toBe('Close');
    fireEvent.click(close);
    expect(latch.modal.store.getState().open).toBe(false);
  });
});
