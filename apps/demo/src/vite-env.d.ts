interface ImportMetaEnv {
  /** The Latch server when it does not serve this page itself (development with `vite`). */
  readonly VITE_LATCH_SERVER_URL?: string;
  /** The wallet frame's page when it is not on the server's port + 2. */
  readonly VITE_LATCH_VAULT_URL?: string;
}
