import { vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ConnectButton } from '../components/ConnectButton/ConnectButton.js';
import { LatchProvider } from '../components/LatchProvider/LatchProvider.js';
import type { Latch } from '../core/createLatch.js';
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
