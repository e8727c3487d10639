/** Schemas of the agent listing: `GET /v1/agents?cursor=&limit=` (one tenant's agents, paged). */
import { z } from "@hono/zod-openapi";
import { AGENT_ID_PATTERN } from "../config/limits";

export const DEFAULT_AGENT_PAGE = 50;
export const MAX_AGENT_PAGE = 200;

/**
 * The cursor is opaque to clients: the base64url text of the last agent id of the previous page.
 * Agent ids are ASCII (AGENT_ID_PATTERN), so the encoding is plain base64url of those bytes.
 */
export function encodeAgentCursor(agentId: string): string {
  return btoa(agentId).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The agent id inside a cursor, or undefined when the text is not a cursor this API issued. */
export function decodeAgentCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(cursor)) return undefined;
  let text: string;
  try {
    text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return undefined;
  }
  return AGENT_ID_PATTERN.test(text) ? text : undefined;
}

export const AgentListQuerySchema = z
  .object({
    cursor: z
      .string()
      .refine((c) => decodeAgentCursor(c) !== undefined, "not a cursor returned by this endpoint")
      .optional()
      .openapi({ description: "`next_cursor` of the previous page; omit for the first page.", example: "c3VwcG9ydC1ib3QtNDI" }),
    limit: z
      .string()
      .regex(/^[1-9][0-9]{0,2}$/, `limit: agents per page, 1–${MAX_AGENT_PAGE}`)
      .transform(Number)
      .refine((n) => n <= MAX_AGENT_PAGE, `limit: at most ${MAX_AGENT_PAGE}`)
      .optional()
      .transform((n) => n ?? DEFAULT_AGENT_PAGE)
      .openapi({ description: `Agents per page (1–${MAX_AGENT_PAGE}).`, example: String(DEFAULT_AGENT_PAGE), type: "string" }),
  })
  .strict();

export const AgentSummarySchema = z
  .object({
    agent_id: z.string().openapi({ example: "support-bot-42" }),
    /** When the agent was first written to (ms since epoch). */
    created_at: z.number().int(),
    /** Its latest write or scheduled-work update (ms since epoch). */
    last_active_at: z.number().int(),
  })
  .openapi("AgentSummary");

export const AgentListSchema = z
  .object({
    agents: z.array(AgentSummarySchema),
    /** Pass as `cursor` to get the next page; null on the last page. */
    next_cursor: z.string().nullable(),
  })
  .openapi("AgentList");

export type AgentList = z.infer<typeof AgentListSchema>;
