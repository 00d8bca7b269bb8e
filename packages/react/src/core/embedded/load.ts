// The embedded wallet's entry in the first-load bundle: only its id and a loader. Everything
// else (the frame client, the login store, the views) is a chunk fetched when the Connect view
// shows the e-mail field or a reload restores an embedded session.
import type { FrameHost } from './frameClient.js';
import type { EmbeddedDeps, EmbeddedWallet } from './wallet.js';

/** The embedded wallet's connector id (behaviour 2.1 `ID_AUTH`); wallet.ts uses the same. */
export const EMBEDDED_CONNECTOR_ID = 'ID_AUTH';

export interface EmbeddedWalletOptions {
  /** The wallet frame's page on its own origin, e.g. `https://vault.example.com/` (latch's `embedded.vault_origin`). */
  vaultUrl: string;
  /** Where the frame is mounted; defaults to a hidden iframe in `document.body` (tests pass a stand-in). */
  frameHost?: (src: string) => FrameHost;
}

export interface EmbeddedWalletLoader {
  /** The login store, made once on first use. */
  load(): Promise<EmbeddedWallet>;
  /** The login store once loaded (a view shown later renders it at once, without a blank frame). */
  current(): EmbeddedWallet | undefined;
}

export function embeddedWalletLoader(deps: () => EmbeddedDeps): EmbeddedWalletLoader {
  let loading: Promise<EmbeddedWallet> | undefined;
  let loaded: EmbeddedWallet | undefined;
  return {
    load: () =>
      (loading ??= import('./wallet.js').then((module) => (loaded = module.createEmbeddedWallet(deps())))),
    current: () => loaded,
  };
}
