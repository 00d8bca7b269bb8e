interface ImportMetaEnv {
  /** The Latch server when it does not serve this page itself (development with `vite`). */
  readonly VITE_LATCH_SERVER_URL?: string;
}

interface ImportMetaEnv {
  /** Which wagmi the build used (vite.config.ts): `wagmi v2` or `wagmi v3`. */
  readonly VITE_WAGMI_BUILD: string;
}
