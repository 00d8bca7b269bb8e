import { useLatch, useLatchTheme, type Latch } from '@latch/react';

/** The views a connected account reaches from the modal (behaviour 5), opened directly from the page. */
const ACCOUNT_ACTIONS = [
  ['Account', 'Account (tokens, NFTs, activity)'],
  ['Networks', 'Networks'],
  ['Send', 'Send'],
  ['Receive', 'Receive'],
  ['Swap', 'Swap'],
  ['Onramp', 'Buy'],
  ['RegisterAccountName', 'Register a name'],
] as const;

/** A link that opens a second tab, saying so to every visitor (screen readers included). */
function NewTabLink({ href, testId, children }: { href: string; testId: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener" data-testid={testId}>
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/**
 * What the demo can show without a browser wallet, and each feature with a way to try it. Its own
 * chunk, loaded after the first render: none of it is needed before the first click.
 */
export function Showcase({ latch }: { latch: Latch }) {
  const { status } = useLatch();
  const { themeMode, setThemeMode } = useLatchTheme();
  const connected = status === 'connected';
  return (
    <>
      <section aria-labelledby="no-wallet-heading" data-testid="demo-no-wallet">
        <h2 id="no-wallet-heading">No browser wallet? Two ways in</h2>
        <ol>
          <li>
            <strong>The dev wallet, in a second tab.</strong> Open the{' '}
            <NewTabLink href="/devwallet/" testId="demo-link-devwallet">
              dev wallet
            </NewTabLink>
            . Here, choose <em>Connect Wallet</em>, then <em>WalletConnect</em>, and copy the pairing link (
            <code>wc:…</code>). Paste it into the dev wallet's <em>WalletConnect URI</em> field, press <em>Pair</em>{' '}
            and approve: it signs with an anvil account of the Latch Devnet, over the Latch server's relay.
          </li>
          <li>
            <strong>The e-mail wallet.</strong> Type any e-mail address in <em>Connect Wallet</em>. Under{' '}
            <code>make demo</code> (no mail server) the six-digit code lands in the{' '}
            <NewTabLink href="/v1/embedded/dev/outbox" testId="demo-link-outbox">
              dev outbox
            </NewTabLink>
            ; the wallet is made in its own frame, and a reload reconnects without a new code.
          </li>
        </ol>
        <p>
          What the modal reported (opens, connections, sign-ins) shows on the{' '}
          <NewTabLink href="/dashboard" testId="demo-link-dashboard">
            dashboard
          </NewTabLink>{' '}
          (the token is in <code>latch serve --dev</code>'s output).
        </p>
      </section>

      <section aria-labelledby="features-heading" data-testid="demo-features">
        <h2 id="features-heading">Features</h2>
        <h3 id="actions-heading">Account actions</h3>
        {connected ? (
          <ul className="actions" aria-labelledby="actions-heading">
            {ACCOUNT_ACTIONS.map(([view, label]) => (
              <li key={view}>
                <button type="button" data-testid={`demo-action-${view}`} onClick={() => latch.modal.open({ view })}>
                  {label}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p data-testid="demo-actions-hint">
            Connect a wallet to try them: account, networks, send, receive, swap, buy, and registering a name.
          </p>
        )}
        <h3>Sign-in modes</h3>
        <p>
          Sign-in with the wallet (EIP-4361) is off by default; the <a href="?signIn=optional">optional</a> and{' '}
          <a href="?signIn=required">required</a> modes reload the page with it on, and the sign-in panel below
          shows the session.
        </p>
        <h3 id="theme-heading">Theme</h3>
        <div role="radiogroup" aria-labelledby="theme-heading" className="theme-picker" data-testid="demo-theme">
          {(['dark', 'light'] as const).map((mode) => (
            <label key={mode}>
              <input
                type="radio"
                name="latch-theme"
                value={mode}
                checked={themeMode === mode}
                onChange={() => setThemeMode(mode)}
                data-testid={`demo-theme-${mode}`}
              />{' '}
              {mode === 'dark' ? 'Dark' : 'Light'}
            </label>
          ))}
        </div>
        <h3>Languages</h3>
        <p>The modal speaks ten languages: pick one with <em>Language</em> above; it follows the browser's by default.</p>
      </section>
    </>
  );
}
