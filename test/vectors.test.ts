import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NODE_KINDS, type NodeKind } from "../src/vocabulary/node-kinds";
import { LocalVectorIndex } from "../src/vectors/local-vector-index";
import { seededRandom } from "../src/memory/capacity";
import { RECENT_BACKSTOP_MS, RecentVectors } from "../src/vectors/recent-vectors";
import { createVectorIndex } from "../src/vectors/providers";
import type { VectorHit, VectorRecord } from "../src/vectors/types";
import { parseVectorId, VectorizeVectorIndex, type VectorizeBinding } from "../src/vectors/vectorize-index";

let objects = 0;

function freshName(prefix = "vectors"): string {
  objects += 1;
  return `${prefix}-${objects}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The agent Durable Object of a name (its schema, with the vector tables, is created when it starts). */
const stubNamed = (name: string) => env.AGENT.get(env.AGENT.idFromName(name));

const freshStub = () => stubNamed(freshName());

/** A seeded generator, so every run sees the same vectors. */
const seeded = seededRandom;

function unitVector(random: () => number, dims: number): Float32Array {
  const v = Float32Array.from({ length: dims }, () => random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function records(count: number, dims: number, seed: number, firstId = 1): VectorRecord[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i): VectorRecord => {
    const kind: NodeKind = i % 3 === 0 ? "entity" : "segment";
    return { nodeId: firstId + i, kind, vector: unitVector(random, dims) };
  });
}

/**
 * The reference: every score computed, everything sorted (score desc, then node id desc). Scores
 * follow the index's documented summation (four lanes by d % 4, then (l0 + l1) + (l2 + l3)), so
 * they match bit for bit.
 */
function bruteForce(all: readonly VectorRecord[], query: Float32Array, topK: number, kinds?: NodeKind[]): VectorHit[] {
  const dot = (v: Float32Array) => {
    const lanes = [0, 0, 0, 0];
    for (let d = 0; d < query.length; d++) lanes[d % 4] = (lanes[d % 4] ?? 0) + (query[d] ?? 0) * (v[d] ?? 0);
    const [l0 = 0, l1 = 0, l2 = 0, l3 = 0] = lanes;
    return l0 + l1 + (l2 + l3);
  };
  return all
    .filter((r) => kinds === undefined || kinds.includes(r.kind))
    .map((r) => ({ nodeId: r.nodeId, score: dot(r.vector) }))
    .sort((a, b) => b.score - a.score || b.nodeId - a.nodeId)
    .slice(0, topK);
}

/**
 * A Vectorize binding that records every call, answers queries with whatever `answer` holds and
 * describe() with `info` (test/fakes/fake-vectorize.ts is the one that enforces the limits).
 */
class FakeVectorize implements VectorizeBinding {
  upserts: VectorizeVector[][] = [];
  deletes: string[][] = [];
  queries: { vector: number[]; options: VectorizeQueryOptions }[] = [];
  answer: unknown = { matches: [], count: 0 };
  info: { vectorCount: number; processedUpToMutation: string | null; processedUpToDatetime: string | null } = {
    vectorCount: 0,
    processedUpToMutation: null,
    processedUpToDatetime: null,
  };
  describes = 0;

  async upsert(vectors: VectorizeVector[]): Promise<VectorizeAsyncMutation> {
    this.upserts.push(vectors);
    return { mutationId: `mutation-${this.upserts.length}` };
  }
  async describe(): Promise<unknown> {
    this.describes += 1;
    return { dimensions: 8, ...this.info };
  }
  async deleteByIds(ids: string[]): Promise<VectorizeVectorMutation> {
    this.deletes.push(ids);
    return { ids, count: ids.length };
  }
  async query(vector: Float32Array, options: VectorizeQueryOptions): Promise<unknown> {
    this.queries.push({ vector: [...vector], options });
    return this.answer;
  }
}

function adapter(sql: SqlStorage, dims: number, clock = { now: 1_000_000 }) {
  const binding = new FakeVectorize();
  const recent = new RecentVectors(sql, dims);
  const index = new VectorizeVectorIndex({
    binding,
    index: "VECTORIZE",
    capacity: 1_000_000,
    namespace: "agent-7",
    idPrefix: "7:",
    dimensions: dims,
    recent,
    now: () => clock.now,
  });
  return { binding, recent, index, clock };
}

describe("local vector index", () => {
  const dims = 48;
  const seededSet = records(2000, dims, 7);
  const queries = Array.from({ length: 5 }, (_, i) => unitVector(seeded(100 + i), dims));

  it("answers exact top-k (ids and scores) over 2,000 vectors, with and without a kinds filter", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const index = new LocalVectorIndex(ctx.storage.sql, dims);
      await index.upsert(seededSet);
      for (const q of queries) {
        expect(await index.query({ vector: q, topK: 10 })).toEqual(bruteForce(seededSet, q, 10));
        expect(await index.query({ vector: q, topK: 7, kinds: ["entity"] })).toEqual(bruteForce(seededSet, q, 7, ["entity"]));
        expect(await index.query({ vector: q, topK: 5, kinds: ["segment", "entity"] })).toEqual(bruteForce(seededSet, q, 5));
      }
      expect(await index.query({ vector: queries[0] ?? new Float32Array(dims), topK: 10, kinds: [] })).toEqual([]);
      expect(await index.query({ vector: queries[0] ?? new Float32Array(dims), topK: 0 })).toEqual([]);
      expect(await index.stats()).toEqual({ vectors: 2000, bytes: 2000 * (dims * 4 + 8) });
    });
  });

  it("returns everything, best first, when topK exceeds the count; equal scores rank the higher node id first", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const index = new LocalVectorIndex(ctx.storage.sql, 2);
      const v = (x: number, y: number) => new Float32Array([x, y]);
      await index.upsert([
        { nodeId: 5, kind: "segment", vector: v(1, 0) },
        { nodeId: 9, kind: "segment", vector: v(1, 0) },
        { nodeId: 2, kind: "entity", vector: v(0, 1) },
        { nodeId: 7, kind: "entity", vector: v(1, 0) },
      ]);
      expect(await index.query({ vector: v(1, 0), topK: 10 })).toEqual([
        { nodeId: 9, score: 1 },
        { nodeId: 7, score: 1 },
        { nodeId: 5, score: 1 },
        { nodeId: 2, score: 0 },
      ]);
      expect(await index.query({ vector: v(1, 0), topK: 2 })).toEqual([
        { nodeId: 9, score: 1 },
        { nodeId: 7, score: 1 },
      ]);
    });
  });

  it("replaces a vector (and its kind) on upsert, and forgets removed nodes, without a reload", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const index = new LocalVectorIndex(ctx.storage.sql, dims);
      await index.upsert(seededSet);
      const q = queries[1] ?? new Float32Array(dims);
      await index.query({ vector: q, topK: 1 }); // loads the matrix: what follows updates it in place
      const replaced: VectorRecord = { nodeId: 1234, kind: "entity", vector: q };
      const current = seededSet.map((r) => (r.nodeId === 1234 ? replaced : r));
      await index.upsert([replaced]);
      const top = await index.query({ vector: q, topK: 10 });
      expect(top[0]?.nodeId).toBe(1234);
      expect(top).toEqual(bruteForce(current, q, 10));
      expect(await index.query({ vector: q, topK: 3, kinds: ["entity"] })).toEqual(bruteForce(current, q, 3, ["entity"]));

      const removed = new Set(bruteForce(current, q, 4).map((h) => h.nodeId));
      await index.remove([...removed, 999_999]);
      const rest = current.filter((r) => !removed.has(r.nodeId));
      expect(await index.query({ vector: q, topK: 10 })).toEqual(bruteForce(rest, q, 10));
      expect(await index.stats()).toEqual({ vectors: 1996, bytes: 1996 * (dims * 4 + 8) });
      // A fresh index over the same table (a reload) agrees with the one kept in step.
      const reloaded = new LocalVectorIndex(ctx.storage.sql, dims);
      expect(await reloaded.stats()).toEqual({ vectors: 1996, bytes: 1996 * (dims * 4 + 8) });
      for (const query of queries) expect(await reloaded.query({ vector: query, topK: 10 })).toEqual(bruteForce(rest, query, 10));
    });
  });

  it("loads the table once, on the first query, and then serves writes from memory without reading it again", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const index = new LocalVectorIndex(ctx.storage.sql, 2);
      const v = (x: number, y: number) => new Float32Array([x, y]);
      await index.upsert([{ nodeId: 1, kind: "segment", vector: v(1, 0) }]);
      expect(await index.query({ vector: v(1, 0), topK: 5 })).toEqual([{ nodeId: 1, score: 1 }]);
      // A row changed behind the index's back stays unseen: the matrix is not reloaded...
      ctx.storage.sql.exec("DELETE FROM vectors WHERE node_id = 1");
      await index.upsert([{ nodeId: 2, kind: "entity", vector: v(0, 1) }]);
      expect(await index.query({ vector: v(1, 0), topK: 5 })).toEqual([
        { nodeId: 1, score: 1 },
        { nodeId: 2, score: 0 },
      ]);
      // ...while a new index (as after a wake) reads the table as it is.
      expect(await new LocalVectorIndex(ctx.storage.sql, 2).query({ vector: v(1, 0), topK: 5 })).toEqual([{ nodeId: 2, score: 0 }]);
    });
  });

  it("survives eviction: a new index on the same storage answers identically", async () => {
    const name = freshName("evicted");
    const before = await runInDurableObject(stubNamed(name), async (_instance, ctx) => {
      const index = new LocalVectorIndex(ctx.storage.sql, dims);
      await index.upsert(seededSet);
      await index.remove([1, 2, 3]);
      return Promise.all(queries.map((q) => index.query({ vector: q, topK: 10, kinds: ["segment"] })));
    });
    await abortAllDurableObjects();
    // The old stub died with the object: a new one reaches a new instance over the same storage.
    const after = await runInDurableObject(stubNamed(name), async (_instance, ctx) => {
      const index = new LocalVectorIndex(ctx.storage.sql, dims);
      return Promise.all(queries.map((q) => index.query({ vector: q, topK: 10, kinds: ["segment"] })));
    });
    const rest = seededSet.filter((r) => r.nodeId > 3);
    expect(before).toEqual(queries.map((q) => bruteForce(rest, q, 10, ["segment"])));
    expect(after).toEqual(before);
  });

  it("refuses vectors and queries of the wrong dimension, and stored blobs of the wrong size", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const index = new LocalVectorIndex(ctx.storage.sql, 4);
      await expect(index.upsert([{ nodeId: 1, kind: "segment", vector: new Float32Array(3) }])).rejects.toThrow(
        "vector of node 1 has 3 dimensions, the index has 4",
      );
      await expect(index.upsert([{ nodeId: 1, kind: "segment", vector: new Float32Array([NaN, 0, 0, 0]) }])).rejects.toThrow(
        "vector of node 1 has a non-finite value at 0",
      );
      await expect(index.query({ vector: new Float32Array(5), topK: 1 })).rejects.toThrow("query vector has 5 dimensions, the index has 4");
      expect(await index.stats()).toEqual({ vectors: 0, bytes: 0 });
      ctx.storage.sql.exec("INSERT INTO vectors (node_id, kind, vec) VALUES (1, 'segment', ?)", new ArrayBuffer(12));
      await expect(index.query({ vector: new Float32Array(4), topK: 1 })).rejects.toThrow("stored vector has 12 bytes, expected 16");
    });
  });
});

describe("Vectorize adapter", () => {
  const dims = 8;

  it("upserts in batches of 1,000 into the agent's namespace, ids `${prefix}${nodeId}`, metadata { kind } only", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { binding, recent, index } = adapter(ctx.storage.sql, dims);
      const all = records(2500, dims, 3);
      await index.upsert(all);
      expect(binding.upserts.map((b) => b.length)).toEqual([1000, 1000, 500]);
      const sent = binding.upserts.flat();
      expect(sent.map((v) => v.id)).toEqual(all.map((r) => `7:${r.nodeId}`));
      expect(sent.every((v) => v.namespace === "agent-7")).toBe(true);
      expect(sent.map((v) => v.metadata)).toEqual(all.map((r) => ({ kind: r.kind })));
      expect(sent.map((v) => [...v.values])).toEqual(all.map((r) => [...r.vector]));
      expect(recent.count()).toBe(2500);
    });
  });

  it("deletes by id in batches of 100, from Vectorize and from the recent buffer", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { binding, recent, index } = adapter(ctx.storage.sql, dims);
      await index.upsert(records(300, dims, 4));
      await index.remove(Array.from({ length: 250 }, (_, i) => i + 1));
      expect(binding.deletes.map((b) => b.length)).toEqual([100, 100, 50]);
      expect(binding.deletes.flat()).toEqual(Array.from({ length: 250 }, (_, i) => `7:${i + 1}`));
      expect(recent.count()).toBe(50);
    });
  });

  it("queries the agent's namespace without values or metadata, filtering by kind only when a kind is left out", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { binding, index } = adapter(ctx.storage.sql, dims);
      const vector = unitVector(seeded(1), dims);
      await index.query({ vector, topK: 10 });
      await index.query({ vector, topK: 250, kinds: ["entity"] });
      await index.query({ vector, topK: 5, kinds: [...NODE_KINDS] });
      expect(await index.query({ vector, topK: 5, kinds: [] })).toEqual([]);
      const base = { namespace: "agent-7", returnValues: false, returnMetadata: "none" };
      expect(binding.queries.map((q) => q.options)).toEqual([
        { ...base, topK: 10 },
        { ...base, topK: 100, filter: { kind: { $in: ["entity"] } } },
        { ...base, topK: 5 },
      ]);
      expect(binding.queries[0]?.vector).toEqual([...vector]);
    });
  });

  it("keeps only ids that parse strictly under this agent's prefix", async () => {
    expect(
      ["7:3", "7:0", "17:4", "77:5", "7:04", "7:", "7:x", "7:3.0", "7:-1", "7: 3", "7:9007199254740993"].map((id) =>
        parseVectorId(id, "7:"),
      ),
    ).toEqual([3, 0, null, null, null, null, null, null, null, null, null]);
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { binding, index } = adapter(ctx.storage.sql, dims);
      binding.answer = {
        count: 4,
        matches: [
          { id: "17:4", score: 0.9 },
          { id: "7:3", score: 0.8 },
          { id: "7:03", score: 0.7 },
          { id: "7:5", score: 0.25, metadata: { kind: "segment" } },
        ],
      };
      expect(await index.query({ vector: unitVector(seeded(2), dims), topK: 10 })).toEqual([
        { nodeId: 3, score: 0.8 },
        { nodeId: 5, score: 0.25 },
      ]);
      binding.answer = { matches: [{ id: "7:3", score: "0.8" }] };
      await expect(index.query({ vector: unitVector(seeded(2), dims), topK: 10 })).rejects.toThrow("malformed Vectorize query answer");
    });
  });

  it("merges the recent buffer's hits with Vectorize's: no duplicates, buffered nodes scored by their newest vector, top-k", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { binding, index } = adapter(ctx.storage.sql, dims);
      const q = unitVector(seeded(5), dims);
      const [a, b, c] = records(3, dims, 6, 1);
      if (!a || !b || !c) throw new Error("seed");
      await index.upsert([a, b, c]);
      const exact = bruteForce([a, b, c], q, 3);
      const score = (id: number) => exact.find((h) => h.nodeId === id)?.score ?? NaN;
      expect(score(2)).toBeLessThan(0.99);
      // Vectorize has not indexed node 1 yet, and still scores nodes 2 and 3 with older vectors:
      // the buffer holds their newest ones, so its scores count, whether higher or lower.
      binding.answer = {
        matches: [
          { id: "7:2", score: 0.99 },
          { id: "7:3", score: score(3) - 0.5 },
          { id: "7:40", score: 0.5 },
        ],
      };
      const expected = [
        { nodeId: 2, score: score(2) },
        { nodeId: 1, score: score(1) },
        { nodeId: 3, score: score(3) },
        { nodeId: 40, score: 0.5 },
      ].sort((x, y) => y.score - x.score || y.nodeId - x.nodeId);
      expect(await index.query({ vector: q, topK: 10 })).toEqual(expected);
      expect(await index.query({ vector: q, topK: 2 })).toEqual(expected.slice(0, 2));
      // The kinds filter applies to the buffer too (records 1 is an entity, 2 and 3 segments).
      binding.answer = { matches: [] };
      expect(await index.query({ vector: q, topK: 10, kinds: ["entity"] })).toEqual([{ nodeId: 1, score: score(1) }]);
    });
  });

  it("keeps a buffered vector until the index reports its mutation processed, however long that takes", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { binding, recent, index, clock } = adapter(ctx.storage.sql, dims);
      const q = unitVector(seeded(8), dims);
      const [a, b] = records(2, dims, 9, 11);
      if (!a || !b) throw new Error("seed");
      await index.upsert([a]);
      clock.now += 1;
      await index.upsert([b]);
      // Twenty minutes on, the index still reports processing up to before both writes: both stay.
      clock.now += 20 * 60 * 1000;
      binding.info = { vectorCount: 0, processedUpToMutation: "someone-elses", processedUpToDatetime: new Date(999_000).toISOString() };
      expect((await index.query({ vector: q, topK: 5 })).map((h) => h.nodeId).sort()).toEqual([11, 12]);
      expect(recent.count()).toBe(2);
      // The index names this agent's first mutation: that one (and any before it) leaves, the second stays.
      clock.now += 10_000;
      binding.info = { ...binding.info, processedUpToMutation: "mutation-1" };
      await index.query({ vector: q, topK: 5 });
      expect(recent.ids()).toEqual([12]);
      // Processed up to a time past the second write's acceptance: it leaves too.
      clock.now += 10_000;
      binding.info = { ...binding.info, processedUpToMutation: "someone-elses", processedUpToDatetime: new Date(clock.now).toISOString() };
      await index.query({ vector: q, topK: 5 });
      expect(recent.count()).toBe(0);
      // describe() is asked at most once per interval, and only while something waits for it.
      const asked = binding.describes;
      await index.query({ vector: q, topK: 5 });
      clock.now += 60_000;
      await index.query({ vector: q, topK: 5 });
      expect(binding.describes).toBe(asked);
    });
  });

  it("keeps a write the index never accepted; releases an accepted one after the backstop if the index never reports", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { binding, recent, index, clock } = adapter(ctx.storage.sql, dims);
      const [a, b] = records(2, dims, 10, 21);
      if (!a || !b) throw new Error("seed");
      await index.upsert([a]);
      binding.upsert = async () => {
        throw new Error("VECTOR_UPSERT_ERROR (code = 40000): a transient failure");
      };
      await expect(index.upsert([b])).rejects.toThrow("transient failure");
      clock.now += RECENT_BACKSTOP_MS + 1;
      await index.query({ vector: unitVector(seeded(3), dims), topK: 5 });
      expect(recent.ids()).toEqual([22]);
    });
  });

  it("checks dimensions before any write", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { binding, recent, index } = adapter(ctx.storage.sql, dims);
      const good = records(2, dims, 1);
      const bad: VectorRecord = { nodeId: 99, kind: "segment", vector: new Float32Array(dims + 1) };
      await expect(index.upsert([...good, bad])).rejects.toThrow(`vector of node 99 has ${dims + 1} dimensions, the index has ${dims}`);
      await expect(index.query({ vector: new Float32Array(dims - 1), topK: 3 })).rejects.toThrow("query vector has 7 dimensions");
      expect(binding.upserts).toEqual([]);
      expect(binding.queries).toEqual([]);
      expect(recent.count()).toBe(0);
      const other = new RecentVectors(ctx.storage.sql, dims * 2);
      expect(
        () =>
          new VectorizeVectorIndex({
            binding,
            index: "V",
            capacity: 10,
            namespace: "agent-7",
            idPrefix: "7:",
            dimensions: dims,
            recent: other,
          }),
      ).toThrow("the recent buffer has other dimensions than the index");
      const wide = new RecentVectors(ctx.storage.sql, 2048);
      expect(
        () =>
          new VectorizeVectorIndex({
            binding,
            index: "V",
            capacity: 10,
            namespace: "agent-7",
            idPrefix: "7:",
            dimensions: 2048,
            recent: wide,
          }),
      ).toThrow("Vectorize supports 1-1536 dimensions, got 2048");
      expect(
        () =>
          new VectorizeVectorIndex({ binding, index: "V", capacity: 10, namespace: "agent-7", idPrefix: "7", dimensions: dims, recent }),
      ).toThrow('id prefix must end with a non-digit: "7"');
      expect(
        () =>
          new VectorizeVectorIndex({
            binding,
            index: "V",
            capacity: 10,
            namespace: "n".repeat(65),
            idPrefix: "7:",
            dimensions: dims,
            recent,
          }),
      ).toThrow("Vectorize namespace must be 1-64 bytes");
    });
  });
});

describe("vector index registry", () => {
  /** An env whose VECTORIZE getter throws, as reading an undeclared binding would; counts the reads. */
  function envWithoutVectorize(provider: string) {
    const reads = { count: 0 };
    const env = {
      VECTOR_PROVIDER: provider,
      get VECTORIZE(): unknown {
        reads.count += 1;
        throw new Error("VECTORIZE is not bound in the local configuration");
      },
    };
    return { env, reads };
  }

  it("builds the local index without reading VECTORIZE", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { env: localEnv, reads } = envWithoutVectorize("local");
      const index = createVectorIndex(localEnv, { sql: ctx.storage.sql, agentUid: 42, dimensions: 4, index: null });
      expect(index).toBeInstanceOf(LocalVectorIndex);
      expect([index.name, index.dimensions, reads.count]).toEqual(["local", 4, 0]);
    });
  });

  it("builds the Vectorize adapter on the agent's own index, with namespace agent-<uid> and id prefix <uid>:", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const binding = new FakeVectorize();
      const other = new FakeVectorize();
      const vectorEnv = { VECTOR_PROVIDER: "vectorize", VECTORIZE_INDEXES: "VECTORIZE,VEC_B", VECTORIZE: other, VEC_B: binding };
      const index = createVectorIndex(vectorEnv, { sql: ctx.storage.sql, agentUid: 42, dimensions: 4, index: "VEC_B" });
      expect(index).toBeInstanceOf(VectorizeVectorIndex);
      await index.upsert([{ nodeId: 1, kind: "entity", vector: new Float32Array([1, 0, 0, 0]) }]);
      expect(binding.upserts.flat().map((v) => [v.id, v.namespace, v.metadata])).toEqual([["42:1", "agent-42", { kind: "entity" }]]);
      expect(await index.query({ vector: new Float32Array([1, 0, 0, 0]), topK: 3 })).toEqual([{ nodeId: 1, score: 1 }]);
      expect(binding.queries.map((q) => q.options.namespace)).toEqual(["agent-42"]);
      expect(await index.stats()).toEqual({
        vectors: null,
        bytes: null,
        shared: { index: "VEC_B", vectors: 0, capacity: 5_000_000, full: false },
      });
      expect(other.upserts).toEqual([]);
      expect(() => createVectorIndex(vectorEnv, { sql: ctx.storage.sql, agentUid: 42, dimensions: 4, index: "VEC_C" })).toThrow(
        "VEC_C is not a Vectorize binding of this Worker",
      );
    });
  });

  it("refuses an unknown provider with a configuration error, without reading VECTORIZE", async () => {
    await runInDurableObject(freshStub(), async (_instance, ctx) => {
      const { env: badEnv, reads } = envWithoutVectorize("pinecone");
      expect(() => createVectorIndex(badEnv, { sql: ctx.storage.sql, agentUid: 1, dimensions: 4, index: null })).toThrow(
        'VECTOR_PROVIDER must be "local" or "vectorize", got "pinecone"',
      );
      expect(reads.count).toBe(0);
    });
  });
});
