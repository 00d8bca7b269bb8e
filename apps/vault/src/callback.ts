// /social/callback: the social popup's last page, on the frame's origin. latch redirected here
// with #loginCode=…&provider=… (or #error=…); this page finishes the login and hands the
// session token to the frame that waits for it: the frame sits in the page that opened this
// popup, so it is one of `opener.frames`, and only a document of this origin can receive it.
import { call } from './api';
import { SOCIAL_TOKEN } from './messages';

const status = document.getElementById('status');
const show = (text: string) => {
  if (status) status.textContent = text;
};

async function finish(): Promise<void> {
  const fragment = new URLSearchParams(location.hash.slice(1));
  // The code is single-use; keep it out of the history either way.
  history.replaceState(null, '', location.pathname);
  const error = fragment.get('error');
  const loginCode = fragment.get('loginCode');
  const projectId = fragment.get('projectId') ?? '';
  if (error || !loginCode) {
    show(error ?? 'Missing login code');
    return;
  }
  const { token } = await call<{ token: string }>(projectId, 'POST', 'social/finish', { body: { loginCode } });
  const opener = window.opener as Window | null;
  if (!opener) {
    show('Return to the page you came from');
    return;
  }
  for (let i = 0; i < opener.frames.length; i += 1) {
    opener.frames[i]?.postMessage({ type: SOCIAL_TOKEN, token }, location.origin);
  }
  window.close();
}

finish().catch((error: unknown) => show(error instanceof Error ? error.message : 'An error occurred'));
