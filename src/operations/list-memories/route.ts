/** listMemories (docs/design.md, "Memory operations (as built)"): segments, explicit memories and episodes, newest first. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { AgentPathSchema, errorResponses, jsonAnswer } from "../../surfaces/common-schemas";
import { PageCursorQuery } from "../../surfaces/memory-routes";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { defineOperation } from "../../surfaces/operation";
import { LANGUAGES, pageArgs, READ } from "../../surfaces/tool-args";
import { MEMORY_KINDS } from "../../vocabulary/node-kinds";
import { filterFields, MemoryFilterQuerySchema, MemoryFilterRequestSchema } from "../../surfaces/memory-filter";
import { decodeIdCursor, encodeIdCursor } from "../shared/cursor";
import { ListMemoriesResultSchema } from "./task";

const DEFAULT_MEMORY_PAGE = 50;
const MAX_MEMORY_PAGE = 200;

const MemoryListQuerySchema = z
  .object({
    kind: z
      .string()
      .regex(/^(segment|memory|episode)(,(segment|memory|episode))*$/, "kind: segment, memory or episode, comma-separated")
      .optional()
      .openapi({ description: "Kinds to list, comma-separated (default: all three; entities are never listed).", example: "memory" }),
    cursor: PageCursorQuery,
    limit: z
      .string()
      .regex(/^[1-9][0-9]{0,2}$/, `limit: memories per page, 1–${MAX_MEMORY_PAGE}`)
      .transform(Number)
      .refine((n) => n <= MAX_MEMORY_PAGE, `limit: at most ${MAX_MEMORY_PAGE}`)
      .optional()
      .openapi({ description: `Memories per page (1–${MAX_MEMORY_PAGE}, default ${DEFAULT_MEMORY_PAGE}).`, type: "string" }),
    include_superseded: z
      .enum(["true", "false"])
      .optional()
      .openapi({ description: "Also list versions that a newer one corrected (default false)." }),
    filter: MemoryFilterQuerySchema.optional(),
  })
  .strict();

function kindsOf(kind: string | undefined): (typeof MEMORY_KINDS)[number][] {
  if (kind === undefined) return [...MEMORY_KINDS];
  return [...new Set(kind.split(","))].filter((k): k is (typeof MEMORY_KINDS)[number] => (MEMORY_KINDS as readonly string[]).includes(k));
}

const MemoryListSchema = ListMemoriesResultSchema.omit({ next_before: true })
  .extend({ next_cursor: z.string().nullable() })
  .openapi("MemoryList");

const route = createRoute({
  operationId: "listMemories",
  method: "get",
  path: "/v1/agents/{agentId}/memories",
  tags: ["memories"],
  summary: "List memories, newest first",
  description:
    "Segments, explicit memories and episodes (never entities), newest first, paged by an opaque cursor that stays stable while memories are added. Superseded versions only with `include_superseded=true`. `filter` (the JSON of a MemoryFilter: sessions, speakers, tags, alternatives, time range) lists only the memories it passes.",
  request: { params: AgentPathSchema, query: MemoryListQuerySchema },
  responses: { 200: jsonAnswer(MemoryListSchema, "One page"), ...errorResponses },
});

export const listMemories: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `let cursor: string | undefined;
do {
  const page = await agent.listMemories({ limit: 100, ...(cursor === undefined ? {} : { cursor }) });
  for (const item of page.items) console.log(item.node_id, item.content);
  cursor = page.next_cursor ?? undefined;
} while (cursor !== undefined);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const { items, next_cursor } = unwrap(await env.MEMORY.listMemories("assistant-1", { limit: 50 }));`,
    },
    queryArgs: {
      kind: z.string().optional().describe("Kinds to list, comma-separated: segment, memory (explicit), episode (default all three)."),
      ...pageArgs("Memories"),
      include_superseded: z.boolean().optional().describe("true: also versions a newer one corrected."),
      filter: MemoryFilterRequestSchema.optional(),
    },
    tool: {
      name: "list_memories",
      title: "List memories",
      description: `Page through the agent's memories, newest first (never entities). To find something, search_memories or recall is better; this is for reviewing what is stored (filter: one conversation's, one speaker's, or by tags). ${LANGUAGES}`,
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const query = c.req.valid("query");
      // The cursor is opaque to clients (src/operations/shared/cursor.ts): the last id of the previous page.
      const before = query.cursor === undefined ? undefined : decodeIdCursor(query.cursor);
      const page = await agentOf(c, c.req.valid("param").agentId).ask("listMemories", {
        kinds: kindsOf(query.kind),
        ...(before !== undefined ? { before } : {}),
        limit: query.limit ?? DEFAULT_MEMORY_PAGE,
        include_superseded: query.include_superseded === "true",
        ...(query.filter ? filterFields(query.filter) : {}),
      });
      return c.json({ items: page.items, next_cursor: page.next_before === null ? null : encodeIdCursor(page.next_before) }, 200);
    }),
};
