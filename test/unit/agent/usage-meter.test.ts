import { describe, expect, it } from "vitest";
import {
  benchD1DelayMs,
  d1Counters,
  d1RowsWrittenCounter,
  requestCounter,
  USAGE_COUNTERS,
  UsageMeter,
} from "../../../src/agent/usage-meter";
import { statementKind } from "../../../src/storage/metered-d1";

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

  it("reports the last request's counts as they stood when it ended, then starts afresh when read", async () => {
    const { usage } = meter();
    usage.add({ [USAGE_COUNTERS.d1RoundTrips]: 1 });
    await usage.request("ask", async () => {
      usage.add(d1Counters({ rowsRead: 30, rowsWritten: 0, unmetered: 0, roundTrips: 1, sequentialRoundTrips: 1, kind: "select" }));
    });
    // Counted after the request ended: in what was counted since, not in the request's figures.
    usage.add({ [USAGE_COUNTERS.d1RoundTrips]: 5 });
    const read = usage.readRequests();
    expect(read.lastRequest).toEqual({
      name: "ask",
      counts: {
        [USAGE_COUNTERS.d1RoundTrips]: 2,
        [USAGE_COUNTERS.d1SequentialRoundTrips]: 1,
        [USAGE_COUNTERS.d1RowsRead]: 30,
        [`${USAGE_COUNTERS.d1RowsRead}:select`]: 30,
        [requestCounter("ask")]: 1,
      },
    });
    expect(read.sinceRead[USAGE_COUNTERS.d1RoundTrips]).toBe(7);
    expect(usage.readRequests()).toEqual({ instance: usage.instance, sinceRead: {}, lastRequest: null });
  });

  it("counts D1 rows written per kind of statement beside the totals", () => {
    expect(d1Counters({ rowsRead: 2, rowsWritten: 8, unmetered: 0, kind: "insert links" })).toMatchObject({
      [USAGE_COUNTERS.d1RowsWritten]: 8,
      [d1RowsWrittenCounter("insert links")]: 8,
    });
  });

  it("takes a simulated D1 round trip only from a positive number", () => {
    const env = (v?: string) => ({ DB: {} as D1Database, ...(v === undefined ? {} : { BENCH_D1_RTT_MS: v }) });
    expect(benchD1DelayMs(env())).toBe(0);
    expect(benchD1DelayMs(env("50"))).toBe(50);
    expect(benchD1DelayMs(env("-5"))).toBe(0);
    expect(benchD1DelayMs(env("x"))).toBe(0);
  });
});

describe("a D1 statement's kind (for the rows-written breakdown)", () => {
  it.each([
    ["INSERT INTO links (agent, source) SELECT 1 FROM json_each(?) WHERE true ON CONFLICT DO NOTHING", "insert links"],
    [
      "INSERT INTO links (agent) SELECT 1 FROM json_each(?) ON CONFLICT (agent, source, target, relation) DO UPDATE SET level = excluded.level",
      "upsert links",
    ],
    ["INSERT OR REPLACE INTO nodes_fts (rowid, terms) SELECT r, t FROM x", "replace nodes_fts"],
    [
      'update "nodes" set "released_clock" = ?, "released_epoch" = ? where ("nodes"."agent" = ? and "nodes"."id" IN (select value from json_each(?)))',
      "update nodes.released_clock",
    ],
    ["WITH u AS MATERIALIZED (SELECT 1) UPDATE nodes SET content = u.content FROM u WHERE nodes.agent = ?", "update nodes.content"],
    ["UPDATE links SET\n level = max(1, 2), epoch = 3 WHERE agent = ?", "update links.level"],
    ["DELETE FROM links WHERE agent = ? AND (source, target, relation) IN (SELECT 1)", "delete links by key"],
    ["DELETE FROM links WHERE agent = ? AND source IN (SELECT value FROM json_each(?))", "delete links by source"],
    ['delete from "nodes" where ("nodes"."agent" = ? and "nodes"."id" IN (select value from json_each(?)))', "delete nodes by id"],
    ["DELETE FROM nodes_fts WHERE rowid BETWEEN ? AND ? AND rowid IN (SELECT ? + value FROM json_each(?))", "delete nodes_fts by id"],
    ["DELETE FROM links WHERE agent = ?", "delete links all of the agent"],
    ["SELECT count(*) AS n FROM links WHERE agent = ?", "select"],
    [
      "INSERT INTO link_blocks (agent, spage, tpage, body) SELECT 1 FROM json_each(?) WHERE true ON CONFLICT (agent, spage, tpage) DO UPDATE SET body = json_patch(excluded.body, link_blocks.body)",
      "upsert link_blocks",
    ],
    ["UPDATE link_blocks SET body = json_patch(body, ?) WHERE agent = ?", "update link_blocks.body"],
  ])("%s → %s", (sql, kind) => {
    expect(statementKind(sql)).toBe(kind);
  });
});
