// The e-mail login views against the real login store and frame client, with a stand-in frame on
// a real MessageChannel answering as apps/vault does (e2e/tests/embedded.spec.ts runs the real one).
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestLatch } from '../../test/fixtures.js';
import { standInFrame } from '../../test/frame.js';
import { clickOpen, renderWithLatch, submitCode, submitEmail } from '../../test/render.js';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const frame = standInFrame;

describe('e-mail login', () => {
  it('shows no e-mail field without an embedded wallet', async () => {
    renderWithLatch(createTestLatch());
    await clickOpen();
    expect(screen.queryByTestId('email-input')).toBeNull();
  });

  it('sends the code, counts the resend down, refuses a wrong code and connects with the right one', async () => {
    const { host, requests } = frame({
      CONNECT_EMAIL: () => ({ ok: true, payload: { action: 'VERIFY_OTP' } }),
      CONNECT_OTP: ({ otp }) =>
        otp === '123456'
          ? { ok: true, payload: { email: 'a@b.co', userId: 'u', userName: null, accounts: [{ address: ADDRESS, type: 'eoa', namespace: 'eip155' }] } }
          : { ok: false, payload: { message: 'wrong code: 4 guesses left' } },
    });
    const latch = createTestLatch({ embeddedWallet: { vaultUrl: 'http://vault.test/', frameHost: host } });
    renderWithLatch(latch);
    await clickOpen();
    const input = await screen.findByLabelText('E-mail address');
    expect(input.getAttribute('data-testid')).toBe('email-input');
    fireEvent.change(input, { target: { value: 'a@b.co' } });
    await waitFor(() => expect((screen.getByTestId('email-submit') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('email-submit'));
    const otp = await screen.findByLabelText('Code');
    expect(screen.getByText('Enter the 6-digit code sent to a@b.co.')).toBeTruthy();
    expect(screen.getByTestId('otp-resend').textContent).toMatch(/^New code in (30|29) s$/);
    expect((screen.getByTestId('otp-resend') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(otp, { target: { value: '654321' } });
    fireEvent.click(screen.getByTestId('otp-submit'));
    expect((await screen.findByRole('alert')).textContent).toBe('wrong code: 4 guesses left');
    fireEvent.change(otp, { target: { value: '123456' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('otp-submit'));
    });
    await waitFor(() => expect(latch.account.getState().address).toBe(ADDRESS));
    expect(await screen.findByTestId('account-email')).toBeTruthy();
    expect(screen.getByTestId('embedded-sign-out').textContent).toBe('Sign out');
    // The frame follows the modal's theme and locale (its approval panel uses both).
    expect(requests).toEqual(['SYNC_THEME', 'SYNC_DAPP_DATA', 'CONNECT_EMAIL', 'CONNECT_OTP', 'CONNECT_OTP']);
  });

  it('going back from a refused code leaves a clean e-mail form, after the back cleanup (behaviour 1.5)', async () => {
    const { host } = frame({
      CONNECT_EMAIL: () => ({ ok: true, payload: { action: 'VERIFY_OTP' } }),
      CONNECT_OTP: () => ({ ok: false, payload: { message: 'wrong code: 4 guesses left' } }),
    });
    const latch = await submitEmail(host);
    await submitCode('654321');
    expect((await screen.findByRole('alert')).textContent).toBe('wrong code: 4 guesses left');
    act(() => latch.modal.back());
    // The code step's error is dropped once the cleanup runs; the e-mail stays typed in.
    await waitFor(() => expect(screen.queryByTestId('email-error')).toBeNull(), { timeout: 1000 });
    expect((screen.getByTestId('email-input') as HTMLInputElement).value).toBe('a@b.co');
  });

  it('a known user on a new device: the approval-link step, refused until approved, then the code', async () => {
    let approved = false;
    const { host, requests } = frame({
      CONNECT_EMAIL: () => ({ ok: true, payload: { action: 'VERIFY_DEVICE' } }),
      // As latch answers: another link while the device is unapproved, a code once it is.
      CONNECT_DEVICE: () => ({ ok: true, payload: { action: approved ? 'VERIFY_OTP' : 'VERIFY_DEVICE' } }),
    });
    await submitEmail(host);
    expect((await screen.findByTestId('device-sent-to')).textContent).toBe(
      'We sent a link to a@b.co. Open it to approve this browser, then continue.',
    );
    fireEvent.click(screen.getByTestId('device-continue'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This device is not approved yet: open the link in the newest e-mail, then continue.',
    );
    approved = true;
    fireEvent.click(screen.getByTestId('device-continue'));
    expect(await screen.findByLabelText('Code')).toBeTruthy();
    expect(screen.getByTestId('otp-resend').textContent).toMatch(/^New code in (30|29) s$/);
    expect(requests).toEqual(['SYNC_THEME', 'SYNC_DAPP_DATA', 'CONNECT_EMAIL', 'CONNECT_DEVICE', 'CONNECT_DEVICE']);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  for (const [platform, shown] of [
    [undefined, ['google', 'x', 'github']],
    ['android', ['google', 'github']],
    ['ios', ['x', 'github']],
  ] as const) {
    it(`offers the configured social logins${platform ? ` minus those a Telegram mini-app on ${platform} cannot open` : ''}`, async () => {
      const asked: string[] = [];
      vi.stubGlobal('fetch', async (url: string) => {
        asked.push(url);
        return new Response(JSON.stringify({ projectId: 'test-project', name: 'test-project', allowed: true, socials: ['google', 'x', 'github', 'local-oidc'] }));
      });
      if (platform) vi.stubGlobal('Telegram', { WebApp: { platform } });
      const { host } = frame({});
      renderWithLatch(createTestLatch({ embeddedWallet: { vaultUrl: 'http://vault.test/', frameHost: host } }));
      await clickOpen();
      const list = await screen.findByRole('list', { name: 'Social logins' });
      const buttons = Array.from(list.querySelectorAll('button'));
      expect(buttons.map((button) => button.dataset.testid)).toEqual(shown.map((id) => `social-${id}`));
      expect(buttons[0]?.textContent).toBe(`Continue with ${shown[0] === 'x' ? 'X' : 'Google'}`);
      expect(asked.filter((url) => url.includes('/v1/embedded/'))).toEqual([`http://latch.test/v1/embedded/frame-config?projectId=test-project&origin=${encodeURIComponent(location.origin)}`]);
    });
  }
});
