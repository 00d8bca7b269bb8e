// ApproveTransaction against the real login store, frame client and provider, with a stand-in
// frame on a real MessageChannel that answers RPC_REQUEST as apps/vault does: APPROVAL_OPEN, then
// the answer once "the user" decides (e2e/tests/embedded.spec.ts runs the real frame).
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FrameHost, FrameRect } from '../../core/embedded/frameClient.js';
import { clickOpen, submitCode, submitEmail } from '../../test/render.js';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const USER = { email: 'a@b.co', userId: 'u', userName: null, accounts: [{ address: ADDRESS, type: 'eoa', namespace: 'eip155' }] };

interface Request {
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

/** A frame whose RPC_REQUEST opens an approval and waits for `decide`. */
function approvingFrame() {
  const requests: Request[] = [];
  const placed: (FrameRect | null)[] = [];
  let port!: MessagePort;
  let open: Request | null = null;
  const answer = (request: Request, ok: boolean, payload: unknown) =>
    port.postMessage({ id: request.id, type: `${request.type}_${ok ? 'SUCCESS' : 'ERROR'}`, payload });
  const decide = (ok: boolean, result: unknown) => {
    const request = open;
    if (!request) throw new Error('no approval is open');
    open = null;
    port.postMessage({ type: 'APPROVAL_CLOSED' });
    answer(request, ok, ok ? result : { message: 'User rejected the request', code: 4001 });
  };
  const host = (): FrameHost => ({
    postHandshake(_message, _origin, given) {
      port = given;
      port.onmessage = (event: MessageEvent<Request>) => {
        const request = event.data;
        requests.push(request);
        if (request.type === 'CONNECT_EMAIL') answer(request, true, { action: 'VERIFY_OTP' });
        else if (request.type === 'CONNECT_OTP') answer(request, true, USER);
        else if (request.type === 'RPC_ABORT') {
          answer(request, true, {});
          if (open) decide(false, null);
        } else if (request.type === 'RPC_REQUEST' && request.payload.method === 'eth_blockNumber') answer(request, true, '0x10');
        else if (request.type === 'RPC_REQUEST' && request.payload.method === 'eth_sign') {
          // As apps/vault does: the refusal, then every pending request rejected.
          answer(request, false, { message: 'Requested RPC call is not allowed', code: 4200 });
          setTimeout(() => open && decide(false, null), 0);
        } else if (request.type === 'RPC_REQUEST') {
          open = request;
          port.postMessage({ type: 'APPROVAL_OPEN' });
        } else answer(request, true, {});
      };
      port.postMessage({ type: 'READY' });
    },
    onLoad: (listener) => setTimeout(listener, 0),
    remove: () => undefined,
    place: (rect) => placed.push(rect),
  });
  return { host, requests, placed, decide };
}

async function signUp() {
  const frame = approvingFrame();
  const latch = await submitEmail(frame.host);
  await submitCode('123456');
  await waitFor(() => expect(latch.account.getState().address).toBe(ADDRESS));
  act(() => latch.modal.close());
  await waitFor(() => expect(latch.modal.store.getState().open).toBe(false));
  return { latch, ...frame };
}

describe('ApproveTransaction', () => {
  it('forwards a signature to the frame, shows the frame while it asks, and closes after', async () => {
    const { latch, requests, placed, decide } = await signUp();
    const signature = latch.signMessage('hello');
    await screen.findByText('Check the request in the wallet below, then confirm or reject it.');
    expect(latch.modal.store.getState().history).toEqual(['ApproveTransaction']);
    await waitFor(() => expect(placed.at(-1)).not.toBeNull());
    const theme = requests.find((request) => request.type === 'SYNC_THEME');
    expect(theme?.payload.themeMode).toBe(latch.theme.getState().themeMode);
    expect(theme?.payload.themeVariables).toMatchObject({ '--latch-accent': latch.theme.getState().themeVariables['--latch-accent'] });
    const rpc = requests.find((request) => request.type === 'RPC_REQUEST');
    expect(rpc?.payload.method).toBe('personal_sign');
    await act(async () => decide(true, '0xsigned'));
    await expect(signature).resolves.toBe('0xsigned');
    await waitFor(() => expect(latch.modal.store.getState().open).toBe(false));
    expect(placed.at(-1)).toBeNull();
  });

  it('closing the view aborts the request: the caller gets 4001', async () => {
    const { latch, requests } = await signUp();
    const signature = latch.signMessage('hello');
    await screen.findByTestId('approve-frame-box');
    act(() => latch.modal.close());
    await expect(signature).rejects.toMatchObject({ kind: 'rejected', cause: { code: 4001 } });
    expect(requests.some((request) => request.type === 'RPC_ABORT')).toBe(true);
  });

  it('pushes the view over an open modal and pops back to it', async () => {
    const { latch, decide } = await signUp();
    await clickOpen();
    await waitFor(() => expect(latch.modal.store.getState().history).toEqual(['Account']));
    const signature = latch.signMessage('hello');
    await waitFor(() => expect(latch.modal.store.getState().history).toEqual(['Account', 'ApproveTransaction']));
    await act(async () => decide(true, '0xsigned'));
    await expect(signature).resolves.toBe('0xsigned');
    await waitFor(() => expect(latch.modal.store.getState().history).toEqual(['Account']));
  });

  it('shows "Action not allowed" for a refused method after the rejection delay', async () => {
    const { latch } = await signUp();
    const connector = latch.connection.getState().connectors.find((item) => item.id === 'ID_AUTH');
    const eip1193 = connector && 'provider' in connector ? connector.provider : undefined;
    await expect(eip1193?.request({ method: 'eth_blockNumber' })).resolves.toBe('0x10');
    await expect(eip1193?.request({ method: 'eth_sign', params: [] })).rejects.toMatchObject({ code: 4200 });
    await waitFor(() => expect(latch.modal.store.getState().history).toEqual(['ApproveTransaction']));
    expect(screen.queryByTestId('approve-refused')).toBeNull();
    expect((await screen.findByTestId('approve-refused')).textContent).toBe('Action not allowed');
  });

  it('an unknown method while an approval is open rejects it and shows "Action not allowed" in its place', async () => {
    const { latch, placed } = await signUp();
    const signature = latch.signMessage('hello');
    await waitFor(() => expect(placed.at(-1)).not.toBeNull());
    const connector = latch.connection.getState().connectors.find((item) => item.id === 'ID_AUTH');
    const eip1193 = connector && 'provider' in connector ? connector.provider : undefined;
    await expect(eip1193?.request({ method: 'eth_sign', params: [] })).rejects.toMatchObject({ code: 4200 });
    await expect(signature).rejects.toMatchObject({ kind: 'rejected', cause: { code: 4001 } });
    // The frame's panel is gone; the view stays for the refusal.
    await waitFor(() => expect(placed.at(-1)).toBeNull());
    expect((await screen.findByTestId('approve-refused')).textContent).toBe('Action not allowed');
    expect(latch.modal.store.getState()).toMatchObject({ open: true, history: ['ApproveTransaction'] });
    expect(screen.queryByTestId('approve-frame-box')).toBeNull();
  });

  it("passes the modal's locale to the frame, and its changes", async () => {
    const { latch, requests } = await signUp();
    const locales = () => requests.filter((request) => request.type === 'SYNC_DAPP_DATA').map((request) => request.payload.locale);
    expect(locales()).toEqual([latch.locale.getState().locale]);
    await act(async () => {
      await latch.setLocale('de');
    });
    await waitFor(() => expect(locales().at(-1)).toBe('de'));
    // The same locale again sends nothing new.
    const count = locales().length;
    await act(async () => {
      await latch.setLocale('de');
    });
    expect(locales()).toHaveLength(count);
  });
});
