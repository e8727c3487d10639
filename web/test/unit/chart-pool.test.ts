import { describe, expect, it } from "vitest";
import { chartGeometry } from "../../src/ui/chart";
import { addPoint, pointOf } from "../../src/ui/forgetting-panel";
import { mapPool } from "../../src/util/pool";

describe("forgetting chart", () => {
  it("scales each series to its own maximum over the cycles shown", () => {
    const g = chartGeometry(
      [
        { cycle: 0, held: 200, nodes: 10 },
        { cycle: 1, held: 100, nodes: 10 },
        { cycle: 2, held: 0, nodes: 5 },
      ],
      360,
      170,
    );
    expect(g.maxHeld).toBe(200);
    expect(g.maxNodes).toBe(10);
    // x from 44 to 320, y from 12 (max) to 144 (zero).
    expect(g.held).toBe("44.0,12.0 182.0,78.0 320.0,144.0");
    expect(g.nodes).toBe("44.0,12.0 182.0,12.0 320.0,78.0");
  });

  it("keeps one point per cycle, in order", () => {
    let points = addPoint([], { cycle: 3, held: 10, nodes: 2 });
    points = addPoint(points, { cycle: 1, held: 30, nodes: 3 });
    points = addPoint(points, { cycle: 3, held: 8, nodes: 2 });
    expect(points).toEqual([
      { cycle: 1, held: 30, nodes: 3 },
      { cycle: 3, held: 8, nodes: 2 },
    ]);
    const stats = {
      nodes: { total: 4, segments: 3, entities: 1 },
      links: { total: 5, dangling: 1 },
      focus: 1,
      queue: { queued: 0, running: 0, done: 3, failed: 0 },
      characters: { held: 99, remembered: 120 },
      counters: { cycles: 7 },
    };
    expect(pointOf(stats, 0)).toEqual({ cycle: 7, held: 99, nodes: 4 });
  });
});

describe("mapPool", () => {
  it("keeps at most `limit` calls in flight and returns results in item order", async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapPool([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });

  it("stops starting calls after a failure or a cancellation, and rethrows the failure", async () => {
    const started: number[] = [];
    await expect(
      mapPool([1, 2, 3, 4, 5], 1, async (n) => {
        started.push(n);
        if (n === 2) throw new Error("boom");
        return n;
      }),
    ).rejects.toThrow("boom");
    expect(started).toEqual([1, 2]);
    const seen: number[] = [];
    await mapPool(
      [1, 2, 3],
      1,
      async (n) => seen.push(n),
      () => seen.length >= 1,
    );
    expect(seen).toEqual([1]);
  });
});
