// The recovery-password panel (issue 28; ARCHITECTURE.md "Embedded-wallet keys"). Drawn in the
// frame's own page like the approval panel, so the host page never sees the password: at sign-up
// the user sets the password that seals the recovery share; on a new device the user types it to
// open the envelope. Plain DOM, textContent only, styles in approve.css (the CSP allows no inline
// style).
import './approve.css';
import { format, type PanelMessages, panelMessages } from './locales';

export type RecoveryMode = 'set' | 'enter';

/** Shortest password accepted at sign-up: Argon2id slows guessing, it cannot fix a tiny password. */
export const MIN_PASSWORD_LENGTH = 8;

const text = (t: PanelMessages, mode: RecoveryMode) =>
  mode === 'set'
    ? { title: t.recoverySetTitle, hint: t.recoverySetHint, submit: t.recoverySetSubmit, busy: t.recoverySaving }
    : { title: t.recoveryEnterTitle, hint: t.recoveryEnterHint, submit: t.recoveryEnterSubmit, busy: t.recoveryUnlocking };

export const CANCELLED = 'Recovery password not entered';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function field(id: string, label: string, autocomplete: string): { row: HTMLElement; input: HTMLInputElement } {
  const row = element('div');
  row.className = 'field';
  const name = element('label', label);
  name.htmlFor = id;
  const input = element('input');
  input.id = id;
  input.type = 'password';
  input.autocomplete = autocomplete as AutoFill;
  input.required = true;
  input.dataset.testid = id;
  row.append(name, input);
  return { row, input };
}

let cancelOpen: (() => void) | null = null;

/** Closes the open panel as cancelled (the host closed its view); the login then fails. */
export function abortRecovery(): void {
  cancelOpen?.();
}

/**
 * Shows the panel, in the host's `locale`, and calls `submit` with each password the user sends:
 * `submit` answers an error to show (the panel stays, the user tries again) or null when done (the
 * panel closes). Resolves once done; rejects with CANCELLED if the host aborts, or with `submit`'s
 * thrown error (e.g. no tries left).
 */
export function askRecoveryPassword(
  mode: RecoveryMode,
  submit: (password: string) => Promise<string | null>,
  locale: string | null = null,
): Promise<void> {
  const t = panelMessages(locale);
  const words = text(t, mode);
  const panel = element('form');
  panel.dataset.testid = 'recovery-panel';
  panel.lang = t === panelMessages('en') ? 'en' : (locale ?? 'en');
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-modal', 'true');
  panel.noValidate = true;
  const heading = element('h1', words.title);
  heading.id = 'recovery-title';
  panel.setAttribute('aria-labelledby', heading.id);
  const hint = element('p', words.hint);
  hint.id = 'recovery-hint';
  panel.setAttribute('aria-describedby', hint.id);
  const password = field('recovery-password', t.recoveryPassword, mode === 'set' ? 'new-password' : 'current-password');
  const confirm = mode === 'set' ? field('recovery-confirm', t.recoveryConfirm, 'new-password') : null;
  const error = element('p');
  error.dataset.testid = 'recovery-error';
  error.setAttribute('role', 'alert');
  error.className = 'error';
  const button = element('button', words.submit);
  button.type = 'submit';
  button.className = 'primary';
  button.dataset.testid = 'recovery-submit';
  const actions = element('div');
  actions.className = 'actions';
  actions.append(button);
  panel.append(heading, hint, password.row, ...(confirm ? [confirm.row] : []), error, actions);
  document.body.replaceChildren(panel);
  password.input.focus();

  return new Promise<void>((resolve, reject) => {
    let busy = false;
    const close = () => {
      cancelOpen = null;
      panel.remove();
    };
    cancelOpen = () => {
      close();
      reject(new Error(CANCELLED));
    };
    const show = (message: string) => {
      error.textContent = message;
      password.input.setAttribute('aria-invalid', message ? 'true' : 'false');
    };
    panel.addEventListener('submit', (event) => {
      event.preventDefault();
      if (busy) return;
      const value = password.input.value;
      if (mode === 'set' && [...value].length < MIN_PASSWORD_LENGTH) return show(format(t.recoveryTooShort, { n: String(MIN_PASSWORD_LENGTH) }));
      if (confirm && confirm.input.value !== value) return show(t.recoveryMismatch);
      if (!value) return show(t.recoveryRequired);
      busy = true;
      button.disabled = true;
      show('');
      button.textContent = words.busy;
      // Argon2id blocks this page for a moment: let the busy state paint first.
      setTimeout(() => {
        submit(value).then(
          (problem) => {
            busy = false;
            button.disabled = false;
            button.textContent = words.submit;
            if (problem === null) {
              close();
              resolve();
              return;
            }
            show(problem);
            password.input.value = '';
            password.input.focus();
          },
          (failure: unknown) => {
            close();
            reject(failure instanceof Error ? failure : new Error(String(failure)));
          },
        );
      }, 30);
    });
  });
}
