/**
 * What the routes of one memory share (createMemory, getMemory, getMemoryHistory, listMemories,
 * updateMemory, deleteMemory, pinMemory, unpinMemory; docs/design.md, "Memory operations (as
 * built)"): a memory's text, its path, the cursor of a page, and the answers for a memory that is
 * missing or not applicable (a write refused as the memory stands).
 */
import { z } from "@hono/zod-openapi";
import { ApiError } from "../http/errors";
import type { PinResult, PinStateSchema } from "../operations/pin-memory/task";
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

/** A write on one memory refused as the memory stands (its task's result). */
export type MemoryRefusal =
  { outcome: "not_found" } | { outcome: "not_a_memory"; kind: string } | { outcome: "superseded"; superseded_by: number };

/**
 * The answer to a refused write on one memory: 404 when there is none, 409 for an entity (not a
 * memory) or a superseded version (naming the current one, `details.superseded_by`). `instead`: what
 * the caller can do instead, for each 409.
 */
export function memoryRefused(nodeId: number, refusal: MemoryRefusal, instead: { entity?: string; superseded: string }): never {
  switch (refusal.outcome) {
    case "not_found":
      throw new ApiError("not_found", `memory ${nodeId} not found`);
    case "not_a_memory":
      throw new ApiError("conflict", `node ${nodeId} is an ${refusal.kind}, not a memory${instead.entity ? `: ${instead.entity}` : ""}`);
    case "superseded":
      throw new ApiError("conflict", `memory ${nodeId} was superseded by ${refusal.superseded_by}: ${instead.superseded}`, {
        details: { superseded_by: refusal.superseded_by },
      });
  }
}

/** A link as linkMemories and unlinkMemories answer it. */
export const LinkSchema = z
  .object({ source: z.number().int(), target: z.number().int(), relation: z.string(), strength: z.number() })
  .openapi("Link");

/** pinMemory's and unpinMemory's answer to their task's result: the pin's state, or the refusal as an ApiError (`superseded`: what to do instead). */
export function pinState(result: PinResult, nodeId: number, superseded: string): z.infer<typeof PinStateSchema> {
  switch (result.outcome) {
    case "done": {
      const { outcome: _done, ...pin } = result;
      return pin;
    }
    case "limit": // only a pin counts against max_pins: never the answer to an unpin
      throw new ApiError(
        "conflict",
        `the agent has ${result.pins} pinned memories, its max_pins: unpin one first, or raise max_pins (PUT config)`,
        { details: { pins: result.pins, max_pins: result.max_pins } },
      );
    default:
      return memoryRefused(nodeId, result, { entity: "only memories are pinned", superseded });
  }
}
