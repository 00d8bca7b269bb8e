/** What every @latch/wasm function throws: `message` is the documented exact text, `code` is stable. */
export declare class LatchError extends Error {
  readonly name: 'LatchError';
  readonly code: string;
  constructor(message: string, code: string);
}
