/**
 * What the agent answers to reads that are not tasks (focus, one node, stats, ping), as the
 * agent's own zod schemas: the HTTP layer (src/routes/reads.ts) gives them OpenAPI names and serves
 * them as they are. Kept apart from the builders (views.ts) so that reading them pulls in nothing
 * but zod and the vocabulary.
 */
import { z } from "zod";
import { NODE_KINDS } from "../../vocabulary/node-kinds";
import { MESSAGE_ROLES } from "../../vocabulary/roles";

export const FocusViewSchema = z.object({
  focus_limit: z.number().int(),
  focus: z.array(z.object({ node_id: z.number().int(), name: z.string(), key: z.string() })),
});
export type FocusView = z.infer<typeof FocusViewSchema>;

/** Links per direction in one node view, unless asked otherwise (at most MAX_LINKS_PAGE). */
export const DEFAULT_LINKS_PAGE = 200;
export const MAX_LINKS_PAGE = 1000;

const Position = z.union([z.literal("end"), z.tuple([z.number().int(), z.string()])]).nullable();

/** A page of a node's links: at most `limit` per direction, after where the previous page ended (src/operations/views/cursor.ts). */
export const LinksPageSchema = z
  .object({ limit: z.number().int().min(1).max(MAX_LINKS_PAGE), after: z.object({ outgoing: Position, incoming: Position }).strict() })
  .strict();
export type LinksPage = z.infer<typeof LinksPageSchema>;

const LinkViewSchema = z.object({
  source: z.number().int(),
  target: z.number().int(),
  relation: z.string(),
  strength: z.number(),
  pinned: z.boolean(),
  /** The far end no longer exists: a trace of a forgotten memory. */
  dangling: z.boolean(),
  created_at: z.number().int(),
});

export const NodeViewSchema = z.object({
  node_id: z.number().int(),
  kind: z.enum(NODE_KINDS),
  name: z.string().nullable(),
  content: z.string(),
  original_length: z.number().int(),
  phrase: z.string(),
  keywords: z.array(z.string()),
  role: z.enum(MESSAGE_ROLES).nullable(),
  speaker: z.string().nullable(),
  source_message_ids: z.array(z.string()),
  source_task_id: z.string().nullable(),
  message_time: z.number().int().nullable(),
  created_at: z.number().int(),
  scan_count: z.number().int(),
  in_focus: z.boolean(),
  /** The memory that corrected this one (it is history), or null. */
  superseded_by: z.number().int().nullable(),
  /** Kind-specific facts (an explicit memory's structure, an episode's participants and span). */
  meta: z.record(z.string(), z.unknown()).nullable(),
  importance: z.number(),
  /**
   * A page of the node's links in each direction (by the far end's id, then the relation), how
   * many there are, and the cursor of the next page (null when both lists are complete).
   */
  links: z.object({
    outgoing: z.array(LinkViewSchema),
    incoming: z.array(LinkViewSchema),
    total: z.object({ outgoing: z.number().int(), incoming: z.number().int() }),
    next_cursor: z.string().nullable(),
  }),
});
export type NodeView = z.infer<typeof NodeViewSchema>;

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
});
export type StatsView = z.infer<typeof StatsViewSchema>;

export const PingViewSchema = z.object({ ok: z.literal(true), agent_id: z.string() });
export type PingView = z.infer<typeof PingViewSchema>;
