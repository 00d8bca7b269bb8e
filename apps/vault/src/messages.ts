// The frame's side of the host ↔ frame protocol (ARCHITECTURE.md "The wallet frame").
// The host's first message, posted to the frame's pinned origin with a MessageChannel port.
export const HANDSHAKE = 'LATCH_FRAME_HANDSHAKE';
// What /social/callback posts to the frame (same origin only) once a social login is finished.
export const SOCIAL_TOKEN = 'LATCH_FRAME_SOCIAL_TOKEN';

/** A checked request (latch-core's `embedded::frame::FrameRequest`). */
export interface FrameRequest {
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

/** What the frame posts on its port: answers (`<type>_SUCCESS` / `<type>_ERROR`) and events. */
export interface FrameMessage {
  type: string;
  id?: string;
  payload?: unknown;
}

/** The behaviour 5.15 default frame message. */
export const DEFAULT_ERROR = 'An error occurred';
