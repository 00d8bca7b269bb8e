import { expect, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ConnectButton } from '../components/ConnectButton/ConnectButton.js';
import { LatchProvider } from '../components/LatchProvider/LatchProvider.js';
import type { Latch } from '../core/createLatch.js';
import type { FrameHost } from '../core/embedded/frameClient.js';
import { createTestLatch, createTestProvider, installWallet, type TestProvider } from './fixtures.js';

/** Renders `ui` (by default a ConnectButton) inside a LatchProvider for `latch`. */
export function renderWithLatch(latch: Latch, ui: ReactNode = <ConnectButton />) {
  return render(<LatchProvider latch={latch}>{ui}</LatchProvider>);
}

/** Installs the test wallet, renders a ConnectButton and opens the modal on Connect. */
export async function openConnectView(provider: TestProvider = createTestProvider(), latch = createTestLatch()) {
  installWallet(provider);
  renderWithLatch(latch);
  // Mounting may load lazy parts (the Wallet Standard app side for Solana hosts).
  await vi.dynamicImportSettled();
  await clickOpen();
  return { latch, provider };
}

/** Clicks the ConnectButton and waits for the modal: opening waits for the wallets' images (behaviour 1.4). */
export async function clickOpen(): Promise<HTMLElement> {
  fireEvent.click(screen.getByTestId('connect-button'));
  return screen.findByRole('dialog');
}

export function chooseTestWallet(): void {
  fireEvent.click(screen.getByTestId('wallet-selector-dev.latch.testwallet'));
}

/**
 * Renders a Latch whose embedded wallet is the stand-in frame `host`, opens the modal and submits
 * `email` in the Connect view's e-mail field; what follows is the frame's answer.
 */
export async function submitEmail(host: () => FrameHost, email = 'a@b.co'): Promise<Latch> {
  const latch = createTestLatch({ embeddedWallet: { vaultUrl: 'http://vault.test/', frameHost: host } });
  renderWithLatch(latch);
  await clickOpen();
  fireEvent.change(await screen.findByLabelText('E-mail address'), { target: { value: email } });
  await waitFor(() => expect((screen.getByTestId('email-submit') as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(screen.getByTestId('email-submit'));
  return latch;
}

/** Types `code` in the login's code view and submits it. */
export async function submitCode(code: string): Promise<void> {
  fireEvent.change(await screen.findByLabelText('Code'), { target: { value: code } });
  await act(async () => {
    fireEvent.click(screen.getByTestId('otp-submit'));
  });
}
