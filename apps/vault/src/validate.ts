// The one place incoming requests are checked. The rules are latch-core's
// (`embedded::frame::parse_request`); this module is the single seam where the frame reaches
// them, so pointing it at the wasm export is a change here only.
import type { FrameRequest } from './messages';

export type Checked = { ok: true; request: FrameRequest } | { ok: false; id: string | null; type: string | null; message: string };

// TEMPORARY until @latch/wasm-vault exports latch-core's parser: only the envelope's shape is
// checked here (the server applies the §5 rules to every value it receives).
export function checkRequest(raw: unknown): Checked {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, id: null, type: null, message: 'payload: Invalid input' };
  }
  const { id, type, payload } = raw as Record<string, unknown>;
  const idText = typeof id === 'string' ? id : null;
  const typeText = typeof type === 'string' ? type : null;
  if (!idText) return { ok: false, id: null, type: typeText, message: `id: ${id === undefined ? 'Required' : 'Invalid input'}` };
  if (!typeText) return { ok: false, id: idText, type: null, message: `type: ${type === undefined ? 'Required' : 'Invalid input'}` };
  if (payload !== undefined && payload !== null && (typeof payload !== 'object' || Array.isArray(payload))) {
    return { ok: false, id: idText, type: typeText, message: 'payload: Invalid input' };
  }
  return { ok: true, request: { id: idText, type: typeText, payload: (payload ?? {}) as Record<string, unknown> } };
}
