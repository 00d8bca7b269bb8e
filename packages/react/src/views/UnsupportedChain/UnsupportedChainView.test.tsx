import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubGateway } from '../../test/fixtures.js';
import { chooseTestWallet, openConnectView } from '../../test/render.js';

// The wallet is an EIP-1193 test double (no browser wallet runs in jsdom) and `fetch` stands in
// for the Latch server's balance gateway; the end-to-end tests cover both for real.
describe('UnsupportedChainView', () => {
  it('asks to switch to the default network when the wallet leaves the configured ones', async () => {
    stubGateway();
    const { provider } = await openConnectView();
    chooseTestWallet();
    await screen.findByTestId('account-address');

    act(() => provider.emit('chainChanged', '0x1'));
    expect(screen.getByRole('dialog', { name: 'Switch network' }).textContent).toContain(
      'This network is not supported. Switch your wallet to Latch Devnet.',
    );
  });
});
