// The approval panel (behaviour 5.19 ApproveTransaction; ARCHITECTURE.md "apps/vault"). Drawn in the
// frame's own page, on its own origin: the host page shows the iframe but can neither draw over
// its content nor read it, so what the user confirms is what the frame signs. Plain DOM; text is
// set with textContent only (the summary comes from the dapp). Its styles are a file of their own
// (approve.css): the frame's CSP allows no inline style.
import './approve.css';
import { format, type PanelMessages, panelMessages } from './locales';

/** latch-core `embedded::approval::Summary`, as @latch/wasm-vault answers it. */
export type Summary =
  | { kind: 'message'; text: string; isHex: boolean }
  | { kind: 'typedData'; primaryType: string; domain: Field[]; fields: Field[] }
  | TransactionSummary
  | { kind: 'calls'; calls: TransactionSummary[] }
  | { kind: 'solanaTransactions'; send: boolean; transactions: SolanaTransaction[] };

/** latch-core `embedded::solana::TransactionSummary`. */
export interface SolanaTransaction {
  version: string;
  feePayer: string;
  recentBlockhash: string;
  instructions: SolanaInstruction[];
  lookupTables: number;
}

export type SolanaInstruction =
  | { kind: 'systemTransfer'; from: string; to: string; lamports: string; sol: string }
  | { kind: 'tokenTransfer'; source: string; destination: string; owner: string; mint: string | null; amount: string; decimals: number | null }
  | { kind: 'other'; programId: string; accounts: number; dataLength: number };

export interface TransactionSummary {
  kind: 'transaction';
  to: string | null;
  value: string;
  valueEther: string;
  data: string;
  transfer: { to: string; amount: string } | null;
}

export interface Field {
  name: string;
  value: string;
}

const TITLES = {
  message: 'titleMessage',
  typedData: 'titleTypedData',
  transaction: 'titleTransaction',
  calls: 'titleCalls',
  solanaTransactions: 'titleSolanaSign',
} as const satisfies Record<Summary['kind'], keyof PanelMessages>;

/** The heading: a Solana send is approved like an EVM one; several transactions are counted. */
function title(summary: Summary, t: PanelMessages): string {
  if (summary.kind === 'calls') return format(t.titleCalls, { count: String(summary.calls.length) });
  if (summary.kind !== 'solanaTransactions') return t[TITLES[summary.kind]];
  if (summary.send) return t.titleTransaction;
  const count = summary.transactions.length;
  return count === 1 ? t.titleSolanaSign : format(t.titleSolanaSignAll, { count: String(count) });
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function list(rows: [string, string][]): HTMLDListElement {
  const dl = element('dl');
  for (const [name, value] of rows) dl.append(element('dt', name), element('dd', value));
  return dl;
}

function body(summary: Summary, t: PanelMessages): HTMLElement[] {
  switch (summary.kind) {
    case 'message':
      return [element('p', summary.isHex ? t.messageHex : t.message), element('pre', summary.text)];
    case 'typedData':
      return [
        list([[t.type, summary.primaryType], ...summary.domain.map((f): [string, string] => [f.name, f.value])]),
        list(summary.fields.map((f): [string, string] => [f.name, f.value])),
      ];
    case 'transaction':
      return transaction(summary, t);
    case 'calls':
      // EIP-5792: every call of the batch, in the order they are sent.
      return summary.calls.flatMap((call, index) => [
        element('h2', format(t.callNumber, { n: String(index + 1), count: String(summary.calls.length) })),
        ...transaction(call, t),
      ]);
    case 'solanaTransactions': {
      const count = summary.transactions.length;
      return summary.transactions.flatMap((tx, index) => [
        ...(count > 1 ? [element('h2', format(t.callNumber, { n: String(index + 1), count: String(count) }))] : []),
        ...solanaTransaction(tx, t),
      ]);
    }
  }
}

function solanaTransaction(tx: SolanaTransaction, t: PanelMessages): HTMLElement[] {
  const parts: HTMLElement[] = [list([[t.feePayer, tx.feePayer], [t.recentBlockhash, tx.recentBlockhash]])];
  for (const instruction of tx.instructions) {
    switch (instruction.kind) {
      case 'systemTransfer':
        parts.push(element('h3', t.solTransfer), list([[t.from, instruction.from], [t.to, instruction.to], [t.amount, `${instruction.sol} SOL`]]));
        break;
      case 'tokenTransfer': {
        const rows: [string, string][] = [[t.from, instruction.owner], [t.to, instruction.destination]];
        if (instruction.mint) rows.push([t.mint, instruction.mint]);
        rows.push([t.tokenAmount, instruction.amount]);
        parts.push(element('h3', t.splTransfer), list(rows));
        break;
      }
      case 'other':
        parts.push(
          list([
            [t.program, instruction.programId],
            [t.accounts, String(instruction.accounts)],
          ]),
          element('p', format(t.dataBytes, { n: String(instruction.dataLength) })),
        );
        break;
    }
  }
  if (tx.lookupTables > 0) parts.push(element('p', format(t.lookupTables, { count: String(tx.lookupTables) })));
  return parts;
}

function transaction(summary: TransactionSummary, t: PanelMessages): HTMLElement[] {
  const rows: [string, string][] = [
    [t.to, summary.to ?? t.newContract],
    [t.value, `${summary.valueEther} ETH`],
  ];
  if (summary.transfer) rows.push([t.tokenTransferTo, summary.transfer.to], [t.tokenAmount, summary.transfer.amount]);
  const parts: HTMLElement[] = [list(rows)];
  if (summary.data !== '0x') parts.push(element('pre', summary.data));
  return parts;
}

/** Applies SYNC_THEME's `--latch-*` variables to the frame's page. */
export function applyTheme(variables: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(variables)) {
    if (name.startsWith('--latch-') && (typeof value === 'string' || typeof value === 'number')) {
      document.documentElement.style.setProperty(name, String(value));
    }
  }
}

export interface OpenApproval {
  /** Resolves true on confirm, false on reject. */
  decision: Promise<boolean>;
  /** Closes the panel as rejected (the host closed its view). */
  cancel(): void;
}

/** Shows the panel for `summary`, in the host's `locale`, and waits for the user. */
export function showApproval(summary: Summary, origin: string, locale: string | null = null): OpenApproval {
  const t = panelMessages(locale);
  const panel = element('section');
  // The words' language, for screen readers (English when the locale is one the frame lacks).
  panel.lang = t === panelMessages('en') ? 'en' : (locale ?? 'en');
  panel.dataset.testid = 'approve-transaction';
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-modal', 'true');
  const heading = element('h1', title(summary, t));
  heading.id = 'approve-title';
  panel.setAttribute('aria-labelledby', heading.id);
  const from = element('p', origin ? format(t.requestedBy, { origin }) : '');
  const reject = element('button', t.reject);
  reject.type = 'button';
  reject.dataset.testid = 'approve-reject';
  const sends = summary.kind === 'transaction' || summary.kind === 'calls' || (summary.kind === 'solanaTransactions' && summary.send);
  const confirm = element('button', sends ? t.approve : t.sign);
  confirm.type = 'button';
  confirm.className = 'primary';
  confirm.dataset.testid = 'approve-confirm';
  const actions = element('div');
  actions.className = 'actions';
  actions.append(reject, confirm);
  panel.append(heading, from, ...body(summary, t), actions);
  document.body.replaceChildren(panel);
  let settle!: (approved: boolean) => void;
  const decision = new Promise<boolean>((resolve) => {
    settle = (approved) => {
      panel.remove();
      resolve(approved);
    };
  });
  confirm.addEventListener('click', () => settle(true), { once: true });
  reject.addEventListener('click', () => settle(false), { once: true });
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') settle(false);
  });
  confirm.focus();
  return { decision, cancel: () => settle(false) };
}
