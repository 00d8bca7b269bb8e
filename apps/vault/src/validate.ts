// The one place incoming requests are checked: latch-core's frame schemas
// (`embedded::frame::parse_request`) through @latch/wasm-vault. A good request comes back
// normalized; a refused one with `<field>: Required` or `<field>: Invalid input`.
import { init, parseFrameRequest } from '@latch/wasm-vault';
import type { FrameRequest } from './messages';

export type Checked =
  | { ok: true; request: FrameRequest }
  | { ok: false; id: string | null; type: string | null; message: string };

export async function checkRequest(raw: unknown): Promise<Checked> {
  // Only to address the _ERROR answer: nothing else is read from an unchecked request.
  const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const id = typeof fields.id === 'string' ? fields.id : null;
  const type = typeof fields.type === 'string' ? fields.type : null;
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch {
    text = undefined; // cycles, BigInt: not JSON
  }
  if (text === undefined) return { ok: false, id, type, message: 'payload: Invalid input' };
  await init();
  try {
    return { ok: true, request: parseFrameRequest(text) as FrameRequest };
  } catch (error) {
    return { ok: false, id, type, message: error instanceof Error ? error.message : 'payload: Invalid input' };
  }
}
