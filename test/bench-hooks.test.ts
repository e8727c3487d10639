/**
 * The benchmark's hooks (src/agent/bench-hooks.ts): served only with BENCH_HOOKS, only with the
 * development key; "evict" really resets the object (the next call meets a new instance over the
 * same storage) and never reports an eviction that did not happen; "usage" answers the last
 * call's D1 round trips and rows.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MemoryAgent } from "../src/agent/memory-agent";
import { requestCounter, USAGE_COUNTERS, type UsageEnv } from "../src/agent/usage-meter";
import { fetchWorker } from "./edge-helpers";
import { call, DEV_KEY, freshAgent, rememberAndWait, stubOf } from "./helpers";

const hook = (agentId: string, action: string, key: string | null = DEV_KEY): Request =>
  new Request(`http://localhost/__bench/agents/${agentId}/${action}`, {
    method: "POST",
    headers: key === null ? {} : { Authorization: `Bearer ${key}` },
  });

describe("the benchmark hooks", () => {
  it("are not served without BENCH_HOOKS: the path is one the API does not serve", async () => {
    const res = await call(`/__bench/agents/${freshAgent("hooks")}/evict`, { method: "POST" });
    expect(res.status).toBe(404);
  });

  it("with BENCH_HOOKS, refuse any key but the development key", async () => {
    const on: Env & UsageEnv = { ...env, BENCH_HOOKS: "1" };
    expect((await fetchWorker(hook(freshAgent("hooks"), "evict", "amk_wrong"), on)).status).toBe(401);
    expect((await fetchWorker(hook(freshAgent("hooks"), "usage", null), on)).status).toBe(401);
  });

  it("never report an eviction that did not happen (the object's own env has no BENCH_HOOKS)", async () => {
    const on: Env & UsageEnv = { ...env, BENCH_HOOKS: "1" };
    const res = await fetchWorker(hook(freshAgent("hooks"), "evict"), on);
    expect(res.status).toBe(500);
  });

  // The reset itself (DurableObjectState.abort) cannot run inside the test pool (it breaks the
  // pool's own output gate); the cold benchmark checks that every call after an eviction meets a
  // new instance of the object (bench/speed/cold-bench.ts).
  it("usage: answers the last call's round trips and rows, then starts afresh", async () => {
    const agentId = freshAgent("hooks");
    await rememberAndWait(agentId, [{ role: "user", content: "Orion ships on Monday. Alice leads the launch." }]);
    const identity = { tenantId: "dev", agentId };
    const hookedEnv: Env & UsageEnv = { ...env, BENCH_HOOKS: "1", BENCH_USAGE_COUNTERS: "1" };
    const { first, second, off } = await runInDurableObject(stubOf(agentId), async (_instance, ctx) => {
      const hooked = new MemoryAgent(ctx, hookedEnv);
      await hooked.ping(identity);
      return {
        first: await hooked.benchHook(identity, "usage"),
        second: await hooked.benchHook(identity, "usage"),
        off: await new MemoryAgent(ctx, env).benchHook(identity, "usage"),
      };
    });
    // The ping's one statement (SELECT 1).
    expect(first?.lastRequest).toEqual({
      name: "ping",
      counts: expect.objectContaining({
        [requestCounter("ping")]: 1,
        [USAGE_COUNTERS.d1RoundTrips]: 1,
        [USAGE_COUNTERS.d1SequentialRoundTrips]: 1,
      }),
    });
    expect(second).toEqual({ instance: first?.instance, sinceRead: {}, lastRequest: null });
    expect(off).toBeNull();
  });
});
