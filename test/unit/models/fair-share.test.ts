import { describe, expect, it } from "vitest";
import { FairShare } from "../../../src/models/rate/fair-share";

interface Grant {
  tenant: string;
  at: number;
}

/** Runs the scheduler on a simulated clock: requests arrive at their times; returns the permits in order and the refusals. */
function simulate(
  share: FairShare,
  arrivals: readonly { tenant: string; at: number; weight?: number; maxWaitMs?: number }[],
  untilMs: number,
): { grants: Grant[]; refused: Grant[] } {
  const grants: Grant[] = [];
  const refused: Grant[] = [];
  const queue = [...arrivals].sort((a, b) => a.at - b.at);
  let now = 0;
  let wake: number | undefined;
  while (now <= untilMs) {
    while (queue.length > 0 && (queue[0]?.at ?? Infinity) <= now) {
      const a = queue.shift()!;
      share.request(a.tenant, a.weight ?? 1, a.maxWaitMs ?? 3_600_000, now, (ok) =>
        (ok ? grants : refused).push({ tenant: a.tenant, at: now }),
      );
    }
    wake = share.pump(now);
    const nextArrival = queue[0]?.at;
    const next = Math.min(wake ?? Infinity, nextArrival ?? Infinity);
    if (next === Infinity) break;
    now = Math.max(now + 1e-6, next);
  }
  return { grants, refused };
}

function maxInAnyWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while ((times[j] ?? 0) <= (times[i] ?? 0) - windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe("FairShare (docs/design.md, “Fair share of the model budget”)", () => {
  it("paces permits at the account's rate and never grants more than the limit in any window", () => {
    const share = new FairShare({ permitsPerWindow: 60, windowMs: 60_000, burst: 5 });
    const arrivals = Array.from({ length: 300 }, (_, i) => ({ tenant: "a", at: 0 + i }));
    const { grants } = simulate(share, arrivals, 400_000);
    expect(grants.length).toBe(300);
    expect(
      maxInAnyWindow(
        grants.map((g) => g.at),
        60_000,
      ),
    ).toBeLessThanOrEqual(60);
    // After the burst, one per interval: 300 permits take about (300 - 5) seconds.
    expect(grants.at(-1)?.at).toBeGreaterThanOrEqual(294_000);
    expect(grants.at(-1)?.at).toBeLessThanOrEqual(300_000);
  });

  it("a tenant that arrives behind another's backlog goes at the next permit, not behind the backlog", () => {
    const share = new FairShare({ permitsPerWindow: 300, windowMs: 60_000, burst: 1 });
    const backlog = Array.from({ length: 1_000 }, () => ({ tenant: "bulk", at: 0 }));
    const trickle = Array.from({ length: 20 }, (_, i) => ({ tenant: "steady", at: 5_000 + i * 1_000 }));
    const { grants } = simulate(share, [...backlog, ...trickle], 300_000);
    const waits = trickle.map((t, i) => (grants.filter((g) => g.tenant === "steady")[i]?.at ?? Infinity) - t.at);
    // One interval is 200 ms: a request waits at most two (the permit in flight, then its own).
    expect(Math.max(...waits)).toBeLessThanOrEqual(2 * share.intervalMs + 1);
    expect(grants.filter((g) => g.tenant === "bulk").length).toBe(1_000);
  });

  it("tenants with work waiting share by weight", () => {
    const share = new FairShare({ permitsPerWindow: 600, windowMs: 60_000, burst: 1 });
    const arrivals = [
      ...Array.from({ length: 600 }, () => ({ tenant: "heavy", at: 0, weight: 2 })),
      ...Array.from({ length: 600 }, () => ({ tenant: "light", at: 0, weight: 1 })),
    ];
    const { grants } = simulate(share, arrivals, 60_000);
    const first = grants.slice(0, 300);
    const heavy = first.filter((g) => g.tenant === "heavy").length;
    expect(heavy).toBeGreaterThanOrEqual(198);
    expect(heavy).toBeLessThanOrEqual(202);
  });

  it("a tenant idle for a while banks no credit: it shares from when it returns", () => {
    const share = new FairShare({ permitsPerWindow: 600, windowMs: 60_000, burst: 1 });
    const arrivals = [
      ...Array.from({ length: 10 }, () => ({ tenant: "late", at: 0 })),
      ...Array.from({ length: 2_000 }, () => ({ tenant: "bulk", at: 0 })),
      ...Array.from({ length: 200 }, () => ({ tenant: "late", at: 60_000 })),
    ];
    const { grants } = simulate(share, arrivals, 120_000);
    const after = grants.filter((g) => g.at >= 60_000).slice(0, 100);
    const late = after.filter((g) => g.tenant === "late").length;
    expect(late).toBeGreaterThanOrEqual(48);
    expect(late).toBeLessThanOrEqual(52);
  });

  it("a request refuses once its patience runs out; one with none goes only when a permit is free at once", () => {
    const share = new FairShare({ permitsPerWindow: 2, windowMs: 60_000, burst: 2 });
    const { grants, refused } = simulate(
      share,
      [
        { tenant: "a", at: 0 },
        { tenant: "a", at: 0 },
        { tenant: "b", at: 1, maxWaitMs: 0 },
        { tenant: "c", at: 1, maxWaitMs: 500 },
      ],
      5_000,
    );
    expect(grants.map((g) => g.tenant)).toEqual(["a", "a"]);
    expect(refused).toEqual([
      { tenant: "b", at: 1 },
      { tenant: "c", at: 501 },
    ]);
  });
});
