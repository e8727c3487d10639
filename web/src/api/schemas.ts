/**
 * What the page reads from the API, parsed at the trust boundary (zod/mini: small enough to ship).
 * These mirror the server's schemas in src/operations and src/surfaces (web/test/unit/client.test.ts checks that every
 * server shape is accepted), but stay open where the product will grow: a node's `kind` is any
 * string (episodes and explicit memories are coming), unknown fields are dropped, not refused.
 */
import * as z from "zod/mini";

export const ErrorEnvelopeSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.optional(z.unknown()) }),
});

export const AgentSummarySchema = z.object({
  agent_id: z.string(),
  created_at: z.number(),
  last_active_at: z.number(),
});
export const AgentListSchema = z.object({ agents: z.array(AgentSummarySchema), next_cursor: z.nullable(z.string()) });

/** DELETE agent: done (200), or still under way after the API's wait (202, its task finishes it). */
export const AgentDeletedSchema = z.object({ deleted: z.boolean(), task_id: z.optional(z.string()) });

export const FocusSchema = z.object({
  focus_limit: z.number(),
  focus: z.array(z.object({ node_id: z.number(), name: z.string(), key: z.string() })),
});

export const LinkViewSchema = z.object({
  source: z.number(),
  target: z.number(),
  relation: z.string(),
  strength: z.number(),
  pinned: z.boolean(),
  dangling: z.boolean(),
  created_at: z.number(),
});

export const NodeViewSchema = z.object({
  node_id: z.number(),
  kind: z.string(),
  name: z.nullable(z.string()),
  content: z.string(),
  original_length: z.number(),
  phrase: z.string(),
  keywords: z.array(z.string()),
  role: z.nullable(z.string()),
  speaker: z.nullable(z.string()),
  source_message_ids: z.array(z.string()),
  source_task_id: z.nullable(z.string()),
  message_time: z.nullable(z.number()),
  created_at: z.number(),
  scan_count: z.number(),
  in_focus: z.boolean(),
  /** The version that corrected this memory (it is history now), or null. */
  superseded_by: z.optional(z.nullable(z.number())),
  /** Kind-specific facts (an explicit memory's structure, an episode's participants and span). */
  meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  /** A standing instruction: never forgotten, listed first by the context block. */
  pinned: z.optional(z.boolean()),
  importance: z.number(),
  // A page of each direction (the API caps a view's links); `total` counts them all.
  links: z.object({
    outgoing: z.array(LinkViewSchema),
    incoming: z.array(LinkViewSchema),
    total: z.object({ outgoing: z.number(), incoming: z.number() }),
    next_cursor: z.nullable(z.string()),
  }),
});

export const StatsSchema = z.object({
  nodes: z.object({ total: z.number(), segments: z.number(), entities: z.number() }),
  links: z.object({ total: z.number(), dangling: z.number() }),
  focus: z.number(),
  queue: z.object({ queued: z.number(), running: z.number(), done: z.number(), failed: z.number() }),
  characters: z.object({ held: z.number(), remembered: z.number() }),
  counters: z.record(z.string(), z.number()),
});

export const ConfigSchema = z.looseObject({
  decay_rate: z.number(),
  focus_limit: z.number(),
  default_search_depth: z.number(),
  link_initial_strength: z.optional(z.number()),
  link_break_threshold: z.optional(z.number()),
  delete_threshold: z.optional(z.number()),
});

export const CompressAcceptedSchema = z.object({ task_ids: z.array(z.string()) });

const MemoryItemSchema = z.object({
  type: z.literal("memory"),
  node_id: z.number(),
  content: z.string(),
  phrase: z.string(),
  source_message_ids: z.array(z.string()),
  depth: z.number(),
});
const ForgottenItemSchema = z.object({
  type: z.literal("forgotten"),
  source_node_id: z.number(),
  phrase: z.string(),
  relation: z.string(),
});
export const RecallJsonSchema = z.object({
  items: z.array(z.discriminatedUnion("type", [MemoryItemSchema, ForgottenItemSchema])),
  start_nodes: z.number(),
  reached_nodes: z.number(),
});

/** The context block (POST context): its text as the model gets it, and which nodes it holds. */
export const ContextBlockSchema = z.object({
  query: z.string(),
  budget_tokens: z.number(),
  used_tokens: z.number(),
  text: z.string(),
  memories: z.array(z.object({ node_id: z.number() })),
  episodes: z.array(z.object({ node_id: z.number() })),
  traces: z.array(z.object({ phrase: z.string() })),
});

export const SearchResponseSchema = z.object({
  mode: z.string(),
  items: z.array(
    z.object({
      node_id: z.number(),
      kind: z.string(),
      content: z.string(),
      phrase: z.string(),
      source_message_ids: z.array(z.string()),
      score: z.number(),
    }),
  ),
});

/** Memory operations (DESIGN §11): what the writes answer once their task is done. */
export const MemoryCreatedSchema = z.object({
  node_id: z.number(),
  content: z.string(),
  entities: z.array(z.string()),
  conflicts: z.optional(z.object({ checked: z.number(), same: z.number(), updates: z.number(), contradictions: z.number() })),
});

export const MemoryUpdatedSchema = z.object({ node_id: z.number(), supersedes: z.number(), links_moved: z.number() });

export const MemoryDeletedSchema = z.object({
  node_id: z.number(),
  purged: z.boolean(),
  nodes_deleted: z.array(z.number()),
  links_deleted: z.number(),
});

export const LinkCreatedSchema = z.object({ source: z.number(), target: z.number(), relation: z.string(), strength: z.number() });

/** 202: the write is queued behind earlier ones; its task is followed until done. */
export const PendingSchema = z.object({ task_id: z.string(), status: z.string() });

export const TaskStatusSchema = z.object({
  task_id: z.string(),
  status: z.string(),
  error: z.nullable(z.string()),
  result: z.nullable(z.record(z.string(), z.unknown())),
});

export const HistorySchema = z.object({
  node_id: z.number(),
  history: z.array(z.object({ node_id: z.number(), content: z.string(), created_at: z.number(), superseded_by: z.nullable(z.number()) })),
});

/** The details of a 409 for an ambiguous link end: the memories the description could mean. */
export const LinkCandidatesSchema = z.object({
  end: z.string(),
  description: z.string(),
  candidates: z.array(z.object({ node_id: z.number(), content: z.string(), score: z.number() })),
});

export type AgentList = z.infer<typeof AgentListSchema>;
export type AgentDeleted = z.infer<typeof AgentDeletedSchema>;
export type FocusView = z.infer<typeof FocusSchema>;
export type LinkView = z.infer<typeof LinkViewSchema>;
export type NodeView = z.infer<typeof NodeViewSchema>;
export type StatsView = z.infer<typeof StatsSchema>;
export type ConfigView = z.infer<typeof ConfigSchema>;
export type RecallJson = z.infer<typeof RecallJsonSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
export type ContextBlock = z.infer<typeof ContextBlockSchema>;
export type MemoryCreated = z.infer<typeof MemoryCreatedSchema>;
export type MemoryUpdated = z.infer<typeof MemoryUpdatedSchema>;
export type MemoryDeleted = z.infer<typeof MemoryDeletedSchema>;
export type LinkCreated = z.infer<typeof LinkCreatedSchema>;
export type History = z.infer<typeof HistorySchema>;
