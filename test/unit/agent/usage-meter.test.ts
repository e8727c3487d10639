import { describe, expect, it } from "vitest";
import { requestCounter, USAGE_COUNTERS, UsageMeter } from "../../../src/agent/usage-meter";

/** A meter on a clock the test moves, recording what it flushes. */
function meter() {
  const clock = { now: 1_000 };
  const flushed: Record<string, number>[] = [];
  const deferred: (() => void)[] = [];
  const usage = new UsageMeter(
    (deltas) => flushed.push(deltas),
    () => clock.now,
    (run) => deferred.push(run),
  );
  /** The deferred flushes run (the object's next turn). */
  const turn = (): void => {
    for (const run of deferred.splice(0)) run();
  };
  return { usage, clock, flushed, turn };
}

/** A promise the test settles by hand. */
function deferred() {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("the usage meter", () => {
  it("counts each request by name and times it as active", async () => {
    const { usage, clock, flushed, turn } = meter();
    await usage.request("submit", async () => {
      clock.now += 40;
    });
    // Written after the answer, not before it.
    expect(flushed).toEqual([]);
    turn();
    expect(flushed).toEqual([{ [requestCounter("submit")]: 1, [USAGE_COUNTERS.activeMs]: 40 }]);
  });

  it("counts overlapping requests and drains once in the active time, and flushes only when idle", async () => {
    const { usage, clock, flushed, turn } = meter();
    const drain = deferred();
    const slow = deferred();
    const first = usage.request("submit", () => slow.promise);
    clock.now += 10;
    usage.track(drain.promise);
    clock.now += 10;
    usage.add({ [USAGE_COUNTERS.d1RowsRead]: 7 });
    slow.resolve();
    await first;
    turn();
    // The drain still runs: nothing flushed yet, but the stats see the counts and the time so far.
    expect(flushed).toEqual([]);
    expect(usage.withUnflushed({ [USAGE_COUNTERS.d1RowsRead]: 3 })).toEqual({
      [USAGE_COUNTERS.d1RowsRead]: 10,
      [requestCounter("submit")]: 1,
      [USAGE_COUNTERS.activeMs]: 20,
    });
    clock.now += 30;
    drain.resolve();
    await drain.promise;
    await Promise.resolve();
    turn();
    expect(flushed).toEqual([{ [requestCounter("submit")]: 1, [USAGE_COUNTERS.d1RowsRead]: 7, [USAGE_COUNTERS.activeMs]: 50 }]);
    // Idle time is not active time; a request that starts before the deferred flush runs holds it.
    clock.now += 1_000;
    await usage.request("ask", async () => {
      clock.now += 5;
    });
    const again = deferred();
    const pending = usage.request("ask", () => again.promise);
    turn();
    expect(flushed).toHaveLength(1);
    again.resolve();
    await pending;
    turn();
    expect(flushed[1]).toEqual({ [requestCounter("ask")]: 2, [USAGE_COUNTERS.activeMs]: 5 });
  });

  it("ends a request's active time when it fails, and a failed drain's too", async () => {
    const { usage, clock, flushed, turn } = meter();
    await expect(
      usage.request("ask", async () => {
        clock.now += 8;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    turn();
    let fail = (_: Error): void => undefined;
    const failing = new Promise<void>((_, reject) => (fail = reject));
    usage.track(failing);
    clock.now += 12;
    fail(new Error("drain failed"));
    await failing.catch(() => undefined);
    await Promise.resolve();
    turn();
    expect(flushed).toEqual([{ [requestCounter("ask")]: 1, [USAGE_COUNTERS.activeMs]: 8 }, { [USAGE_COUNTERS.activeMs]: 12 }]);
  });
});
