// The e-mail update's views against the real login store and frame client, with a stand-in frame
// on a real MessageChannel answering as apps/vault and latch do (the first code is kept, both are
// checked with the second); e2e/tests/embedded-update-email.spec.ts runs the real ones.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestLatch } from '../../test/fixtures.js';
import { standInFrame, type FrameAnswer } from '../../test/frame.js';
import { clickOpen, renderWithLatch, submitCode, submitEmail } from '../../test/render.js';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TAKEN = 'taken@b.co';

/** A frame with one user, `a@b.co`, whose update codes are 111111 (current) and 222222 (new). */
function frame() {
  let email = 'a@b.co';
  let pending: string | undefined;
  let primary: string | null = null;
  const user = () => ({ email, userId: 'u', userName: null, accounts: [{ address: ADDRESS, type: 'eoa', namespace: 'eip155' }] });
  const refuse = (message: string, reason: string, field: string) => ({ ok: false, payload: { message, reason, field } });
  const answers: Record<string, FrameAnswer> = {
    CONNECT_EMAIL: () => ({ ok: true, payload: { action: 'VERIFY_OTP' } }),
    CONNECT_OTP: () => ({ ok: true, payload: user() }),
    UPDATE_EMAIL: ({ email: next }) => {
      if (next === TAKEN || next === email) return refuse('this address is already in use', 'EMAIL_TAKEN', 'newEmail');
      pending = String(next);
      return { ok: true, payload: { action: 'VERIFY_PRIMARY_OTP' } };
    },
    UPDATE_EMAIL_PRIMARY_OTP: ({ otp }) => {
      primary = String(otp);
      return { ok: true, payload: { action: 'VERIFY_SECONDARY_OTP' } };
    },
    UPDATE_EMAIL_SECONDARY_OTP: ({ otp }) => {
      if (primary !== '111111') {
        primary = null;
        return refuse('wrong code; 4 attempts left', 'OTP_INVALID', 'primaryOtp');
      }
      if (otp !== '222222') return refuse('wrong code; 4 attempts left', 'OTP_INVALID', 'secondaryOtp');
      email = pending!;
      return { ok: true, payload: user() };
    },
  };
  return standInFrame(answers);
}

async function logIn() {
  const { host, requests } = frame();
  const latch = await submitEmail(host);
  await submitCode('123456');
  expect((await screen.findByTestId('account-email')).textContent).toBe('a@b.co');
  return { latch, requests };
}

async function typeNewEmail(value: string) {
  const input = await screen.findByLabelText('New e-mail address');
  fireEvent.change(input, { target: { value } });
  await waitFor(() => expect((screen.getByTestId('update-email-submit') as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(screen.getByTestId('update-email-submit'));
}

async function typeCode(step: 'primary' | 'secondary', code: string) {
  const input = await screen.findByTestId(`update-email-${step}-otp-input`);
  fireEvent.change(input, { target: { value: code } });
  await waitFor(() => expect((screen.getByTestId(`update-email-${step}-otp-submit`) as HTMLButtonElement).disabled).toBe(false));
  await act(async () => {
    fireEvent.click(screen.getByTestId(`update-email-${step}-otp-submit`));
  });
}

describe('update e-mail', () => {
  it('is offered only to an embedded-wallet user', async () => {
    renderWithLatch(createTestLatch());
    await clickOpen();
    expect(screen.queryByTestId('account-update-email')).toBeNull();
  });

  it('refuses the same and a taken address, then the two codes change it and Account shows it', async () => {
    const { latch, requests } = await logIn();
    fireEvent.click(screen.getByTestId('account-update-email'));
    expect((await screen.findByTestId('update-email-current')).textContent).toBe(
      'Your e-mail is a@b.co. Enter the new address: we send a code to each.',
    );
    expect(latch.modal.store.getState().history.at(-1)).toBe('UpdateEmailWallet');

    // The same address is refused without asking latch; a taken one with latch's EMAIL_TAKEN.
    await typeNewEmail(' A@b.co ');
    expect((await screen.findByTestId('update-email-error')).textContent).toBe('This is already your e-mail address.');
    await typeNewEmail(TAKEN);
    await waitFor(() => expect(screen.getByTestId('update-email-error').textContent).toBe('This e-mail address is already in use.'));
    expect(screen.getByTestId('update-email-input').getAttribute('aria-invalid')).toBe('true');

    await typeNewEmail('new@b.co');
    expect(await screen.findByText('Enter the 6-digit code sent to your current address a@b.co.')).toBeTruthy();
    expect(screen.getByTestId('update-email-primary-otp-resend').textContent).toMatch(/^New code in (30|29) s$/);
    expect((screen.getByTestId('update-email-primary-otp-resend') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('update-email-primary-otp-error')).toBeNull();

    await typeCode('primary', '111111');
    expect(await screen.findByText('Enter the 6-digit code sent to your new address new@b.co.')).toBeTruthy();
    expect(screen.getByTestId('update-email-secondary-otp-resend').textContent).toMatch(/^New code in (30|29) s$/);
    // A mistyped second code is typed again on the same view.
    await typeCode('secondary', '999999');
    expect((await screen.findByTestId('update-email-secondary-otp-error')).textContent).toBe('wrong code; 4 attempts left');
    expect(latch.modal.store.getState().history.at(-1)).toBe('UpdateEmailSecondaryOtp');
    await typeCode('secondary', '222222');

    await waitFor(() => expect(latch.modal.store.getState().history).toEqual(['Account']));
    expect((await screen.findByTestId('account-email')).textContent).toBe('new@b.co');
    expect(latch.embeddedWallet?.current()?.store.getState()).toMatchObject({ user: { email: 'new@b.co' }, newEmail: undefined });
    expect(requests.filter((type) => type.startsWith('UPDATE_EMAIL'))).toEqual([
      'UPDATE_EMAIL',
      'UPDATE_EMAIL',
      'UPDATE_EMAIL_PRIMARY_OTP',
      'UPDATE_EMAIL_SECONDARY_OTP',
      'UPDATE_EMAIL_SECONDARY_OTP',
    ]);
  });

  it('a wrong first code, found with the second, goes back to the first with the error', async () => {
    const { latch } = await logIn();
    fireEvent.click(screen.getByTestId('account-update-email'));
    await typeNewEmail('new@b.co');
    await typeCode('primary', '000000');
    await typeCode('secondary', '222222');
    await waitFor(() => expect(latch.modal.store.getState().history.at(-1)).toBe('UpdateEmailPrimaryOtp'));
    expect((await screen.findByTestId('update-email-primary-otp-error')).textContent).toBe('wrong code; 4 attempts left');
    // The error outlives the back cleanup (behaviour 1.5) that would drop it after a user's Back.
    await new Promise((done) => setTimeout(done, 200));
    expect(screen.getByTestId('update-email-primary-otp-error')).toBeTruthy();
    await typeCode('primary', '111111');
    await typeCode('secondary', '222222');
    expect((await screen.findByTestId('account-email')).textContent).toBe('new@b.co');
  });

  it('a new code from the second step sends both again and asks for the first again', async () => {
    const { latch, requests } = await logIn();
    fireEvent.click(screen.getByTestId('account-update-email'));
    await typeNewEmail('new@b.co');
    await typeCode('primary', '111111');
    await screen.findByTestId('update-email-secondary-otp-input');
    // The button counts down 30 s first; the store's resend is what it calls.
    await act(async () => {
      await latch.embeddedWallet?.current()?.resendUpdate();
    });
    await waitFor(() => expect(latch.modal.store.getState().history.at(-1)).toBe('UpdateEmailPrimaryOtp'));
    expect(await screen.findByText('Enter the 6-digit code sent to your current address a@b.co.')).toBeTruthy();
    expect(requests.filter((type) => type === 'UPDATE_EMAIL')).toHaveLength(2);
  });

  it('going back drops the step error', async () => {
    const { latch } = await logIn();
    fireEvent.click(screen.getByTestId('account-update-email'));
    await typeNewEmail(TAKEN);
    expect(await screen.findByTestId('update-email-error')).toBeTruthy();
    act(() => latch.modal.back());
    await waitFor(() => expect(latch.embeddedWallet?.current()?.store.getState().error).toBeUndefined(), { timeout: 1000 });
  });
});
