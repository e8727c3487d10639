/**
 * What the routes of one memory share (createMemory, getMemory, getMemoryHistory, listMemories,
 * updateMemory, deleteMemory; docs/design.md, "Memory operations (as built)"): a memory's text, its
 * path, the cursor of a page, and the answers for a memory that is missing or not applicable.
 */
import { z } from "@hono/zod-openapi";
import { decodeIdCursor } from "../operations/shared/cursor";
import { AgentIdSchema, ErrorSchema, jsonAnswer, NodeIdSchema } from "./common-schemas";
import { ContentSchema } from "./messages";

/** A memory's text: as a message's (src/text/memory-text.ts), at most as long as one message. */
export const MemoryContentSchema = ContentSchema;

export const MemoryPathSchema = z.object({ agentId: AgentIdSchema, nodeId: NodeIdSchema });

/** The `cursor` of the listing and of a history: a `next_cursor` this API gave (src/operations/shared/cursor.ts). */
export const PageCursorQuery = z
  .string()
  .refine((c) => decodeIdCursor(c) !== undefined, "not a cursor returned by this endpoint")
  .optional()
  .openapi({ description: "`next_cursor` of the previous page; omit for the first page." });

export const MEMORY_NOT_FOUND = jsonAnswer(ErrorSchema, "No such memory in this agent");
export const NOT_APPLICABLE = jsonAnswer(ErrorSchema, "Not applicable to this node as it stands");

/** A link as linkMemories and unlinkMemories answer it. */
export const LinkSchema = z
  .object({ source: z.number().int(), target: z.number().int(), relation: z.string(), strength: z.number() })
  .openapi("Link");
