/**
 * Vectorize at scale (docs/deploy.md, "Limits"), against a fake that enforces the documented limits
 * scaled down (test/fakes/fake-vectorize.ts): writes that queries see only once the index has
 * processed them (the buffer holds them until the index says so), an index that fills up (a typed
 * error, the stats, the deep health check, and the next index for new agents), and the cron that
 * closes an index past the fill ratio. Agents here run on AgentState built with a configuration
 * that names fake indexes; their D1 side is the real local one.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AgentState } from "../src/agent/agent-state";
import { deepHealth } from "../src/service/health-check";
import { measureStorage } from "../src/service/storage-status";
import { AGENT_TASK_HOOKS, enqueueTask } from "../src/agent/agent-tasks";
import { buildStats } from "../src/operations/get-stats/read";
import { AgentRegistry, RegistryFullError } from "../src/storage/agent-registry";
import { RecentVectors } from "../src/vectors/recent-vectors";
import { VectorIndexFullError } from "../src/vectors/types";
import { DESCRIBE_INTERVAL_MS, VectorizeVectorIndex } from "../src/vectors/vectorize-index";
import { freshAgent, stubOf } from "./helpers";
import { ownRunner } from "./agent-access";
import { FakeVectorize } from "./fakes/fake-vectorize";

/** The local embedder's dimensions (the agents here embed with it). */
const DIMS = 256;

/** The test's configuration: Vectorize with the given fake indexes (in fill order) of `capacity` vectors. */
function vectorizeEnv(indexes: Record<string, FakeVectorize>, capacity: number) {
  return {
    ...env,
    VECTOR_PROVIDER: "vectorize",
    VECTORIZE_INDEXES: Object.keys(indexes).join(","),
    VECTORIZE_INDEX_CAPACITY: String(capacity),
    ...indexes,
  };
}

const clock = { now: () => Date.now() };
const fake = (capacity: number) => new FakeVectorize({ capacity, dimensions: DIMS, clock });

/** A unit vector pointing mostly along dimension `i`. */
function vector(i: number): Float32Array {
  const v = new Float32Array(DIMS).fill(0.01);
  v[i % DIMS] = 1;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Runs `body` in a fresh agent's object with an AgentState of the given configuration. */
async function withAgent<T>(
  config: ReturnType<typeof vectorizeEnv>,
  body: (state: AgentState, ctx: DurableObjectState) => Promise<T>,
): Promise<T> {
  const agentId = freshAgent("vz");
  return runInDurableObject(stubOf(agentId), async (_instance, ctx) => {
    await ctx.storage.deleteAlarm();
    const state = new AgentState(ctx.storage, config, AGENT_TASK_HOOKS);
    state.bind({ tenantId: "dev", agentId });
    return body(state, ctx);
  });
}

describe("Vectorize's asynchronous writes", () => {
  it("are served from the buffer until the index reports them processed, then from the index", async () => {
    await runInDurableObject(stubOf(freshAgent("lag")), async (_instance, ctx) => {
      const time = { now: 1_000_000 };
      const index = fake(100);
      const recent = new RecentVectors(ctx.storage.sql, DIMS);
      const adapter = new VectorizeVectorIndex({
        binding: index,
        index: "VEC",
        capacity: 100,
        namespace: "agent-9",
        idPrefix: "9:",
        dimensions: DIMS,
        recent,
        now: () => time.now,
      });
      await adapter.upsert([1, 2, 3].map((nodeId) => ({ nodeId, kind: "segment" as const, vector: vector(nodeId) })));
      expect(index.pendingMutations).toBe(1);
      const found = async () => (await adapter.query({ vector: vector(2), topK: 3 })).map((h) => h.nodeId);
      // Not processed: the index itself finds nothing, the buffer everything.
      const early = await found();
      expect(early[0]).toBe(2);
      expect([...early].sort()).toEqual([1, 2, 3]);
      expect(index.holds("9:2")).toBe(false);
      time.now += DESCRIBE_INTERVAL_MS;
      await found();
      expect(recent.count()).toBe(3);
      // Processed: the next look at the index releases the buffer, and the index answers alone.
      index.process();
      time.now += DESCRIBE_INTERVAL_MS;
      await found();
      expect(recent.count()).toBe(0);
      expect((await found())[0]).toBe(2);
      expect(index.holds("9:2")).toBe(true);
      // A replaced vector (a compressed node) is scored by its new value while the index holds the old.
      await adapter.upsert([{ nodeId: 2, kind: "segment", vector: vector(7) }]);
      const hits = await adapter.query({ vector: vector(7), topK: 3 });
      expect(hits[0]).toMatchObject({ nodeId: 2 });
      expect(hits[0]?.score).toBeGreaterThan(0.99);
    });
  });
});

describe("a full Vectorize index", () => {
  it("surfaces as a typed error, in the stats and the deep health check, and sends new agents to the next index", async () => {
    const indexes = { VEC_A: fake(40), VEC_B: fake(40) };
    const config = vectorizeEnv(indexes, 40);
    const first = await withAgent(config, async (state) => {
      const repos = await state.repos();
      const index = state.vectors();
      if (!index) throw new Error("no vector index");
      await index.upsert(Array.from({ length: 30 }, (_, i) => ({ nodeId: i + 1, kind: "segment" as const, vector: vector(i) })));
      indexes.VEC_A.process();
      const refused = await index
        .upsert(Array.from({ length: 15 }, (_, i) => ({ nodeId: 100 + i, kind: "segment" as const, vector: vector(i) })))
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      const stats = await buildStats(repos, index, state.queue.counts(), 0, {}, state.network.placementView(undefined));
      return {
        placement: repos.placement,
        refused,
        stats,
        refusedBuffered: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM recent_vectors WHERE accepted_at IS NULL").one()
          .n,
      };
    });
    expect(first.placement.vectors).toBe("VEC_A");
    expect(first.refused).toBeInstanceOf(VectorIndexFullError);
    expect(first.refused).toMatchObject({ index: "VEC_A", vectors: 30, capacity: 40 });
    expect(String(first.refused)).toContain("vector index VEC_A is full");
    expect(first.stats.vector_index).toMatchObject({
      provider: "vectorize",
      shared_index: { name: "VEC_A", capacity: 40, full: true },
    });
    // The refused vectors are still found: the buffer keeps writes the index never accepted.
    expect(first.refusedBuffered).toBe(15);

    const statuses = await new AgentRegistry(env.DB).shards.list();
    expect(statuses.find((s) => s.kind === "vectorize" && s.binding === "VEC_A")?.fullReason).toContain("VEC_A is full");
    const second = await withAgent(config, async (state) => (await state.repos()).placement);
    expect(second.vectors).toBe("VEC_B");

    const health = await deepHealth(config);
    expect(health.status).toBe("ok");
    expect(health.warnings).toEqual([expect.stringContaining("Vectorize index VEC_A takes no new agents")]);
    expect(health.checks.vector_indexes.map((i) => [i.binding, i.ok, i.query.ok, i.accepting])).toEqual([
      ["VEC_A", true, true, false],
      ["VEC_B", true, true, true],
    ]);
    // Nothing that moves with other agents' writes (issue 28, finding 16).
    expect(JSON.stringify(health)).not.toMatch(/"vectors"|"processed_up_to"|"full_reason"/);

    // No index left: new agents are refused (503), and the deep check says the service is degraded.
    await new AgentRegistry(env.DB).shards.markFull("vectorize", "VEC_B", "closed by the test", Date.now());
    const third = await withAgent(config, async (state) =>
      state.repos().then(
        () => undefined,
        (err: unknown) => err,
      ),
    );
    expect(third).toBeInstanceOf(RegistryFullError);
    expect((await deepHealth(config)).status).toBe("degraded");
  });

  it("fails the agent's index tasks with the reason, while its searches still find what the index refused", async () => {
    const indexes = { VEC_C: fake(40), VEC_D: fake(40) };
    // Other agents' vectors nearly fill VEC_C.
    await indexes.VEC_C.upsert(
      Array.from({ length: 38 }, (_, i) => ({ id: `other:${i}`, values: [...vector(i)], namespace: "agent-other" })),
    );
    indexes.VEC_C.process();
    const outcome = await withAgent(vectorizeEnv(indexes, 40), async (state, ctx) => {
      const { alarm, invoke } = ownRunner(state, ctx);
      const remember = enqueueTask(
        state.queue,
        "remember",
        { messages: [{ role: "user", content: "Orion ships on Monday. Vega follows in June. Alice leads both launches." }] },
        { now: Date.now() },
      );
      await ctx.storage.sync();
      for (let i = 0; i < 10 && (i === 0 || alarm() !== null); i++) await invoke();
      const index = state.storage.sql
        .exec<{ id: string; status: string; error: string | null }>("SELECT id, kind, status, error FROM tasks WHERE kind = 'index'")
        .toArray();
      const hits = await state
        .vectors()
        ?.query({ vector: (await state.embedder.embed(["Vega follows in June."]))[0] ?? vector(0), topK: 3 });
      return { remember: state.queue.get(remember.id)?.status, index, hits, placement: state.network.placement() };
    });
    expect(outcome.placement?.vectors).toBe("VEC_C");
    expect(outcome.remember).toBe("done");
    expect(outcome.index).toHaveLength(1);
    expect(outcome.index[0]).toMatchObject({ status: "failed" });
    expect(outcome.index[0]?.error).toContain("vector index VEC_C is full");
    expect(outcome.hits?.length).toBeGreaterThan(0);
    expect(indexes.VEC_D.calls.upsert).toBe(0);
  });

  it("is closed to new agents by the cron once it holds the fill ratio of its capacity", async () => {
    const indexes = { VEC_E: fake(50), VEC_F: fake(50) };
    await indexes.VEC_E.upsert(Array.from({ length: 41 }, (_, i) => ({ id: `x:${i}`, values: [...vector(i)], namespace: "agent-x" })));
    indexes.VEC_E.process();
    const config = vectorizeEnv(indexes, 50);
    const measured = await measureStorage(config, Date.now());
    expect(measured.vectors.map((v) => [v.binding, v.vectors])).toEqual([
      ["VEC_E", 41],
      ["VEC_F", 0],
    ]);
    const statuses = await new AgentRegistry(env.DB).shards.list();
    expect(statuses.find((s) => s.binding === "VEC_E")?.fullReason).toBe("measured 41 vectors, at or past 40");
    expect(statuses.find((s) => s.binding === "VEC_F")?.fullAt ?? null).toBeNull();
    expect((await withAgent(config, async (state) => (await state.repos()).placement)).vectors).toBe("VEC_F");
  });
});
