// @vitest-environment node
// The Connect view's download budget (issue 6) rests on two lazily loaded parts: the modal's chunk
// and @latch/wasm's `extra` module (and optional parts such as Activity). A static import of any from the package's code would put
// it back into what a page loads before the Connect view shows; the bundler would not complain.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const root = import.meta.dirname;
const sources = (readdirSync(root, { recursive: true }) as string[])
  .filter((file) => /\.tsx?$/.test(file) && !/\.test(-d)?\.tsx?$/.test(file) && !file.startsWith('test'))
  .map((file) => ({ file: relative(root, join(root, file)), text: readFileSync(join(root, file), 'utf8') }));

it('reads the package sources', () => {
  expect(sources.map(({ file }) => file)).toContain('core/wasmExtra.ts');
});

it('imports @latch/wasm/extra only dynamically, in core/wasmExtra.ts', () => {
  const importers = sources.filter(({ text }) => text.includes("'@latch/wasm/extra'"));
  expect(importers.map(({ file }) => file)).toEqual(['core/wasmExtra.ts']);
  const wasmExtra = importers[0]?.text ?? '';
  // Type-only imports vanish from the output; a value import would be static.
  expect(wasmExtra).not.toMatch(/^import (?!type )[^;]*'@latch\/wasm\/extra'/m);
  expect(wasmExtra).toContain("import('@latch/wasm/extra').then(");
});

it('imports the Activity panel (the optional `history` part, behaviour 7.9) only dynamically', () => {
  const importers = sources.filter(({ text }) => text.includes("'./ActivityPanel.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['views/Account/AccountTabs.tsx']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/ActivityPanel\.js'/m);
  expect(importers[0]?.text).toContain("import('./ActivityPanel.js')");
});

it('imports the Receive view (the optional `receive` part, behaviour 1.9) only dynamically, from the view registry', () => {
  const importers = sources.filter(({ text }) => text.includes("'./Receive/ReceiveView.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['views/index.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/Receive\/ReceiveView\.js'/m);
  expect(importers[0]?.text).toContain("import('./Receive/ReceiveView.js')");
  // Nothing else reaches into the view's folder statically either.
  const reaching = sources.filter(({ file, text }) => !file.startsWith('views/Receive/') && /from '[^']*\/Receive\//.test(text));
  expect(reaching.map(({ file }) => file)).toEqual([]);
});

it('imports the QR encoder (@latch/wasm-walletconnect) only dynamically', () => {
  const importers = sources.filter(({ text }) => text.includes("'@latch/wasm-walletconnect'"));
  expect(importers.map(({ file }) => file).sort()).toEqual(['core/qrCode.ts', 'core/walletConnect.ts']);
  for (const { text } of importers) expect(text).not.toMatch(/^import (?!type )[^;]*'@latch\/wasm-walletconnect'/m);
});

it('imports the Send view (the optional `send` part, behaviour 7.9) only dynamically, from the view registry', () => {
  const importers = sources.filter(({ text }) => text.includes("'./Send/SendView.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['views/index.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/Send\/SendView\.js'/m);
  expect(importers[0]?.text).toContain("import('./Send/SendView.js')");
  // Nothing outside the Send view's own folder reaches its code or the send store statically.
  const outside = sources.filter(({ file, text }) => !file.startsWith('views/Send/') && /from '[^']*(core\/send|Send\/SendView|Send\/sendController)\.js'/.test(text));
  expect(outside.map(({ file }) => file)).toEqual([]);
});

it('imports the Swap view (the optional `swaps` part, behaviour 7.9) only dynamically, from the view registry', () => {
  const importers = sources.filter(({ text }) => text.includes("'./Swap/SwapView.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['views/index.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/Swap\/SwapView\.js'/m);
  expect(importers[0]?.text).toContain("import('./Swap/SwapView.js')");
  // Nothing outside the Swap view's own folder reaches its code or the swap store statically.
  const outside = sources.filter(({ file, text }) => !file.startsWith('views/Swap/') && /from '[^']*(core\/swap|Swap\/SwapView|Swap\/swapController)\.js'/.test(text));
  expect(outside.map(({ file }) => file)).toEqual([]);
});

it('loads the signing and sending logic only at the first call', () => {
  const importers = sources.filter(({ text }) => text.includes("'./transactionsRun.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['core/transactions.ts']);
  expect(importers[0]?.text).not.toMatch(/^import (?!type )[^;]*'\.\/transactionsRun\.js'/m);
  expect(importers[0]?.text).toContain("import('./transactionsRun.js')");
});

it('imports every whole catalogue, English too, only dynamically, from the locale index (a page has enPage)', () => {
  const catalogues = readdirSync(join(root, 'locales'))
    .filter((file) => /\.ts$/.test(file) && !/\.test\.ts$/.test(file) && file !== 'enPage.ts' && file !== 'index.ts')
    .map((file) => file.replace(/\.ts$/, ''));
  expect(catalogues.sort()).toEqual(['de', 'en', 'es', 'fr', 'ja', 'ko', 'pt', 'ru', 'tr', 'zh-CN']);
  for (const id of catalogues) {
    const escaped = id.replace(/-/g, '\\-');
    // Type-only imports (the `Messages` type from en.ts) vanish from the output.
    const importers = sources.filter(({ text }) =>
      new RegExp(`^(?!import type )[^\\n]*('\\./${escaped}\\.js'|'[^']*locales/${escaped}\\.js')`, 'm').test(text),
    );
    expect(importers.map(({ file }) => file), id).toEqual(['locales/index.ts']);
    expect(importers[0]?.text, id).not.toMatch(new RegExp(`^import (?!type )[^;]*'\\./${escaped}\\.js'`, 'm'));
    expect(importers[0]?.text, id).toContain(`import('./${id}.js')`);
  }
});

it("imports the Wallet Standard app side only dynamically, from walletStandard (hosts without Solana never fetch it)", () => {
  const packageImporters = sources.filter(({ text }) => text.includes("'@wallet-standard/app'"));
  expect(packageImporters.map(({ file }) => file)).toEqual(['core/walletStandardApp.ts']);
  const importers = sources.filter(({ text }) => text.includes("'./walletStandardApp.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['core/walletStandard.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/walletStandardApp\.js'/m);
  expect(importers[0]?.text).toContain("import('./walletStandardApp.js')");
});

it('imports the legacy window.ethereum watcher only dynamically, from createLatch (the entry has no room, issue 6)', () => {
  const importers = sources.filter(({ text }) => text.includes("'./legacyInjected.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['core/createLatch.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/legacyInjected\.js'/m);
  expect(importers[0]?.text).toContain("import('./legacyInjected.js')");
});

it('imports the two name views (behaviour 1.1) as one chunk, only dynamically, from the view registry', () => {
  const importers = sources.filter(({ text }) => text.includes("'./RegisterAccountName/index.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['views/index.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/RegisterAccountName\/index\.js'/m);
  // One import() for both views: the bundler makes it one chunk.
  expect(importers[0]?.text.match(/import\('\.\/RegisterAccountName\/index\.js'\)/g)).toHaveLength(1);
  // Nothing outside the views' folder reaches their code or the registration store statically.
  const outside = sources.filter(
    ({ file, text }) => !file.startsWith('views/RegisterAccountName/') && /from '[^']*(core\/registerName|RegisterAccountName\/[^']*)\.js'/.test(text),
  );
  expect(outside.map(({ file }) => file)).toEqual([]);
});

it('imports the Buy view (the optional `onramp` part, behaviour 1.9) only dynamically, from the view registry', () => {
  const importers = sources.filter(({ text }) => text.includes("'./Buy/BuyView.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['views/index.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/Buy\/BuyView\.js'/m);
  expect(importers[0]?.text).toContain("import('./Buy/BuyView.js')");
  // Nothing outside the Buy view's own folder reaches its code or the onramp store statically.
  const outside = sources.filter(({ file, text }) => !file.startsWith('views/Buy/') && /from '[^']*(core\/onramp|Buy\/BuyView|Buy\/buyController)\.js'/.test(text));
  expect(outside.map(({ file }) => file)).toEqual([]);
});

it('imports the e-mail login (the optional `email` part, behaviour 1.9) only dynamically', () => {
  // The views: from the Connect view (the field) and the view registry (the code view).
  const views = sources.filter(({ text }) => text.includes("'../EmailLogin/index.js'") || text.includes("'./EmailLogin/index.js'"));
  expect(views.map(({ file }) => file).sort()).toEqual(['views/Connect/ConnectView.tsx', 'views/index.ts']);
  for (const { text } of views) {
    expect(text).not.toMatch(/^import [^;]*'\.\.?\/EmailLogin\/index\.js'/m);
    expect(text).toMatch(/import\('\.\.?\/EmailLogin\/index\.js'\)/);
  }
  // The login store and the frame client: only through core/embedded/load.ts's loader.
  const stores = sources.filter(
    ({ file, text }) =>
      !file.startsWith('core/embedded/') &&
      !file.startsWith('views/EmailLogin/') &&
      /^import (?!type )[^;]*'[^']*embedded\/(wallet|frameClient|provider)\.js'/m.test(text),
  );
  expect(stores.map(({ file }) => file)).toEqual([]);
  const loader = sources.find(({ file }) => file === 'core/embedded/load.ts')?.text ?? '';
  expect(loader).toContain("import('./wallet.js')");
  expect(loader).not.toMatch(/^import (?!type )[^;]*'\.\/wallet\.js'/m);
});

it('imports the ApproveTransaction view (the embedded wallet\'s approvals) only dynamically, from the view registry', () => {
  const importers = sources.filter(({ text }) => text.includes("'./ApproveTransaction/ApproveTransactionView.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['views/index.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/ApproveTransaction\/ApproveTransactionView\.js'/m);
  expect(importers[0]?.text).toContain("import('./ApproveTransaction/ApproveTransactionView.js')");
  const reaching = sources.filter(({ file, text }) => !file.startsWith('views/ApproveTransaction/') && /from '[^']*\/ApproveTransaction\//.test(text));
  expect(reaching.map(({ file }) => file)).toEqual([]);
});

it('imports the checks of networks added or removed at run time (behaviour 3.8) only dynamically', () => {
  const importers = sources.filter(({ text }) => text.includes("'./networkChanges.js'"));
  expect(importers.map(({ file }) => file)).toEqual(['core/networks.ts']);
  expect(importers[0]?.text).not.toMatch(/^import [^;]*'\.\/networkChanges\.js'/m);
  expect(importers[0]?.text).toContain("import('./networkChanges.js')");
});

it('loads the sign-in controller and the Latch server adapter only dynamically (pages without sign-in skip them)', () => {
  for (const module of ['siwx', 'latchAuthentication']) {
    const importers = sources.filter(({ text }) => new RegExp(`^import (?!type )[^;]*'\\./${module}\\.js'`, 'm').test(text));
    // index.ts re-exports the public names: a host that imports them opts in.
    expect(importers.map(({ file }) => file)).toEqual([]);
    expect(sources.find(({ file }) => file === 'core/createLatch.ts')?.text).toContain(`import('./${module}.js')`);
  }
});
