// @vitest-environment node
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SDK_VERSION } from './sdk.js';

it('reports the version in package.json', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(SDK_VERSION).toBe(manifest.version);
});
