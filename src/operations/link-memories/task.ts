/**
 * Explicit links between memories (docs/design.md, "Memory operations", link_memories): a named link
 * from one memory to another, each given by id or by a description. A description is resolved by
 * the agent's own hybrid search over its memories; when several candidates score within
 * AMBIGUITY_MARGIN of the best, nothing is written and the candidates are returned (the HTTP layer
 * answers 409). The relation is one of the explicit vocabulary (因为 所以 导致 引用 基于 相关); the
 * link is an ordinary one: it decays, and it counts in its source's importance. Setting a link
 * that exists sets its strength. A superseded version is history: linking it is refused (409),
 * naming the current version.
 */
import { z } from "zod";
import { levelOf } from "../../memory/strength";
import { normalizeText } from "../../text/normalize";
import { MEMORY_KINDS } from "../../vocabulary/node-kinds";
import { EXPLICIT_LINK_RELATIONS } from "../../vocabulary/relations";
import { networkReader } from "../../engine/network-reader";
import type { AgentModels, AgentRepos, AgentStores, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";
import { searchNodes } from "../shared/search-lists";

/** What linking uses of the agent's runtime: ends described by text are found by search. */
type Runtime = AgentStores & WritePath & Pick<AgentModels, "embedder" | "queryVectors">;

/** Candidates whose combined score is within this of the best make a description ambiguous. */
export const AMBIGUITY_MARGIN = 0.1;
/** Candidates a description is resolved among. */
const DESCRIPTION_CANDIDATES = 5;
/**
 * A memory is a candidate for a description when they share a word (a full-text hit), or when
 * their embeddings are at least this similar: a vector search always answers something, and a
 * description that matches nothing must say so (404) rather than offer the least unlike memories.
 */
export const MIN_VECTOR_ONLY_SIMILARITY = 0.6;

export const MemoryRefSchema = z.union([
  z.object({ id: z.number().int().min(1) }).strict(),
  z.object({ description: z.string().min(1).max(2000) }).strict(),
]);
export type MemoryRef = z.infer<typeof MemoryRefSchema>;

const isExplicit = (relation: string) => (EXPLICIT_LINK_RELATIONS as readonly string[]).includes(relation);

export const LinkMemoriesPayloadSchema = z
  .object({
    source: MemoryRefSchema,
    target: MemoryRefSchema,
    /** A stored relation name (the HTTP layer maps English aliases). */
    relation: z.string().refine(isExplicit, "not an explicit link relation"),
    strength: z.number().gt(0).max(1).default(0.6),
  })
  .strict();

const CandidateSchema = z.object({ node_id: z.number().int(), content: z.string(), score: z.number() });
const End = z.enum(["source", "target"]);

export const LinkMemoriesResultSchema = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("linked"),
    source: z.number().int(),
    target: z.number().int(),
    relation: z.string(),
    strength: z.number(),
  }),
  z.object({ outcome: z.literal("ambiguous"), end: End, description: z.string(), candidates: z.array(CandidateSchema) }),
  z.object({ outcome: z.literal("not_found"), end: End, node_id: z.number().int().nullable(), description: z.string().nullable() }),
  z.object({ outcome: z.literal("same_node"), node_id: z.number().int() }),
  /** An end given by id is a superseded version: history, never linked (the current version is named). */
  z.object({ outcome: z.literal("superseded"), end: End, node_id: z.number().int(), superseded_by: z.number().int() }),
]);
export type LinkMemoriesResult = z.infer<typeof LinkMemoriesResultSchema>;

type Resolution = { ok: true; id: number } | { ok: false; result: LinkMemoriesResult };

const finish = <R>(result: R) => ({ status: "done" as const, result });

type LinkPayload = z.infer<typeof LinkMemoriesPayloadSchema>;

/** Both ends resolved to distinct memories, or the refusal. */
async function resolveEnds(
  rt: Runtime,
  payload: LinkPayload,
): Promise<{ ok: true; source: { id: number }; target: { id: number } } | { ok: false; result: LinkMemoriesResult }> {
  const repos = rt.existingRepos();
  if (!repos) return { ok: false, result: notFound("source", payload.source) };
  const source = await resolve(rt, repos, "source", payload.source);
  if (!source.ok) return source;
  const target = await resolve(rt, repos, "target", payload.target);
  if (!target.ok) return target;
  if (source.id === target.id) return { ok: false, result: { outcome: "same_node", node_id: source.id } };
  return { ok: true, source, target };
}

export const linkMemoriesTask = defineTask({
  lane: "write",
  payload: LinkMemoriesPayloadSchema,
  result: LinkMemoriesResultSchema,
  // An ambiguous description's candidates carry their text; a purged end takes the link.
  resultNodes: ["$.source", "$.target", "$.candidates[*].node_id"],
  async refuse(rt: Runtime, payload): Promise<LinkMemoriesResult | undefined> {
    const ends = await resolveEnds(rt, payload);
    return ends.ok ? undefined : ends.result;
  },
  async run(rt: Runtime, task) {
    const done = readCheckpoint(task, LinkMemoriesResultSchema);
    if (done) return finish(done);
    const { relation, strength } = task.payload;
    const ends = await resolveEnds(rt, task.payload);
    if (!ends.ok) return finish(ends.result);
    const { source, target } = ends;
    const clock = rt.meta.clock();
    const result: LinkMemoriesResult = { outcome: "linked", source: source.id, target: target.id, relation, strength };
    const link = { source: source.id, target: target.id, relation, level: levelOf(strength, clock), epoch: task.seq, createdAt: rt.now() };
    await commit(
      rt,
      task.id,
      [
        { type: "setLinks", links: [link] },
        { type: "count", counters: { links_explicit: 1 } },
      ],
      { checkpoint: result },
    );
    return finish(result);
  },
});

function notFound(end: "source" | "target", ref: MemoryRef): LinkMemoriesResult {
  return "id" in ref
    ? { outcome: "not_found", end, node_id: ref.id, description: null }
    : { outcome: "not_found", end, node_id: null, description: ref.description };
}

async function resolve(rt: Runtime, repos: AgentRepos, end: "source" | "target", ref: MemoryRef): Promise<Resolution> {
  if ("id" in ref) {
    const node = (await (await networkReader(rt, repos)).load([ref.id])).get(ref.id);
    if (!node) return { ok: false, result: notFound(end, ref) };
    if (node.supersededBy !== null) {
      return { ok: false, result: { outcome: "superseded", end, node_id: node.id, superseded_by: node.supersededBy } };
    }
    return { ok: true, id: ref.id };
  }
  const hits = await searchNodes(rt, repos, {
    query: ref.description,
    mode: "hybrid",
    limit: DESCRIPTION_CANDIDATES,
    filters: { kinds: [...MEMORY_KINDS] },
  });
  const relevant = hits.filter((h) => h.keyword !== null || (h.vector ?? 0) >= MIN_VECTOR_ONLY_SIMILARITY);
  if (relevant.length === 0) return { ok: false, result: notFound(end, ref) };
  const wanted = normalizeText(ref.description);
  const exact = relevant.filter((h) => normalizeText(h.node.content) === wanted);
  if (exact.length === 1 && exact[0]) return { ok: true, id: exact[0].node.id };
  // Combined score: BM25 relative to the best keyword hit, and cosine similarity, half each.
  const bestKeyword = Math.max(0, ...relevant.map((h) => h.keyword ?? 0));
  const scored = relevant
    .map((h) => ({
      node_id: h.node.id,
      content: h.node.content,
      score: 0.5 * (bestKeyword > 0 ? (h.keyword ?? 0) / bestKeyword : 0) + 0.5 * Math.max(0, h.vector ?? 0),
    }))
    .sort((a, b) => b.score - a.score || b.node_id - a.node_id);
  const [best, second] = scored;
  if (!best) return { ok: false, result: notFound(end, ref) };
  if (second && second.score >= best.score - AMBIGUITY_MARGIN) {
    const candidates = scored.filter((c) => c.score >= best.score - AMBIGUITY_MARGIN);
    return { ok: false, result: { outcome: "ambiguous", end, description: ref.description, candidates } };
  }
  return { ok: true, id: best.node_id };
}
