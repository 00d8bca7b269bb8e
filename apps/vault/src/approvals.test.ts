import { describe, expect, it } from 'vitest';
import { createApprovalQueue, MAX_PENDING_APPROVALS, type Panel, TOO_MANY_PENDING, TOO_MANY_PENDING_CODE } from './approvals';

/** A panel the test decides; records whether it was cancelled. */
function panel() {
  let decide!: (approved: boolean) => void;
  const decision = new Promise<boolean>((resolve) => (decide = resolve));
  const state = { cancelled: false };
  const shown: Panel = {
    decision,
    cancel() {
      state.cancelled = true;
      decide(false);
    },
  };
  return { shown, decide, state };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the approval queue', () => {
  it('shows one panel at a time, in order, and tells the host when the frame shows', async () => {
    const queue = createApprovalQueue();
    const events: string[] = [];
    const first = panel();
    const second = panel();
    const a = queue.reserve().ask(() => (events.push('open a'), first.shown), (open) => events.push(`visible ${open}`));
    const b = queue.reserve().ask(() => (events.push('open b'), second.shown), (open) => events.push(`visible ${open}`));
    expect(events).toEqual(['visible true', 'open a']);
    first.decide(true);
    await expect(a).resolves.toBe(true);
    await tick();
    expect(events).toEqual(['visible true', 'open a', 'visible false', 'visible true', 'open b']);
    second.decide(false);
    await expect(b).resolves.toBe(false);
    expect(queue.size).toBe(0);
  });

  it('shows panels in the order requests arrived, not the order their reads finished', async () => {
    const queue = createApprovalQueue();
    const events: string[] = [];
    const first = panel();
    const second = panel();
    const early = queue.reserve();
    const late = queue.reserve();
    // The later request's reads finish first: it waits for the earlier one.
    const b = late.ask(() => (events.push('open b'), second.shown), () => undefined);
    await tick();
    expect(events).toEqual([]);
    const a = early.ask(() => (events.push('open a'), first.shown), () => undefined);
    expect(events).toEqual(['open a']);
    first.decide(true);
    await expect(a).resolves.toBe(true);
    await tick();
    expect(events).toEqual(['open a', 'open b']);
    second.decide(true);
    await expect(b).resolves.toBe(true);
    expect(queue.size).toBe(0);
  });

  it('a request that ends without asking lets the next one show', async () => {
    const queue = createApprovalQueue();
    const events: string[] = [];
    const failed = queue.reserve();
    const b = queue.reserve().ask(() => (events.push('open b'), panel().shown), () => undefined);
    expect(events).toEqual([]);
    failed.release();
    expect(events).toEqual(['open b']);
    expect(queue.size).toBe(1);
    queue.rejectAll();
    await expect(b).resolves.toBe(false);
    expect(queue.size).toBe(0);
  });

  it('rejectAll rejects the shown panel, the waiting ones and those still reading, at once', async () => {
    const queue = createApprovalQueue();
    const events: string[] = [];
    const shown = panel();
    const neverShown = panel();
    const a = queue.reserve().ask(() => shown.shown, (open) => events.push(`visible ${open}`));
    const b = queue.reserve().ask(() => (events.push('open b'), neverShown.shown), () => undefined);
    // Taken (its reads under way) but not yet asking.
    const reading = queue.reserve();
    queue.rejectAll();
    // The host hears the panel close before anything else happens.
    expect(events).toEqual(['visible true', 'visible false']);
    expect(shown.state.cancelled).toBe(true);
    await expect(a).resolves.toBe(false);
    await expect(b).resolves.toBe(false);
    await expect(reading.ask(() => panel().shown, () => undefined)).resolves.toBe(false);
    reading.release();
    await tick();
    expect(events).not.toContain('open b');
    expect(queue.size).toBe(0);
    // The queue goes on working after a rejection.
    const later = panel();
    const c = queue.reserve().ask(() => later.shown, () => undefined);
    later.decide(true);
    await expect(c).resolves.toBe(true);
  });

  it(`refuses a request beyond ${MAX_PENDING_APPROVALS} pending at once, and takes one again after a decision`, async () => {
    const queue = createApprovalQueue();
    const panels = Array.from({ length: MAX_PENDING_APPROVALS }, () => panel());
    const answers = panels.map((item) => queue.reserve().ask(() => item.shown, () => undefined));
    expect(queue.size).toBe(MAX_PENDING_APPROVALS);
    expect(() => queue.reserve()).toThrow(TOO_MANY_PENDING);
    try {
      queue.reserve();
    } catch (error) {
      expect(error).toMatchObject({ message: TOO_MANY_PENDING, code: TOO_MANY_PENDING_CODE });
    }
    panels[0]!.decide(true);
    await expect(answers[0]).resolves.toBe(true);
    expect(queue.size).toBe(MAX_PENDING_APPROVALS - 1);
    const ticket = queue.reserve();
    ticket.release();
    ticket.release();
    expect(queue.size).toBe(MAX_PENDING_APPROVALS - 1);
    queue.rejectAll();
    await expect(Promise.all(answers.slice(1))).resolves.toEqual(Array(MAX_PENDING_APPROVALS - 1).fill(false));
    expect(queue.size).toBe(0);
  });
});
