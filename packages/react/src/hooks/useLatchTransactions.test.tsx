import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LatchProvider } from '../components/LatchProvider/LatchProvider.js';
import { CHECKSUMMED_ACCOUNT, createTestLatch, createTestProvider, installWallet, testWalletInfo, userRejection } from '../test/fixtures.js';
import { stubSendServer, TX_HASH } from '../test/sendServer.js';
import { useLatchSendTransaction, useLatchSignMessage } from './useLatchTransactions.js';

/** Shows the hooks' state and calls them from buttons. */
function Probe() {
  const sign = useLatchSignMessage();
  const send = useLatchSendTransaction();
  return (
    <>
      <output data-testid="sign">{`${sign.status} ${sign.data ?? sign.error?.kind ?? ''}`}</output>
      <output data-testid="send">{`${send.status} ${send.data ?? send.error?.kind ?? ''}`}</output>
      <button onClick={() => void sign.signMessage('hi').catch(() => {})}>sign</button>
      <button onClick={() => void send.sendTransaction({ to: CHECKSUMMED_ACCOUNT, value: 1n }).catch(() => {})}>send</button>
      <button onClick={send.reset}>reset</button>
    </>
  );
}

// The wallet is an EIP-1193 test double; the real wallets run in e2e/tests/send.spec.ts.
describe('useLatchSignMessage / useLatchSendTransaction', () => {
  async function renderConnected(answers: Record<string, unknown>) {
    stubSendServer();
    const latch = createTestLatch();
    installWallet(createTestProvider(answers));
    render(
      <LatchProvider latch={latch}>
        <Probe />
      </LatchProvider>,
    );
    await act(() => latch.connect(testWalletInfo.uuid));
  }

  it('go from idle through pending to the signature and the hash', async () => {
    await renderConnected({ personal_sign: '0xsigned', eth_sendTransaction: TX_HASH });
    expect(screen.getByTestId('sign').textContent).toBe('idle ');
    fireEvent.click(screen.getByText('sign'));
    expect(screen.getByTestId('sign').textContent).toBe('pending ');
    await waitFor(() => expect(screen.getByTestId('sign').textContent).toBe('success 0xsigned'));
    fireEvent.click(screen.getByText('send'));
    await waitFor(() => expect(screen.getByTestId('send').textContent).toBe(`success ${TX_HASH}`));
    fireEvent.click(screen.getByText('reset'));
    expect(screen.getByTestId('send').textContent).toBe('idle ');
  });

  it('report a declined request as a rejected error', async () => {
    await renderConnected({ personal_sign: userRejection, eth_sendTransaction: userRejection });
    fireEvent.click(screen.getByText('sign'));
    fireEvent.click(screen.getByText('send'));
    await waitFor(() => expect(screen.getByTestId('sign').textContent).toBe('error rejected'));
    await waitFor(() => expect(screen.getByTestId('send').textContent).toBe('error rejected'));
  });
});
