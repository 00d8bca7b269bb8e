// Every crates/latch-core/vectors/*.json file against the built @latch/wasm in
// Node: the same cases latch-core's own tests run, through the JS boundary.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as wasm from '@latch/wasm';

const dir = new URL('../../latch-core/vectors/', import.meta.url);
const files = readdirSync(dir).filter((name) => name.endsWith('.json'));

await wasm.init();

it('finds the vector files', () => {
  expect(files.length).toBeGreaterThan(0);
});

for (const file of files) {
  const vectors = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
  describe(file, () => {
    for (const [name, cases] of Object.entries(vectors)) {
      it(`${name} (${cases.length} cases)`, () => {
        expect(typeof wasm[name], `@latch/wasm exports ${name}`).toBe('function');
        for (const { input, expected, error } of cases) {
          const call = () => wasm[name](...input);
          if (error !== undefined) {
            let thrown;
            try {
              call();
            } catch (e) {
              thrown = e;
            }
            expect(thrown, `${name}(${JSON.stringify(input)}) throws a LatchError`).toBeInstanceOf(wasm.LatchError);
            expect(thrown).toBeInstanceOf(Error);
            expect(thrown.message, `${name}(${JSON.stringify(input)})`).toBe(error);
            expect(typeof thrown.code, `${name}(${JSON.stringify(input)}) has a code`).toBe('string');
          } else {
            const got = call();
            expect(got === undefined ? null : got, `${name}(${JSON.stringify(input)})`).toEqual(expected);
          }
        }
      });
    }
  });
}
