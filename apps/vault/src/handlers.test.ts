// The e-mail update's two codes in the frame (behaviour 5.15 "update e-mail"): latch checks both
// with the second, so the frame keeps the first until latch says which one was wrong.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { type FrameState, handlers } from './handlers';
import { setSessionToken } from './storage';

const USER = { email: 'new@b.co', userId: 'u', accounts: [], userName: null };

function state(): FrameState {
  return {
    projectId: 'p',
    chainId: 'eip155:1',
    pendingEmail: null,
    primaryOtp: null,
    theme: {},
    dapp: {},
    sessionChanged: () => undefined,
    socialToken: () => new Promise(() => undefined),
    socials: [],
    hostOrigin: 'http://host.test',
    approvalVisible: () => undefined,
  };
}

/** latch's answers to the verify call, one per call; GET user answers USER. */
function latch(verify: { status: number; body: unknown }[]) {
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (url.startsWith('/v1/embedded/user')) return new Response(JSON.stringify(USER));
    bodies.push(JSON.parse(String(init.body)));
    const next = verify.shift()!;
    return new Response(JSON.stringify(next.body), { status: next.status });
  });
  return bodies;
}

const refusal = (code: string, field: string) => ({
  status: 400,
  body: { status: 'FAILED', code, reasons: [{ field, description: 'wrong code; 4 attempts left' }] },
});

afterEach(() => {
  vi.unstubAllGlobals();
  setSessionToken('p', null);
});

describe('update e-mail in the frame', () => {
  it('keeps the first code when only the second was mistyped, and sends both again', async () => {
    setSessionToken('p', 'token');
    const frame = state();
    const bodies = latch([refusal('OTP_INVALID', 'secondaryOtp'), { status: 200, body: USER }]);
    await handlers.UPDATE_EMAIL_PRIMARY_OTP!(frame, { otp: '111111' });
    const refused = await handlers.UPDATE_EMAIL_SECONDARY_OTP!(frame, { otp: '999999' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'OTP_INVALID', field: 'secondaryOtp', message: 'wrong code; 4 attempts left' });
    expect(await handlers.UPDATE_EMAIL_SECONDARY_OTP!(frame, { otp: '222222' })).toMatchObject({ email: 'new@b.co' });
    expect(bodies).toEqual([
      { primaryOtp: '111111', secondaryOtp: '999999' },
      { primaryOtp: '111111', secondaryOtp: '222222' },
    ]);
    expect(frame.primaryOtp).toBeNull();
  });

  it('drops the first code when it was the wrong one: the second alone is refused until it is typed again', async () => {
    setSessionToken('p', 'token');
    const frame = state();
    latch([refusal('OTP_INVALID', 'primaryOtp')]);
    await handlers.UPDATE_EMAIL_PRIMARY_OTP!(frame, { otp: '000000' });
    await expect(handlers.UPDATE_EMAIL_SECONDARY_OTP!(frame, { otp: '222222' })).rejects.toMatchObject({ field: 'primaryOtp' });
    expect(frame.primaryOtp).toBeNull();
    await expect(handlers.UPDATE_EMAIL_SECONDARY_OTP!(frame, { otp: '222222' })).rejects.toThrow(
      'Enter the code sent to your current e-mail first',
    );
  });
});
