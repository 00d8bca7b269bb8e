// Update e-mail (behaviour 5.15) through the modal: the real frame, latch and SMTP sink. The code
// to the current address and the one to the new address are read from the sink; afterwards the
// new address logs in to the same wallet and the old one is a stranger (a new sign-up).
import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from '../fixtures/axe.js';
import { codeFor, logInWithMailedCode, mailsTo } from '../fixtures/mail.js';
import { setRecoveryPassword } from '../fixtures/recovery.js';

const wallet = (page: Page) => page.frameLocator('iframe[title="Latch wallet"]');

/** Logs in through the modal's e-mail field with mail number `index` to `email`; the Account view is shown. */
async function logIn(page: Page, email: string, index: number, signUp: boolean) {
  await logInWithMailedCode(page, email, index);
  if (signUp) await setRecoveryPassword(wallet(page));
  await expect(page.getByTestId('account-email')).toHaveText(email);
  return page.getByTestId('account-address').getAttribute('title');
}

async function signOut(page: Page) {
  await page.getByTestId('embedded-sign-out').click();
  await expect(page.getByTestId('connect-button')).toHaveText('Connect Wallet');
}

test('update e-mail: both codes from the sink, the account shows it, the new address logs in, the old one is new', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const oldEmail = `update-old-${stamp}@example.com`;
  const newEmail = `update-new-${stamp}@example.com`;
  const modal = page.getByTestId('latch-modal');
  await page.goto('/');
  const address = await logIn(page, oldEmail, 0, true);
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  await page.getByTestId('account-update-email').click();
  await expect(page.getByTestId('update-email-current')).toContainText(oldEmail);
  expect(await axeViolations(modal), 'the new-address view is axe-clean').toEqual([]);
  // The address it already has is refused before latch is asked (no mail goes out).
  await page.getByTestId('update-email-input').fill(oldEmail.toUpperCase());
  await page.getByTestId('update-email-submit').click();
  await expect(page.getByTestId('update-email-error')).toHaveText('This is already your e-mail address.');
  expect(mailsTo(oldEmail)).toHaveLength(1);

  await page.getByTestId('update-email-input').fill(newEmail);
  await page.getByTestId('update-email-submit').click();
  await expect(modal).toContainText(`Enter the 6-digit code sent to your current address ${oldEmail}.`);
  await expect(page.getByTestId('update-email-primary-otp-resend')).toBeDisabled();
  await expect(page.getByTestId('update-email-primary-otp-resend')).toHaveText(/^New code in (30|29|28|27) s$/);
  expect(await axeViolations(modal), 'the current-address code view is axe-clean').toEqual([]);
  await page.getByTestId('update-email-primary-otp-input').fill(await codeFor(oldEmail, 1));
  await page.getByTestId('update-email-primary-otp-submit').click();

  await expect(modal).toContainText(`Enter the 6-digit code sent to your new address ${newEmail}.`);
  expect(await axeViolations(modal), 'the new-address code view is axe-clean').toEqual([]);
  const secondary = await codeFor(newEmail, 0);
  // A mistyped second code is refused with latch's message; the first code is kept for the retry.
  await page.getByTestId('update-email-secondary-otp-input').fill(String((Number(secondary) + 1) % 1_000_000).padStart(6, '0'));
  await page.getByTestId('update-email-secondary-otp-submit').click();
  await expect(page.getByTestId('update-email-secondary-otp-error')).toHaveText(/wrong code/);
  expect(await axeViolations(modal), 'the code view with its error is axe-clean').toEqual([]);
  await page.getByTestId('update-email-secondary-otp-input').fill(secondary);
  await page.getByTestId('update-email-secondary-otp-submit').click();

  // Back on Account, with the new address; a reload restores the session with it too.
  await expect(page.getByTestId('account-email')).toHaveText(newEmail);
  await expect(page.getByTestId('account-address')).toHaveAttribute('title', address!);
  await page.reload();
  await page.getByTestId('connect-button').click();
  await expect(page.getByTestId('account-email')).toHaveText(newEmail);
  await signOut(page);

  // The new address logs in to the same wallet on this device: a code, no recovery password.
  expect(await logIn(page, newEmail, 1, false)).toBe(address);
  await signOut(page);

  // The old address maps to no one now: it signs up a new user with a wallet of its own.
  await logInWithMailedCode(page, oldEmail, 2);
  await expect(wallet(page).getByTestId('recovery-panel')).toContainText('Set a recovery password', { timeout: 15_000 });
  await setRecoveryPassword(wallet(page));
  await expect(page.getByTestId('account-email')).toHaveText(oldEmail);
  const stranger = await page.getByTestId('account-address').getAttribute('title');
  expect(stranger).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(stranger).not.toBe(address);

  // That user cannot take the first one's address: latch's EMAIL_TAKEN, in the user's language.
  await page.getByTestId('account-update-email').click();
  await page.getByTestId('update-email-input').fill(newEmail);
  await page.getByTestId('update-email-submit').click();
  await expect(page.getByTestId('update-email-error')).toHaveText('This e-mail address is already in use.');
});
