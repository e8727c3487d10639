/**
 * What the routes of one memory share (createMemory, getMemory, getMemoryHistory, listMemories,
 * updateMemory, deleteMemory; docs/design.md, "Memory operations (as built)"): a memory's text, its
 * path, the cursor of a page, and the answers for a memory that is missing or not applicable.
 */
import { z } from "@hono/zod-openapi";
import { MAX_MESSAGE_CODE_POINTS } from "../config/limits";
import { decodeIdCursor } from "../operations/shared/cursor";
import { codePointLength } from "../text/code-points";
import { AgentIdSchema, ErrorSchema, jsonAnswer, NodeIdSchema, TextSchema } from "./common-schemas";
import { TOO_LARGE } from "../http/errors";

/** A memory's text: non-blank, at most as long as one message. */
export const MemoryContentSchema = TextSchema.superRefine((s, ctx) => {
  if (s.trim().length === 0) ctx.addIssue({ code: "custom", message: "content must not be empty" });
  if (codePointLength(s) > MAX_MESSAGE_CODE_POINTS)
    ctx.addIssue({ code: "custom", message: `content exceeds ${MAX_MESSAGE_CODE_POINTS} characters`, params: { [TOO_LARGE]: true } });
});

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
