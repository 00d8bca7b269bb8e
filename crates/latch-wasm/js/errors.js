// The error every @latch/wasm function throws: a real Error subclass, so
// callers can test `instanceof LatchError` and switch on its stable `code`;
// `message` is the documented exact text.
export class LatchError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'LatchError';
    this.code = code;
  }
}
