interface ImportMetaEnv {
  /** The Latch server when it does not serve this page itself (development with `vite`). */
  readonly VITE_LATCH_SERVER_URL?: string;
}
