/**
 * What the Latch server's logs and analytics record for each call (behaviour 6.1 `st`, `sv`). The
 * version is the package's own; `sdk.test.ts` fails when it and package.json disagree.
 */
export const SDK_TYPE = 'latch-react';
export const SDK_VERSION = '0.1.0';
