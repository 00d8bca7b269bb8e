// Embedded wallets (behaviour 5.15 "Embedded-wallet requests", behaviour 5.17 schemas, behaviour 5.15 frame messages): the
// wallet frame that `latch --dev` serves on its own origin (port + 2), embedded in the demo's
// page (an allowed origin of project `demo`), driven over the handshake's MessageChannel; the
// login codes come over real SMTP into e2e/infra/smtp-sink.mjs.
import { expect, type Page, test } from '@playwright/test';
import { encodeFunctionData, erc20Abi, parseEther, verifyMessage, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { axeViolations } from '../fixtures/axe.js';
import { anvil, usdcAddress } from '../fixtures/devnet.js';
import { codeFor, logInWithMailedCode, mailsTo } from '../fixtures/mail.js';
import { setRecoveryPassword } from '../fixtures/recovery.js';
import { ask, openFrame, watchFrameModules } from '../fixtures/frame.js';
import { E2E_VAULT_URL } from '../fixtures/stack.js';

test('sign up by e-mail, restore after a reload without a new code, sign out', async ({ page }) => {
  const email = `signup-${Date.now()}@example.com`;
  const modules = watchFrameModules(page);
  await openFrame(page);
  expect(await ask(page, 'IS_CONNECTED')).toEqual({ type: 'IS_CONNECTED_SUCCESS', payload: { isConnected: false } });
  expect(await ask(page, 'CONNECT_EMAIL', { email })).toEqual({
    type: 'CONNECT_EMAIL_SUCCESS',
    payload: { action: 'VERIFY_OTP' },
  });
  // Until a login, the frame has only its checks module (BENCHMARKS.md "The wallet frame").
  // (A Set: the demo page may embed a frame of its own, which loads the same.)
  expect(new Set(modules)).toEqual(new Set(['checks']));
  const code = await codeFor(email, 0);
  const connecting = ask(page, 'CONNECT_OTP', { otp: code });
  // The first login makes the wallet and asks, inside the frame, for the recovery password.
  await setRecoveryPassword(page.frameLocator('iframe[title="wallet"]'));
  const connected = await connecting;
  expect(connected.type).toBe('CONNECT_OTP_SUCCESS');
  expect(connected.payload).toMatchObject({ email, chainId: 'eip155:31337' });
  // The sign-up split the seed and read the accounts (login module) and sealed the recovery share
  // (recovery module); nothing was signed yet, so the signing module (keys) is not fetched.
  expect(new Set(modules)).toEqual(new Set(['checks', 'login', 'recovery']));
  // The first login made the wallet in the frame: an EVM and a Solana account.
  const accounts = connected.payload.accounts as { address: string; namespace: string }[];
  expect(accounts.map((a) => a.namespace)).toEqual(['eip155', 'solana']);
  expect(accounts[0]!.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  // The password panel showed the frame (APPROVAL_OPEN … _CLOSED) before the session began.
  const signUpEvents = await page.evaluate(() => [...window.latchFrame.events]);
  expect(signUpEvents).toEqual(expect.arrayContaining(['APPROVAL_OPEN', 'APPROVAL_CLOSED', 'SESSION_UPDATE']));
  expect(signUpEvents.indexOf('APPROVAL_CLOSED')).toBeLessThan(signUpEvents.indexOf('SESSION_UPDATE'));
  // behaviour 5.18: a safe method goes through latch's gateway; an unknown one is refused unasked.
  const block = await ask(page, 'RPC_REQUEST', { method: 'eth_blockNumber', params: [] });
  expect(block.type).toBe('RPC_REQUEST_SUCCESS');
  expect(block.payload).toMatch(/^0x[0-9a-f]+$/);
  expect(await ask(page, 'RPC_REQUEST', { method: 'eth_sign', params: [accounts[0]!.address, '0x00'] })).toEqual({
    type: 'RPC_REQUEST_ERROR',
    payload: { message: 'Requested RPC call is not allowed', code: 4200 },
  });
  const afterRpc = await page.evaluate(() => window.latchFrame.events);
  expect(afterRpc.slice(signUpEvents.length)).not.toContain('APPROVAL_OPEN');
  // A not-safe method waits for the frame's own panel; rejecting it answers EIP-1193's 4001.
  const hex = '0x' + Buffer.from('reject me').toString('hex');
  const pending = ask(page, 'RPC_REQUEST', { method: 'personal_sign', params: [hex, accounts[0]!.address] });
  const panel = page.frameLocator('iframe[title="wallet"]').getByTestId('approve-transaction');
  await expect(panel).toContainText('reject me');
  // The first approval brings the summaries and the signing code.
  expect(modules).toContain('keys');
  await panel.getByTestId('approve-reject').click();
  expect(await pending).toEqual({ type: 'RPC_REQUEST_ERROR', payload: { message: 'User rejected the request', code: 4001 } });
  expect((await page.evaluate(() => window.latchFrame.events)).slice(signUpEvents.length)).toEqual(
    expect.arrayContaining(['APPROVAL_OPEN', 'APPROVAL_CLOSED']),
  );
  // behaviour 5.19: an unknown method rejects every pending request: the panel shown and the one
  // waiting behind it.
  // The panel speaks the host's locale (SYNC_DAPP_DATA, as the modal sends it).
  expect(await ask(page, 'SYNC_DAPP_DATA', { locale: '<b>' })).toEqual({
    type: 'SYNC_DAPP_DATA_ERROR',
    payload: { message: 'locale: Invalid input' },
  });
  expect(await ask(page, 'SYNC_DAPP_DATA', { locale: 'de' })).toEqual({ type: 'SYNC_DAPP_DATA_SUCCESS', payload: {} });
  const before = (await page.evaluate(() => window.latchFrame.events)).length;
  const shown = ask(page, 'RPC_REQUEST', { method: 'personal_sign', params: [hex, accounts[0]!.address] });
  const behind = ask(page, 'RPC_REQUEST', { method: 'personal_sign', params: ['0x00', accounts[0]!.address] });
  await expect(panel).toContainText('reject me');
  await expect(panel.getByRole('heading')).toHaveText('Nachricht signieren');
  await expect(panel.getByTestId('approve-reject')).toHaveText('Ablehnen');
  await expect(panel).toHaveAttribute('lang', 'de');
  expect(await ask(page, 'RPC_REQUEST', { method: 'eth_sign', params: [accounts[0]!.address, '0x00'] })).toEqual({
    type: 'RPC_REQUEST_ERROR',
    payload: { message: 'Requested RPC call is not allowed', code: 4200 },
  });
  const rejected = { type: 'RPC_REQUEST_ERROR', payload: { message: 'User rejected the request', code: 4001 } };
  expect(await shown).toEqual(rejected);
  expect(await behind).toEqual(rejected);
  await expect(panel).toBeHidden();
  // One panel opened and closed; the one behind it never showed.
  const since = (await page.evaluate(() => window.latchFrame.events)).slice(before);
  expect(since.filter((type) => type.startsWith('APPROVAL_'))).toEqual(['APPROVAL_OPEN', 'APPROVAL_CLOSED']);
  // The token stays on the frame's origin: the host page's storage holds nothing of it.
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain('latch-vault');

  await page.reload();
  modules.length = 0;
  await openFrame(page);
  expect(await ask(page, 'IS_CONNECTED')).toEqual({ type: 'IS_CONNECTED_SUCCESS', payload: { isConnected: true } });
  expect((await ask(page, 'GET_USER')).payload).toMatchObject({ email, accounts });
  // A restored session needs no key yet: neither module is fetched (cached or not).
  expect(modules).not.toContain('login');
  expect(modules).not.toContain('keys');
  expect(modules).not.toContain('recovery');
  // Its first approval loads the keys and signs; the login and recovery modules are still not needed.
  const signing = ask(page, 'RPC_REQUEST', { method: 'personal_sign', params: [hex, accounts[0]!.address] });
  await panel.getByTestId('approve-confirm').click();
  const restoredSignature = (await signing).payload as unknown as Hex;
  expect(await verifyMessage({ address: accounts[0]!.address as Hex, message: 'reject me', signature: restoredSignature })).toBe(true);
  expect(modules).toContain('keys');
  expect(modules).not.toContain('login');
  expect(modules).not.toContain('recovery');
  expect(mailsTo(email)).toHaveLength(1);

  expect(await ask(page, 'SIGN_OUT')).toEqual({ type: 'SIGN_OUT_SUCCESS', payload: {} });
  expect(await ask(page, 'IS_CONNECTED')).toEqual({ type: 'IS_CONNECTED_SUCCESS', payload: { isConnected: false } });
  expect(await ask(page, 'GET_USER')).toEqual({ type: 'GET_USER_ERROR', payload: { message: 'Not logged in' } });
});

test('wallet_sendCalls: one approval for the batch, sent call by call, its status from wallet_getCallsStatus', async ({ page }) => {
  test.setTimeout(90_000);
  const email = `calls-${Date.now()}@example.com`;
  await openFrame(page);
  expect((await ask(page, 'CONNECT_EMAIL', { email })).type).toBe('CONNECT_EMAIL_SUCCESS');
  const connecting = ask(page, 'CONNECT_OTP', { otp: await codeFor(email, 0) });
  await setRecoveryPassword(page.frameLocator('iframe[title="wallet"]'));
  const connected = await connecting;
  const address = (connected.payload.accounts as { address: Hex }[])[0]!.address;
  await anvil.setBalance({ address, value: parseEther('1') });
  const receiver = privateKeyToAccount(generatePrivateKey()).address;
  const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [receiver, 0n] });
  const batch = {
    version: '2.0.0',
    chainId: '0x7a69',
    from: address,
    atomicRequired: false,
    calls: [
      { to: receiver, value: '0x16345785d8a0000' },
      { to: usdcAddress(), data: transfer },
    ],
  };
  // EIP-5792 batches are the frame's own: an id it never made is unknown.
  expect(await ask(page, 'RPC_REQUEST', { method: 'wallet_getCallsStatus', params: ['0x01'] })).toEqual({
    type: 'RPC_REQUEST_ERROR',
    payload: { message: 'Unknown bundle id', code: 5730 },
  });
  // An EOA cannot run a batch atomically: refused before any panel.
  const atomic = await ask(page, 'RPC_REQUEST', { method: 'wallet_sendCalls', params: [{ ...batch, atomicRequired: true }] });
  expect(atomic.type).toBe('RPC_REQUEST_ERROR');
  expect(atomic.payload).toMatchObject({ code: -32602, message: expect.stringContaining('atomic') });

  const sent = ask(page, 'RPC_REQUEST', { method: 'wallet_sendCalls', params: [batch] });
  const panel = page.frameLocator('iframe[title="wallet"]').getByTestId('approve-transaction');
  await expect(panel.getByRole('heading', { level: 1 })).toHaveText('Approve 2 transactions');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(['Transaction 1 of 2', 'Transaction 2 of 2']);
  await expect(panel).toContainText('0.1 ETH');
  // The second call's ERC-20 transfer, decoded: its receiver and amount.
  await expect(panel.locator('dd', { hasText: receiver })).toHaveCount(2);
  await expect(panel).toContainText('Token transfer to');
  await panel.getByTestId('approve-confirm').click();
  const answer = await sent;
  expect(answer.type).toBe('RPC_REQUEST_SUCCESS');
  const id = (answer.payload as { id?: unknown }).id;
  expect(id).toMatch(/^0x[0-9a-f]{64}$/);

  let status: { status?: number; receipts?: { status: string; transactionHash: string }[] } = {};
  await expect
    .poll(async () => {
      status = (await ask(page, 'RPC_REQUEST', { method: 'wallet_getCallsStatus', params: [id] })).payload as typeof status;
      return status.status;
    })
    .toBe(200);
  expect(status).toMatchObject({ version: '2.0.0', id, chainId: '0x7a69', atomic: false });
  expect(status.receipts!.map((receipt) => receipt.status)).toEqual(['0x1', '0x1']);
  expect(await anvil.getBalance({ address: receiver })).toBe(parseEther('0.1'));
  // Sequential transactions from the embedded account: nonces 0 and 1.
  const txs = await Promise.all(status.receipts!.map((receipt) => anvil.getTransaction({ hash: receipt.transactionHash as Hex })));
  expect(txs.map((tx) => [tx.from.toLowerCase(), tx.nonce])).toEqual([
    [address.toLowerCase(), 0],
    [address.toLowerCase(), 1],
  ]);
  expect(txs[1]!.to?.toLowerCase()).toBe(usdcAddress().toLowerCase());
});

test('the resend cooldown and a wrong code are refused with their messages', async ({ page }) => {
  const email = `cooldown-${Date.now()}@example.com`;
  await openFrame(page);
  expect((await ask(page, 'CONNECT_EMAIL', { email })).type).toBe('CONNECT_EMAIL_SUCCESS');
  const again = await ask(page, 'CONNECT_EMAIL', { email });
  expect(again.type).toBe('CONNECT_EMAIL_ERROR');
  expect(again.payload.message).toMatch(/^Please try again after (30|29|28) seconds$/);
  const code = await codeFor(email, 0);
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const refused = await ask(page, 'CONNECT_OTP', { otp: wrong });
  expect(refused.type).toBe('CONNECT_OTP_ERROR');
  expect(refused.payload.message).toMatch(/code/i);
  // The frame's own behaviour 5.17 checks (latch-core through @latch/wasm-vault), before any call.
  expect(await ask(page, 'CONNECT_EMAIL', { email: 'not-an-address' })).toEqual({
    type: 'CONNECT_EMAIL_ERROR',
    payload: { message: 'email: Invalid input' },
  });
  expect(await ask(page, 'CONNECT_OTP', {})).toEqual({ type: 'CONNECT_OTP_ERROR', payload: { message: 'otp: Required' } });
  expect(await ask(page, 'GET_SOCIAL_REDIRECT_URI', { provider: 'myspace' })).toEqual({
    type: 'GET_SOCIAL_REDIRECT_URI_ERROR',
    payload: { message: 'provider: Invalid input' },
  });
  const connecting = ask(page, 'CONNECT_OTP', { otp: code });
  await setRecoveryPassword(page.frameLocator('iframe[title="wallet"]'));
  expect((await connecting).type).toBe('CONNECT_OTP_SUCCESS');
});

test('a handshake from another origin is ignored: no answer at all', async ({ page }) => {
  // Another site's document inside the same page posts to the frame as its parent would.
  const evil = `<!doctype html><title>evil</title><script>
    const channel = new MessageChannel();
    let answers = 0;
    channel.port1.onmessage = () => { answers += 1; };
    parent.frames[0].postMessage({ type: 'LATCH_FRAME_HANDSHAKE' }, '${E2E_VAULT_URL}', [channel.port2]);
    parent.frames[0].postMessage({ id: 'x1', type: 'GET_USER' }, '${E2E_VAULT_URL}');
    setTimeout(() => parent.postMessage({ answers }, '*'), 1500);
  </script>`;
  await page.route('http://evil.test/**', (route) => route.fulfill({ contentType: 'text/html', body: evil }));
  await openFrame(page);
  const answers = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        window.addEventListener('message', (event) => {
          if (event.origin === 'http://evil.test') resolve((event.data as { answers: number }).answers);
        });
        const frame = document.createElement('iframe');
        frame.src = 'http://evil.test/';
        document.body.append(frame);
      }),
  );
  expect(answers).toBe(0);
  // The real parent's channel still works.
  expect(await ask(page, 'GET_CHAIN_ID')).toEqual({ type: 'GET_CHAIN_ID_SUCCESS', payload: { chainId: 'eip155:31337' } });
});

test('the modal: e-mail, code, connected with the new address, restored after a reload, signed out', async ({ page }) => {
  const email = `modal-${Date.now()}@example.com`;
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  const modal = page.getByTestId('latch-modal');
  await page.getByTestId('email-input').fill(email);
  expect(await axeViolations(modal), 'Connect view with the e-mail field is axe-clean').toEqual([]);
  await page.getByTestId('email-submit').click();
  await expect(page.getByTestId('otp-input')).toBeVisible();
  // behaviour 7.1: a new code only after 30 s.
  await expect(page.getByTestId('otp-resend')).toBeDisabled();
  await expect(page.getByTestId('otp-resend')).toHaveText(/^New code in (30|29|28|27) s$/);
  expect(await axeViolations(modal), 'the code view is axe-clean').toEqual([]);

  const code = await codeFor(email, 0);
  await page.getByTestId('otp-input').fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
  await page.getByTestId('otp-submit').click();
  await expect(page.getByTestId('otp-error')).toHaveText(/code/i);
  await page.getByTestId('otp-input').fill(code);
  await page.getByTestId('otp-submit').click();
  // The recovery-password panel is the frame's, shown over the modal's view.
  const wallet = page.frameLocator('iframe[title="Latch wallet"]');
  await expect(wallet.getByTestId('recovery-panel')).toBeVisible({ timeout: 15_000 });
  expect(await axeViolations(modal), 'the view under the recovery panel is axe-clean').toEqual([]);
  await setRecoveryPassword(wallet);

  await expect(page.getByTestId('account-email')).toHaveText(email);
  const shown = await page.getByTestId('account-address').getAttribute('title');
  expect(shown).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(await axeViolations(modal), 'the embedded account is axe-clean').toEqual([]);

  // A reload reconnects through the frame's session: no new code.
  await page.reload();
  await expect(page.getByTestId('connect-button')).toHaveText(`${shown!.slice(0, 4)}...${shown!.slice(-6)}`);
  expect(mailsTo(email)).toHaveLength(1);

  await page.getByTestId('connect-button').click();
  await page.getByTestId('embedded-sign-out').click();
  await expect(page.getByTestId('connect-button')).toHaveText('Connect Wallet');
  await page.reload();
  await expect(page.getByTestId('connect-button')).toHaveText('Connect Wallet');
});

test('social login: the popup through the local OpenID Connect provider, then connected', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('connect-button').click();
  const login = `social${Date.now()}`;
  const opened = page.waitForEvent('popup');
  await page.getByTestId('social-google').click();
  const popup = await opened;
  // oidc-provider's development login, then its consent page.
  await popup.locator('input[name="login"]').fill(login);
  await popup.locator('input[name="password"]').fill('any password');
  await popup.locator('button[type="submit"]').click();
  // /social/callback hands the session to the frame and closes itself, maybe before the click
  // below returns.
  const closed = popup.waitForEvent('close');
  await popup
    .locator('button[type="submit"]')
    .click()
    .catch(() => undefined);
  await closed;
  await setRecoveryPassword(page.frameLocator('iframe[title="Latch wallet"]'));
  await expect(page.getByTestId('account-email')).toHaveText(`${login}@example.com`);
  await expect(page.getByTestId('account-address')).toHaveAttribute('title', /^0x[0-9a-fA-F]{40}$/);
});

/** Signs up through the modal; resolves to the new address, the modal closed. */
async function signUpInModal(page: Page, email: string): Promise<Hex> {
  await page.goto('/');
  await logInWithMailedCode(page, email, 0);
  await setRecoveryPassword(page.frameLocator('iframe[title="Latch wallet"]'));
  await expect(page.getByTestId('account-email')).toHaveText(email);
  const address = (await page.getByTestId('account-address').getAttribute('title')) as Hex;
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('latch-modal')).toBeHidden();
  return address;
}

test('approvals in the frame: a message signed and verified, a rejection, ETH sent on anvil', async ({ page }) => {
  test.setTimeout(90_000);
  const address = await signUpInModal(page, `approve-${Date.now()}@example.com`);
  await anvil.setBalance({ address, value: parseEther('1') });
  const wallet = page.frameLocator('iframe[title="Latch wallet"]');

  // personal_sign from the demo: ApproveTransaction opens with the frame showing the message.
  await page.getByTestId('demo-sign').click();
  const panel = wallet.getByTestId('approve-transaction');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('Hello from the Latch demo');
  await expect(page.getByTestId('latch-modal')).toBeVisible();
  expect(await axeViolations(page.getByTestId('latch-modal')), 'ApproveTransaction is axe-clean').toEqual([]);
  await wallet.getByTestId('approve-confirm').click();
  await expect(page.getByTestId('demo-sign-result')).toHaveText(/^0x[0-9a-f]{130}$/);
  const signature = (await page.getByTestId('demo-sign-result').textContent()) as Hex;
  expect(await verifyMessage({ address, message: 'Hello from the Latch demo', signature })).toBe(true);
  // The modal was opened for the approval: it closes after.
  await expect(page.getByTestId('latch-modal')).toBeHidden();

  // Rejected in the frame: the dapp gets EIP-1193's 4001, which the demo shows as its kind.
  await page.getByTestId('demo-sign').click();
  await wallet.getByTestId('approve-reject').click();
  await expect(page.getByTestId('demo-sign-result')).toHaveText('error: rejected');

  // Send ETH from the modal's Send view: the approval is pushed over it, then anvil has it. The
  // balances the view lists were read at sign-up, before the funding, and latch serves them from
  // its 30 s cache: reloads (the session restores without a code) until the funding shows.
  const receiver = privateKeyToAccount(generatePrivateKey()).address;
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.getByTestId('connect-button').click();
        await page.getByTestId('account-action-send').click();
        await expect(page.getByTestId('send-fee')).toContainText(/ETH/);
        return page.getByTestId('send-view').textContent();
      },
      // The cache's 30 s plus reloads on a loaded machine.
      { timeout: 75_000, intervals: [5_000] },
    )
    .toContain('Balance: 1');
  await page.getByTestId('send-token').selectOption({ label: 'ETH' });
  await page.getByTestId('send-amount').fill('0.1');
  await page.getByTestId('send-receiver').fill(receiver);
  await page.getByTestId('send-receiver').blur();
  await page.getByTestId('send-submit').click();
  await page.getByTestId('send-submit').click();
  await expect(panel).toBeVisible();
  await expect(panel).toContainText(receiver);
  await expect(panel).toContainText('0.1 ETH');
  await wallet.getByTestId('approve-confirm').click();
  await expect.poll(() => anvil.getBalance({ address: receiver })).toBe(parseEther('0.1'));
  await expect(page.getByText('Transaction started')).toBeVisible();
});
