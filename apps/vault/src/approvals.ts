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

export function createApprovalQueue(limit = MAX_PENDING_APPROVALS): ApprovalQueue {
  const held = new Set<object>();
  const waiting: Waiting[] = [];
  let shown: { entry: Waiting; panel: Panel } | null = null;
  // Bumped by rejectAll: a ticket taken before it is answered false without a panel.
  let epoch = 0;

  const finish = (entry: Waiting, approved: boolean) => {
    entry.visible(false);
    entry.settle(approved);
  };

  function next(): void {
    if (shown) return;
    const entry = waiting.shift();
    if (!entry) return;
    entry.visible(true);
    const current = { entry, panel: entry.open() };
    shown = current;
    void current.panel.decision.then((approved) => {
      // Already finished by rejectAll.
      if (shown !== current) return;
      shown = null;
      finish(entry, approved);
      next();
    });
  }

  return {
    get size() {
      return held.size;
    },
    reserve() {
      if (held.size >= limit) throw new RpcError(TOO_MANY_PENDING, TOO_MANY_PENDING_CODE);
      const place = {};
      held.add(place);
      const taken = epoch;
      return {
        ask(open, visible) {
          if (taken !== epoch || !held.has(place)) return Promise.resolve(false);
          return new Promise<boolean>((resolve) => {
            waiting.push({
              open,
              visible,
              settle: (approved) => {
                held.delete(place);
                resolve(approved);
              },
            });
            next();
          });
        },
        release: () => void held.delete(place),
      };
    },
    rejectAll() {
      epoch += 1;
      const current = shown;
      shown = null;
      const queued = waiting.splice(0);
      if (current) {
        current.panel.cancel();
        finish(current.entry, false);
      }
      for (const entry of queued) entry.settle(false);
    },
  };
}
