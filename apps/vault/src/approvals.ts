// The frame's approval queue (behaviour 5.19): one panel at a time, the others wait their turn.
// Kept apart from rpc.ts (no wasm, no DOM) so its rules are unit-tested on their own.

/**
 * At most this many not-safe requests wait at once (the one shown included). A page that floods
 * the frame gets an error at once instead of an endless line of panels the user must click
 * through; 8 is far above what a dapp asks at once (a sign-in, then a send).
 */
export const MAX_PENDING_APPROVALS = 8;
/** EIP-1474's "Limit exceeded", with the reason. */
export const TOO_MANY_PENDING = 'Too many pending requests';
export const TOO_MANY_PENDING_CODE = -32005;

/** An error the host gets with its EIP-1193 code (4001 rejected, 4200 not allowed, RPC errors). */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** What showApproval gives back: the user's decision, and a way to close the panel as rejected. */
export interface Panel {
  decision: Promise<boolean>;
  cancel(): void;
}

/** One not-safe request's place in the queue, taken when it arrives (before its reads). */
export interface Ticket {
  /**
   * Waits for its turn, shows the panel `open` draws and resolves with the decision; false at
   * once if the queue was rejected since the ticket was taken.
   */
  ask(open: () => Panel, visible: (open: boolean) => void): Promise<boolean>;
  /** Gives the place back (idempotent): the request ended without, or after, asking. */
  release(): void;
}

export interface ApprovalQueue {
  /** Takes a place, or throws `TOO_MANY_PENDING` when `limit` requests already wait. */
  reserve(): Ticket;
  /**
   * Rejects every pending request: the shown panel closes (its `visible(false)` at once), the
   * waiting ones never show, and tickets still reading before their `ask` get false.
   */
  rejectAll(): void;
  /** Requests holding a place. */
  readonly size: number;
}

interface Waiting {
  open: () => Panel;
  visible: (open: boolean) => void;
  settle: (approved: boolean) => void;
}

/** A held place: `waiting` once its request asks. Panels show in the order places were taken. */
interface Place {
  epoch: number;
  waiting?: Waiting;
}

export function createApprovalQueue(limit = MAX_PENDING_APPROVALS): ApprovalQueue {
  // Arrival order: a request whose reads finish early still waits behind one that came first.
  const places: Place[] = [];
  let shown: { place: Place; panel: Panel } | null = null;
  // Bumped by rejectAll: a ticket taken before it is answered false without a panel.
  let epoch = 0;

  const drop = (place: Place) => {
    const index = places.indexOf(place);
    if (index >= 0) places.splice(index, 1);
  };

  const finish = (place: Place, approved: boolean) => {
    const entry = place.waiting!;
    drop(place);
    entry.visible(false);
    entry.settle(approved);
  };

  function next(): void {
    if (shown) return;
    const place = places[0];
    // The first place's request is still reading (or there is none): the others wait for it.
    if (!place?.waiting) return;
    place.waiting.visible(true);
    const current = { place, panel: place.waiting.open() };
    shown = current;
    void current.panel.decision.then((approved) => {
      // Already finished by rejectAll.
      if (shown !== current) return;
      shown = null;
      finish(place, approved);
      next();
    });
  }

  return {
    get size() {
      return places.length;
    },
    reserve() {
      if (places.length >= limit) throw new RpcError(TOO_MANY_PENDING, TOO_MANY_PENDING_CODE);
      const place: Place = { epoch };
      places.push(place);
      return {
        ask(open, visible) {
          if (place.epoch !== epoch || !places.includes(place)) {
            drop(place);
            next();
            return Promise.resolve(false);
          }
          return new Promise<boolean>((resolve) => {
            place.waiting = { open, visible, settle: resolve };
            next();
          });
        },
        release() {
          if (shown?.place === place || !places.includes(place)) return;
          drop(place);
          next();
        },
      };
    },
    rejectAll() {
      epoch += 1;
      const current = shown;
      shown = null;
      if (current) {
        current.panel.cancel();
        finish(current.place, false);
      }
      // The waiting ones never show; those still reading keep their place until they ask or
      // release (and get false), so nothing taken later jumps ahead of them.
      for (const place of places.filter((item) => item.waiting)) {
        drop(place);
        place.waiting!.settle(false);
      }
    },
  };
}
