// The shared vectors (crates/latch-core/tests/vectors.json) against the built
// @latch/wasm in plain Node: the same answers as latch-core's own test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as wasm from '@latch/wasm';

const vectors = JSON.parse(readFileSync(new URL('../../latch-core/tests/vectors.json', import.meta.url), 'utf8'));
await wasm.init();

for (const [name, cases] of Object.entries(vectors)) {
  if (name.startsWith('_')) continue;
  test(name, () => {
    assert.equal(typeof wasm[name], 'function', `@latch/wasm exports ${name}`);
    for (const { input, expected, error } of cases) {
      const args = Array.isArray(input) ? input : [input];
      if (error) {
        assert.throws(() => wasm[name](...args), (e) => e instanceof Error && e.message === error && typeof e.code === 'string', `${name}(${JSON.stringify(input)})`);
      } else {
        const got = wasm[name](...args);
        assert.deepEqual(got === undefined ? null : got, expected, `${name}(${JSON.stringify(input)})`);
      }
    }
  });
}
