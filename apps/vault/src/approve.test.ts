// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { showApproval, type Summary, type TransactionSummary } from './approve';
import { loadPanelLocale } from './locales';

const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const send: TransactionSummary = { kind: 'transaction', to: BOB, value: '100000000000000000', valueEther: '0.1', data: '0x', transfer: null };
const transfer: TransactionSummary = {
  kind: 'transaction',
  to: TOKEN,
  value: '0',
  valueEther: '0',
  data: '0xa9059cbb',
  transfer: { to: BOB, amount: '1000000' },
};

const texts = (selector: string) => [...document.querySelectorAll(selector)].map((node) => node.textContent);

describe('the approval panel', () => {
  it('shows a batch call by call, in the locale asked for, and resolves on confirm', async () => {
    const summary: Summary = { kind: 'calls', calls: [send, transfer] };
    await loadPanelLocale('de');
    const open = showApproval(summary, 'https://shop.example', 'de');
    const panel = document.querySelector('[data-testid=approve-transaction]') as HTMLElement;
    expect(panel.lang).toBe('de');
    expect(panel.getAttribute('role')).toBe('dialog');
    expect(texts('h1')).toEqual(['2 Transaktionen bestätigen']);
    expect(texts('h2')).toEqual(['Transaktion 1 von 2', 'Transaktion 2 von 2']);
    expect(panel.textContent).toContain('Angefragt von https://shop.example');
    expect(texts('dt')).toEqual(['An', 'Betrag', 'An', 'Betrag', 'Token-Überweisung an', 'Token-Menge (Basiseinheiten)']);
    expect(texts('dd')).toEqual([BOB, '0.1 ETH', TOKEN, '0 ETH', BOB, '1000000']);
    expect(texts('pre')).toEqual(['0xa9059cbb']);
    expect(document.activeElement?.textContent).toBe('Bestätigen');
    (document.querySelector('[data-testid=approve-confirm]') as HTMLButtonElement).click();
    await expect(open.decision).resolves.toBe(true);
    expect(document.querySelector('[data-testid=approve-transaction]')).toBeNull();
  });

  it('speaks English for a locale the frame lacks; Escape and cancel reject', async () => {
    const open = showApproval({ kind: 'message', text: 'hello', isHex: false }, '', 'xx');
    const panel = document.querySelector('[data-testid=approve-transaction]') as HTMLElement;
    expect(panel.lang).toBe('en');
    expect(texts('h1')).toEqual(['Sign message']);
    expect(texts('button')).toEqual(['Reject', 'Sign']);
    panel.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    await expect(open.decision).resolves.toBe(false);
    await loadPanelLocale('ja');
    const again = showApproval(send, 'https://shop.example', 'ja');
    expect(texts('h1')).toEqual(['トランザクションを承認']);
    again.cancel();
    await expect(again.decision).resolves.toBe(false);
  });

  it('shows Solana transactions: payer, blockhash and each instruction', async () => {
    const alice = '7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv';
    const bob = '9hSR6S7WPtxmTojgo6GG3k4yDPecgJY292j7xrsUGWBu';
    const hash = '3qbR1eZRqXUWroWKKYhbDmR3FfqTHfqSU8zZSxtANzYh';
    const tx = {
      version: 'legacy',
      feePayer: alice,
      recentBlockhash: hash,
      lookupTables: 0,
      instructions: [
        { kind: 'systemTransfer' as const, from: alice, to: bob, lamports: '1500000000', sol: '1.5' },
        { kind: 'other' as const, programId: 'ComputeBudget111111111111111111111111111111', accounts: 0, dataLength: 5 },
      ],
    };
    const send = showApproval({ kind: 'solanaTransactions', send: true, transactions: [tx] }, 'https://shop.example', 'en');
    expect(texts('h1')).toEqual(['Approve transaction']);
    expect(texts('h3')).toEqual(['SOL transfer']);
    expect(texts('dd')).toEqual([alice, hash, alice, bob, '1.5 SOL', 'ComputeBudget111111111111111111111111111111', '0']);
    expect(document.querySelector('section')?.textContent).toContain('Data: 5 bytes');
    expect(texts('button')).toEqual(['Reject', 'Approve']);
    send.cancel();
    await expect(send.decision).resolves.toBe(false);

    await loadPanelLocale('fr');
    const all = showApproval({ kind: 'solanaTransactions', send: false, transactions: [tx, { ...tx, lookupTables: 2 }] }, '', 'fr');
    expect(texts('h1')).toEqual(['Signer 2 transactions']);
    expect(texts('h2')).toEqual(['Transaction 1 sur 2', 'Transaction 2 sur 2']);
    expect(document.querySelector('section')?.textContent).toContain('Certains comptes viennent de 2 tables de recherche');
    expect(texts('button')).toEqual(['Refuser', 'Signer']);
    (document.querySelector('[data-testid=approve-confirm]') as HTMLButtonElement).click();
    await expect(all.decision).resolves.toBe(true);
  });
});
