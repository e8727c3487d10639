/**
 * A memory as reads show it (docs/design.md, "Memory operations"): a node view with its conflicts,
 * aliases and versions. The agent's own zod schemas: the routes (getMemory, getMemoryHistory) give
 * them OpenAPI names and serve them as they are.
 */
import { z } from "zod";
import { viewFields } from "./node-fields";
import { NodeViewSchema } from "./node-view";

/** A version of a memory: the one that corrected it is `superseded_by` (null for the current version). */
export const HistoryEntrySchema = z.object(viewFields("node_id", "content", "created_at", "superseded_by"));

/** Versions a memory view lists; the history endpoint pages through the rest. */
export const HISTORY_IN_VIEW = 50;
export const DEFAULT_HISTORY_PAGE = 50;
export const MAX_HISTORY_PAGE = 200;

export const MemoryViewSchema = NodeViewSchema.extend({
  ...viewFields("conflicts_with"),
  /** Other names that lead to this entity (empty for a memory). */
  aliases: z.array(z.object({ key: z.string(), name: z.string() })),
  /**
   * The versions of this memory, oldest first, this one included: earlier ones were corrected
   * (更正). At most HISTORY_IN_VIEW; `history_next_cursor` pages on through GET …/history.
   */
  history: z.array(HistoryEntrySchema),
  history_next_cursor: z.string().nullable(),
});

export type MemoryView = z.infer<typeof MemoryViewSchema>;
