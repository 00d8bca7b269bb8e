// Issue 28 new-device recovery, all real parts: a first browser signs up by e-mail in the modal
// and sets its recovery password in the wallet frame (the recovery share sealed with Argon2id, the
// envelope stored by latch); a second browser context, with storage of its own, logs in with the
// same e-mail in the modal (device approval link and code from the SMTP sink), is refused a wrong
// password, then opens the envelope with the right one, gets the same address and signs with it.
import { expect, type Page, test } from '@playwright/test';
import { verifyMessage, type Hex } from 'viem';
import { axeViolationsInFrame } from '../fixtures/axe.js';
import { ask, openFrame } from '../fixtures/frame.js';
import { codeFor, logInWithMailedCode, mailsTo } from '../fixtures/mail.js';
import { enterRecoveryPassword, RECOVERY_PASSWORD, setRecoveryPassword } from '../fixtures/recovery.js';
import { E2E_SERVER_URL, E2E_VAULT_URL } from '../fixtures/stack.js';

/** The device approval link of mail number `index` to `address` (quoted-printable undone). */
function approvalLink(address: string, index: number): string {
  const data = mailsTo(address)[index]?.data ?? '';
  const plain = data.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
  const link = /(https?:\/\/\S+\/v1\/embedded\/device\/approve\?token=[A-Za-z0-9_-]+)/.exec(plain)?.[1];
  if (!link) throw new Error(`no approval link in mail ${index}: ${data}`);
  return link;
}

/** The frame's storage keys of a user's device share and pending recovery share (keys.ts). */
const DEVICE_SHARE = /^latch-vault:[^:]+:[^:]+:device$/;
const PENDING_RECOVERY = /^latch-vault:[^:]+:[^:]+:recovery$/;

function vaultFrame(page: Page) {
  const frame = page.frames().find((item) => item.url().startsWith(E2E_VAULT_URL));
  if (!frame) throw new Error('no wallet frame');
  return frame;
}

/** The frame's own storage keys (the test reads them through the frame; the host page cannot). */
async function frameStorage(page: Page): Promise<string[]> {
  return vaultFrame(page).evaluate(() => Object.keys(localStorage));
}

test('a new device recovers the same address with the recovery password, after a wrong one is refused', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const email = `recover-${Date.now()}@example.com`;

  // The first device: sign-up in the modal; the frame asks for the recovery password itself.
  await page.goto('/');
  await logInWithMailedCode(page, email, 0);
  const firstWallet = page.frameLocator('iframe[title="Latch wallet"]');
  // Too short and mismatched passwords are refused in the panel before anything is sealed.
  const setPanel = firstWallet.getByTestId('recovery-panel');
  await expect(setPanel).toBeVisible({ timeout: 15_000 });
  await setPanel.getByTestId('recovery-password').fill('short');
  await setPanel.getByTestId('recovery-confirm').fill('short');
  await setPanel.getByTestId('recovery-submit').click();
  await expect(setPanel.getByTestId('recovery-error')).toHaveText('Use at least 8 characters');
  await setPanel.getByTestId('recovery-password').fill(RECOVERY_PASSWORD);
  await setPanel.getByTestId('recovery-confirm').fill(`${RECOVERY_PASSWORD}!`);
  await setPanel.getByTestId('recovery-submit').click();
  await expect(setPanel.getByTestId('recovery-error')).toHaveText('The passwords do not match');
  expect(await axeViolationsInFrame(vaultFrame(page), '[data-testid=recovery-panel]'), 'the set panel is axe-clean').toEqual([]);
  await setRecoveryPassword(firstWallet);
  await expect(page.getByTestId('account-email')).toHaveText(email);
  const address = (await page.getByTestId('account-address').getAttribute('title')) as Hex;
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  // Sealed: this device keeps its device share, no longer the plain recovery share; the host
  // page's storage holds nothing of the frame's.
  const kept = await frameStorage(page);
  expect(kept.some((key) => DEVICE_SHARE.test(key))).toBe(true);
  expect(kept.some((key) => PENDING_RECOVERY.test(key))).toBe(false);
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(RECOVERY_PASSWORD);

  // The second device: a fresh browser context, same e-mail.
  const context = await browser.newContext({ baseURL: E2E_SERVER_URL });
  try {
    const second = await context.newPage();
    await second.goto('/');
    await second.getByTestId('connect-button').click();
    await second.getByTestId('email-input').fill(email);
    await second.getByTestId('email-submit').click();
    // A known user on a new device: the approval link first (mail 2), then the code (mail 3).
    await expect(second.getByTestId('device-sent-to')).toContainText(email);
    expect(await frameStorage(second)).not.toContainEqual(expect.stringMatching(DEVICE_SHARE));
    await expect.poll(() => mailsTo(email).length).toBe(2);
    expect((await request.get(approvalLink(email, 1))).status()).toBe(200);
    await second.getByTestId('device-continue').click();
    await second.getByTestId('otp-input').fill(await codeFor(email, 2));
    await second.getByTestId('otp-submit').click();

    const frame = second.frameLocator('iframe[title="Latch wallet"]');
    const panel = frame.getByTestId('recovery-panel');
    // Wrong passwords: refused in the frame (latch never sees one), the count of tries goes down.
    await enterRecoveryPassword(frame, 'not my password');
    await expect(panel.getByTestId('recovery-error')).toHaveText('Wrong recovery password. 4 tries left.', { timeout: 20_000 });
    expect(await axeViolationsInFrame(vaultFrame(second), '[data-testid=recovery-panel]'), 'the enter panel is axe-clean').toEqual([]);
    await enterRecoveryPassword(frame, `${RECOVERY_PASSWORD} `);
    await expect(panel.getByTestId('recovery-error')).toHaveText('Wrong recovery password. 3 tries left.', { timeout: 20_000 });
    await expect(second.getByTestId('account-email')).toHaveCount(0);

    await enterRecoveryPassword(frame, RECOVERY_PASSWORD);
    await expect(second.getByTestId('account-email')).toHaveText(email, { timeout: 20_000 });
    await expect(second.getByTestId('account-address')).toHaveAttribute('title', address);
    // The rebuilt device share is this device's now; the plain recovery share is not kept.
    const recovered = await frameStorage(second);
    expect(recovered.some((key) => DEVICE_SHARE.test(key))).toBe(true);
    expect(recovered.some((key) => PENDING_RECOVERY.test(key))).toBe(false);

    // And it signs as that address: the demo's personal_sign, approved in the frame, checked with viem.
    await second.keyboard.press('Escape');
    await expect(second.getByTestId('latch-modal')).toBeHidden();
    await second.getByTestId('demo-sign').click();
    const approval = frame.getByTestId('approve-transaction');
    await expect(approval).toContainText('Hello from the Latch demo');
    await approval.getByTestId('approve-confirm').click();
    await expect(second.getByTestId('demo-sign-result')).toHaveText(/^0x[0-9a-f]{130}$/);
    const signature = (await second.getByTestId('demo-sign-result').textContent()) as Hex;
    expect(await verifyMessage({ address, message: 'Hello from the Latch demo', signature })).toBe(true);
  } finally {
    await context.close();
  }
});

test('the recovery password cannot be skipped: a closed panel fails the login, the next one asks again', async ({ page }) => {
  test.setTimeout(150_000);
  const email = `unsealed-${Date.now()}@example.com`;
  await openFrame(page);
  expect((await ask(page, 'CONNECT_EMAIL', { email })).type).toBe('CONNECT_EMAIL_SUCCESS');
  const first = ask(page, 'CONNECT_OTP', { otp: await codeFor(email, 0) });
  const frame = page.frameLocator('iframe[title="wallet"]');
  await expect(frame.getByTestId('recovery-panel')).toBeVisible({ timeout: 15_000 });
  // The host closes its view (as the modal does when the user closes it): the frame is told to abort.
  expect(await ask(page, 'RPC_ABORT')).toEqual({ type: 'RPC_ABORT_SUCCESS', payload: {} });
  expect(await first).toEqual({ type: 'CONNECT_OTP_ERROR', payload: { message: 'Recovery password not entered' } });
  await expect(frame.getByTestId('recovery-panel')).toBeHidden();
  expect(await ask(page, 'IS_CONNECTED')).toEqual({ type: 'IS_CONNECTED_SUCCESS', payload: { isConnected: false } });
  // The wallet exists, the recovery share still waits on this device to be sealed.
  expect(await frameStorage(page)).toContainEqual(expect.stringMatching(PENDING_RECOVERY));

  // A new code after the 30 s resend cooldown; the login asks for the password again.
  await expect
    .poll(async () => (await ask(page, 'CONNECT_EMAIL', { email })).type, { timeout: 60_000, intervals: [5_000] })
    .toBe('CONNECT_EMAIL_SUCCESS');
  const second = ask(page, 'CONNECT_OTP', { otp: await codeFor(email, 1) });
  await setRecoveryPassword(frame);
  expect((await second).type).toBe('CONNECT_OTP_SUCCESS');
  const kept = await frameStorage(page);
  expect(kept).toContainEqual(expect.stringMatching(DEVICE_SHARE));
  expect(kept).not.toContainEqual(expect.stringMatching(PENDING_RECOVERY));
});
