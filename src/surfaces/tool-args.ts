/** What several tool entries share: their MCP hints, their language note and common arguments. */
import { z } from "zod";
import type { PathArgument, ToolAnnotations } from "./operation";

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A write the memory answers when applied (or 202 with a task id after 25 s). */
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** Both languages work everywhere; said once in every tool that takes or returns memory text. */
export const LANGUAGES = "Memories may be Chinese or English (中文或英文均可).";

export const waitMs = z
  .number()
  .int()
  .min(0)
  .max(30_000)
  .optional()
  .describe("Wait up to this many milliseconds (at most 30000) for the work to finish before answering.");

/** A node view's page of links, as tool arguments (src/operations/shared/node-view.ts). */
export const linksPageArgs = {
  links_limit: z.number().int().min(1).max(1000).optional().describe("Links listed per direction (1–1000, default 200)."),
  links_cursor: z.string().optional().describe("links.next_cursor of the previous answer for this node: the next page of its links."),
};

/**
 * A memory's node id as a tool argument: an integer for the model (at most `max`), the path
 * parameter `nodeId` over HTTP.
 */
export const nodeIdArgument = (what: string, max = 2 ** 30): Record<string, PathArgument> => ({
  node_id: {
    param: "nodeId",
    schema: z.number().int().min(1).max(max).describe(what),
  },
});

/** `cursor` and `limit` of a paged list, as tool arguments. */
export const pageArgs = (what: string) => ({
  cursor: z.string().optional().describe("next_cursor of the previous page; omit for the first page."),
  limit: z.number().int().min(1).max(200).optional().describe(`${what} per page (1–200, default 50).`),
});
