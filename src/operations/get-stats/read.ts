/**
 * What getStats answers (counts of nodes, links, the queue, characters, the vector index, where the
 * agent is placed): the agent's own schema, which the route gives its OpenAPI name, and how the
 * object reads it (outside the queue: a read of counts needs no order).
 */
import { z } from "zod";
import type { AgentRepos } from "../../engine/runtime";
import type { TaskStatus } from "../../engine/task-queue";
import type { VectorIndex } from "../../vectors/types";
import { JurisdictionSchema } from "../../vocabulary/jurisdictions";
import { RegionSchema } from "../../vocabulary/regions";

/**
 * Where the agent lives (docs/deploy.md, "Near the user"): its jurisdiction (null: none), the
 * region its shard was chosen in and its object created near (null: none), its D1 shard and its
 * Vectorize index by binding name (null before its first write; the index null with the local
 * vector index, which keeps vectors in the agent's own object).
 */
const PlacementViewSchema = z.object({
  jurisdiction: JurisdictionSchema.nullable(),
  region: RegionSchema.nullable(),
  d1_shard: z.string().nullable(),
  vector_index: z.string().nullable(),
});
export type PlacementView = z.infer<typeof PlacementViewSchema>;

export const StatsViewSchema = z.object({
  nodes: z.object({
    total: z.number().int(),
    segments: z.number().int(),
    entities: z.number().int(),
    /** Explicit memories (docs/design.md, "Memory operations"). */
    memories: z.number().int(),
    /** Episode summaries (docs/design.md, "Context for prompts"). */
    episodes: z.number().int(),
  }),
  links: z.object({ total: z.number().int(), dangling: z.number().int() }),
  focus: z.number().int(),
  queue: z.object({ queued: z.number().int(), running: z.number().int(), done: z.number().int(), failed: z.number().int() }),
  characters: z.object({ held: z.number().int(), remembered: z.number().int() }),
  vector_index: z
    .object({
      provider: z.string(),
      vectors: z.number().int().nullable(),
      bytes: z.number().int().nullable(),
      /**
       * Vectorize: the shared index the agent's vectors live in and its capacity; `full` when it
       * refuses new vectors (the agent's index tasks fail until an operator acts: docs/deploy.md).
       * Not its vector count: that moves with other tenants' writes.
       */
      shared_index: z.object({ name: z.string(), capacity: z.number().int(), full: z.boolean() }).optional(),
    })
    .nullable(),
  counters: z.record(z.string(), z.number()),
  placement: PlacementViewSchema,
});
export type StatsView = z.infer<typeof StatsViewSchema>;

export async function buildStats(
  repos: AgentRepos | undefined,
  vectors: VectorIndex | undefined,
  queue: Record<TaskStatus, number>,
  focus: number,
  counters: Record<string, number>,
  placement: PlacementView,
): Promise<StatsView> {
  const [summary, links, dangling] = repos
    ? await Promise.all([repos.nodes.summary(), repos.links.count(), repos.links.danglingCount()])
    : [{ total: 0, segments: 0, entities: 0, memories: 0, episodes: 0, charactersHeld: 0 }, 0, 0];
  const index = vectors ? await vectors.stats() : undefined;
  return {
    nodes: {
      total: summary.total,
      segments: summary.segments,
      entities: summary.entities,
      memories: summary.memories,
      episodes: summary.episodes,
    },
    links: { total: links, dangling },
    focus,
    queue,
    characters: { held: summary.charactersHeld, remembered: counters.characters_remembered ?? 0 },
    vector_index:
      vectors && index
        ? {
            provider: vectors.name,
            vectors: index.vectors,
            bytes: index.bytes,
            ...(index.shared
              ? {
                  shared_index: {
                    name: index.shared.index,
                    capacity: index.shared.capacity,
                    full: index.shared.full,
                  },
                }
              : {}),
          }
        : null,
    counters,
    placement,
  };
}
