/**
 * What the agent answers about its memories (docs/design.md, "Memory operations"): one memory with its links,
 * provenance, facts, aliases and history, and pages of memories. The agent's own zod schemas: the
 * HTTP layer (src/routes/memories.ts) gives them OpenAPI names and serves them as they are. Kept
 * apart from the builders so that reading them pulls in nothing but zod and the vocabulary.
 */
import { z } from "zod";
import { MEMORY_KINDS, NODE_KINDS } from "../../vocabulary/node-kinds";
import { MESSAGE_ROLES } from "../../vocabulary/roles";
import { LinksPageSchema, NodeViewSchema } from "./node-view-schema";

export const HistoryEntrySchema = z.object({
  node_id: z.number().int(),
  content: z.string(),
  created_at: z.number().int(),
  /** The version that corrected this one; null for the current version. */
  superseded_by: z.number().int().nullable(),
});

/** Versions a memory view lists; the history endpoint pages through the rest. */
export const HISTORY_IN_VIEW = 50;
export const DEFAULT_HISTORY_PAGE = 50;
export const MAX_HISTORY_PAGE = 200;

export const MemoryViewSchema = NodeViewSchema.extend({
  /** Memories this one contradicts (a 矛盾 link to a memory that still holds). */
  conflicts_with: z.array(z.number().int()),
  /** Other names that lead to this entity (empty for a memory). */
  aliases: z.array(z.object({ key: z.string(), name: z.string() })),
  /**
   * The versions of this memory, oldest first, this one included: earlier ones were corrected
   * (更正). At most HISTORY_IN_VIEW; `history_next_cursor` pages on through GET …/history.
   */
  history: z.array(HistoryEntrySchema),
  history_next_cursor: z.string().nullable(),
});

export const HistoryQuerySchema = z
  .object({
    node_id: z.number().int().min(1),
    /** Versions with a higher id than this (the previous page's last). */
    after: z.number().int().min(0),
    limit: z.number().int().min(1).max(MAX_HISTORY_PAGE),
  })
  .strict();

/** A page of a memory's versions, oldest first; null when the node does not exist. */
export const HistoryResultSchema = z.object({
  history: z.array(HistoryEntrySchema),
  total: z.number().int(),
  next_cursor: z.string().nullable(),
  found: z.boolean(),
});
export type HistoryResult = z.infer<typeof HistoryResultSchema>;
export type MemoryView = z.infer<typeof MemoryViewSchema>;

export const MemoryReadQuerySchema = z.object({ node_id: z.number().int().min(1), links: LinksPageSchema.optional() }).strict();

export const MemoryReadResultSchema = z.object({ memory: MemoryViewSchema.nullable() });
export type MemoryReadResult = z.infer<typeof MemoryReadResultSchema>;

export const MemoryListItemSchema = z.object({
  node_id: z.number().int(),
  kind: z.enum(NODE_KINDS),
  content: z.string(),
  phrase: z.string(),
  keywords: z.array(z.string()),
  speaker: z.string().nullable(),
  role: z.enum(MESSAGE_ROLES).nullable(),
  source_message_ids: z.array(z.string()),
  source_task_id: z.string().nullable(),
  message_time: z.number().int().nullable(),
  created_at: z.number().int(),
  superseded_by: z.number().int().nullable(),
  meta: z.record(z.string(), z.unknown()).nullable(),
  /** The sum of its outgoing link strengths (docs/design.md, "The model"). */
  importance: z.number(),
  conflicts_with: z.array(z.number().int()),
});
export type MemoryListItem = z.infer<typeof MemoryListItemSchema>;

export const MemoryListQuerySchema = z
  .object({
    kinds: z.array(z.enum(MEMORY_KINDS)).min(1),
    /** Only memories with a smaller id (the keyset cursor of the previous page). */
    before: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(200),
    include_superseded: z.boolean(),
  })
  .strict();
export type MemoryListQuery = z.infer<typeof MemoryListQuerySchema>;

export const MemoryListResultSchema = z.object({
  items: z.array(MemoryListItemSchema),
  /** Pass as `before` for the next page; null on the last page. */
  next_before: z.number().int().nullable(),
});
export type MemoryListResult = z.infer<typeof MemoryListResultSchema>;
