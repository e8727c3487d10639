/**
 * The deep health check (`GET /v1/health?deep=1`, docs/deploy.md "Checking a deployment"): one
 * embedding, one vector query per Vectorize index on a canary namespace that holds nothing, one
 * small-model call, and a round trip to every D1 shard. It calls the configured providers
 * themselves, never their fallbacks, so a failing Workers AI shows as failing. It costs model
 * calls, so the route requires an API key; the shallow check stays a single primary round trip
 * (checkDatabase).
 *
 * Any tenant's key may ask, so it shows nothing that moves with other tenants' writes (a
 * database's size, an index's vector count or processing, the measurement that closed one): only
 * whether each dependency answers, how fast, and whether it takes new agents. Operators read the
 * measurements in the primary database's `storage_shards` (docs/deploy.md).
 */
import { sql } from "drizzle-orm";
import { z } from "zod";
import { createEmbedder, createModel, type ModelEnv } from "../models/providers";
import { AgentRegistry } from "../storage/agent-registry";
import { createDb } from "../storage/db";
import { vectorizeBinding } from "../vectors/providers";
import { checkD1Shards, checkVectorIndexes, type StorageEnv } from "./storage-status";

/** The shallow check: one round trip to the primary database; throws when it cannot be reached. */
export async function checkDatabase(env: Pick<Env, "DB">): Promise<void> {
  await createDb(env.DB).run(sql`SELECT 1`);
}

/** The namespace the deep check queries: no agent's (agent namespaces are `agent-<id>`), always empty. */
export const CANARY_NAMESPACE = "health-canary";

export type HealthEnv = StorageEnv & ModelEnv;

const ProbeSchema = z.object({ ok: z.boolean(), ms: z.number(), error: z.string().optional() });
type Probe = z.infer<typeof ProbeSchema>;

const D1ShardSchema = z.object({
  binding: z.string(),
  ok: z.boolean(),
  ms: z.number(),
  accepting: z.boolean().describe("Whether new agents may be assigned to it."),
  error: z.string().optional(),
});

const VectorIndexSchema = z.object({
  binding: z.string(),
  ok: z.boolean(),
  ms: z.number(),
  capacity: z.number(),
  accepting: z.boolean().describe("Whether new agents may be assigned to it."),
  error: z.string().optional(),
  query: ProbeSchema.describe("One query on the empty canary namespace."),
});

/** What the deep health check answers (the HTTP layer serves it as it is). */
export const DeepHealthSchema = z.object({
  /** "degraded": a check failed, or no D1 shard (or no Vectorize index) takes new agents. */
  status: z.enum(["ok", "degraded"]),
  model_provider: z.string(),
  vector_provider: z.string(),
  checks: z.object({
    d1: z.array(D1ShardSchema),
    embedding: ProbeSchema.extend({ dimensions: z.number().int().nullable() }),
    model: ProbeSchema,
    vector_indexes: z.array(VectorIndexSchema),
  }),
  /** What an operator should look at although the service works (a full index, a full shard). */
  warnings: z.array(z.string()),
});
export type DeepHealth = z.infer<typeof DeepHealthSchema>;

async function probe<T>(run: () => Promise<T>): Promise<Probe & { value?: T }> {
  const started = Date.now();
  try {
    const value = await run();
    return { ok: true, ms: Date.now() - started, value };
  } catch (err) {
    return { ok: false, ms: Date.now() - started, error: err instanceof Error ? err.message : String(err) };
  }
}

export async function deepHealth(env: HealthEnv): Promise<DeepHealth> {
  const statuses = await new AgentRegistry(env.DB).shards.list();
  const embedder = createEmbedder(env);
  const [d1, indexes, embedded, model] = await Promise.all([
    checkD1Shards(env, statuses),
    checkVectorIndexes(env, statuses),
    probe(async () => (await embedder.embed(["health check"]))[0]),
    probe(() => createModel(env).queryKeywords("health check: is the model answering?")),
  ]);
  const vector = embedded.value;
  const vectorIndexes = await Promise.all(
    indexes.map(async (index) => {
      const query = await probe(async () => {
        if (!vector) throw new Error("no embedding to query with");
        await vectorizeBinding(env, index.binding).query(vector, {
          topK: 1,
          namespace: CANARY_NAMESPACE,
          returnValues: false,
          returnMetadata: "none",
        });
      });
      return { ...index, query: { ok: query.ok, ms: query.ms, ...(query.error ? { error: query.error } : {}) } };
    }),
  );
  const warnings = [
    ...d1.filter((s) => !s.accepting).map((s) => `D1 shard ${s.binding} takes no new agents (storage_shards says why)`),
    ...vectorIndexes.filter((i) => !i.accepting).map((i) => `Vectorize index ${i.binding} takes no new agents (storage_shards says why)`),
  ];
  const failed = d1.some((s) => !s.ok) || !embedded.ok || !model.ok || vectorIndexes.some((i) => !i.ok || !i.query.ok);
  const noRoom = !d1.some((s) => s.accepting) || (vectorIndexes.length > 0 && !vectorIndexes.some((i) => i.accepting));
  return {
    status: failed || noRoom ? "degraded" : "ok",
    model_provider: env.MODEL_PROVIDER,
    vector_provider: env.VECTOR_PROVIDER,
    checks: {
      d1: d1.map((s) => ({ binding: s.binding, ok: s.ok, ms: s.ms, accepting: s.accepting, ...(s.error ? { error: s.error } : {}) })),
      embedding: {
        ok: embedded.ok,
        ms: embedded.ms,
        dimensions: vector?.length ?? null,
        ...(embedded.error ? { error: embedded.error } : {}),
      },
      model: { ok: model.ok, ms: model.ms, ...(model.error ? { error: model.error } : {}) },
      vector_indexes: vectorIndexes.map((i) => ({
        binding: i.binding,
        ok: i.ok,
        ms: i.ms,
        capacity: i.capacity,
        accepting: i.accepting,
        ...(i.error ? { error: i.error } : {}),
        query: i.query,
      })),
    },
    warnings,
  };
}
