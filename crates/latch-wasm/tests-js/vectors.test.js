// Every crates/latch-core/vectors/*.json file against the built @latch/wasm in
// Node: the same cases latch-core's own tests run, through the JS boundary, each
// function taken from whichever of the package's two modules exports it.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from '@latch/wasm';
import * as extra from '@latch/wasm/extra';

const dir = new URL('../../latch-core/vectors/', import.meta.url);
const files = readdirSync(dir).filter((name) => name.endsWith('.json'));

await Promise.all([core.init(), extra.init()]);
const wasm = { ...extra, ...core };

it('exports each function from one module only', () => {
  const both = Object.keys(core).filter((name) => typeof core[name] === 'function' && name in extra);
  // init and initSync load each module; the rest is one function, in one module.
  expect(both.sort()).toEqual(['LatchError', 'init', 'initSync']);
  // One class: what either module throws is `instanceof` the same LatchError.
  expect(extra.LatchError).toBe(core.LatchError);
});

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
            // Byte outputs (a transaction's wire bytes) are JSON arrays in the vector files.
            const value = got instanceof Uint8Array ? Array.from(got) : got;
            expect(value === undefined ? null : value, `${name}(${JSON.stringify(input)})`).toEqual(expected);
          }
        }
      });
    }
  });
}
