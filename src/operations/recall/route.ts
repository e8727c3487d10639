/** recall (docs/design.md, "recall(keywords, relations, depth)"): memories reached from the focus and by word and meaning matches. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, errorsOf, TextSchema } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { LANGUAGES, READ } from "../../surfaces/tool-args";
import { DEFAULT_RECALL_LIMIT, MAX_RECALL_DEPTH, MAX_RECALL_KEYWORDS, MAX_RECALL_LIMIT, MAX_RECALL_RELATIONS } from "../../config/limits";
import { localePreference } from "../../http/accept-language";
import { RECALL_KINDS, RecalledMemorySchema, RecalledTraceSchema } from "./schemas";
import { LOCALES } from "../../vocabulary/locales";
import { MEMORY_FILTER_FIELDS } from "../../surfaces/memory-filter";

const RecallRequestSchema = z
  .object({
    keywords: z
      .array(TextSchema.trim().min(1).max(200))
      .max(MAX_RECALL_KEYWORDS)
      .default([])
      .openapi({ description: "Memories matching any keyword are returned.", example: ["登录模块", "JWT"] }),
    query: TextSchema.trim().min(1).max(2000).optional().openapi({
      description:
        "Free text; its words are added to `keywords` by the classical analyzer (no model call, so a recall costs one query embedding at most).",
    }),
    expand: z.boolean().default(false).openapi({
      description:
        "Also ask the small model for the query's keywords (synonyms, names the words imply). Costs one text-generation call, about a second on Workers AI.",
    }),
    relations: z
      .array(TextSchema.trim().min(1).max(50))
      .max(MAX_RECALL_RELATIONS)
      .default([])
      .openapi({ description: "Follow only links with these relation names (empty: all).", example: ["关于"] }),
    depth: z
      .number()
      .int()
      .min(1)
      .max(MAX_RECALL_DEPTH)
      .optional()
      .openapi({ description: "BFS layers out from the focus; default: the agent's default_search_depth." }),
    limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).default(DEFAULT_RECALL_LIMIT),
    start: z.enum(["hybrid", "focus"]).default("hybrid").openapi({
      description:
        "Where the search enters the network. focus: the focus nodes only (the BFS of the original design). hybrid: the focus plus full-text and vector hits for the keywords, fused (focus-reached memories win ties).",
    }),
    format: z.enum(["text", "json"]).default("text"),
    locale: z.enum(LOCALES).optional().openapi({
      description:
        "Language of the labels in text output; default: Accept-Language, else the language of the agent's memories, else English.",
    }),
    kinds: z.array(z.enum(RECALL_KINDS)).min(1).default(["segment", "memory"]).openapi({
      description:
        "Kinds of memory to return: conversation segments and explicit memories by default; add `episode` for episode summaries.",
    }),
    ...MEMORY_FILTER_FIELDS,
  })
  .strict()
  .openapi("RecallRequest");

const RecallUrlQuerySchema = z
  .object({
    format: z.enum(["text", "json"]).optional(),
    locale: z.enum(LOCALES).optional(),
  })
  .strict();

const MemoryItemSchema = RecalledMemorySchema.openapi("MemoryItem");
const ForgottenItemSchema = RecalledTraceSchema.openapi("ForgottenItem");

const RecallResponseSchema = z
  .object({
    items: z.array(z.union([MemoryItemSchema, ForgottenItemSchema])),
    /** How many nodes the search started from: the focus nodes, plus search hits with start=hybrid. */
    start_nodes: z.number().int(),
    reached_nodes: z.number().int(),
    /** The same memories as the plain-text answer: what a model reads. */
    text: z.string(),
  })
  .openapi("RecallResponse");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/recall",
  operationId: "recall",
  tags: ["memory"],
  summary: "Recall memories",
  description:
    "Breadth-first search from the agent's focus, `depth` layers out, optionally along the given relations only; memories matching the keywords are ranked (keyword hits, path strength, importance). Plain text by default (`[memory] …` or `[记忆] …` separated by `---`, forgotten traces last; the labels' language: `locale`, else Accept-Language, else the language of the agent's memories, else English); `format: json` (or `?format=json`) returns the items with ids, provenance and scores. Goes through the agent's queue, so it sees every remember accepted before it.",
  request: {
    params: AgentPathSchema,
    query: RecallUrlQuerySchema,
    body: { required: true, content: { "application/json": { schema: RecallRequestSchema } } },
  },
  responses: {
    200: {
      description: "The recalled memories",
      content: {
        "text/plain": { schema: z.string() },
        "application/json": { schema: RecallResponseSchema },
      },
    },
    ...errorsOf({ body: true }),
  },
});

export const recall: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const { text, items } = await agent.recall({ query: "Where does Ines live?", limit: 5 });
console.log(text, items.length);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const { text } = unwrap(await env.MEMORY.recall("assistant-1", { query: "Where does Ines live?" }));`,
    },
    fixedBody: { format: "json" },
    tool: {
      name: "recall",
      title: "Recall memories",
      description: `Recall what the agent remembers about some keywords or a question: starts from its current focus and follows the links of its memory network, plus word and meaning matches. Returns the memories as text (\`[memory] …\`, or \`[记忆] …\` for Chinese memories or locale "zh"; forgotten ones as traces) and as items with ids and scores. Call it before answering anything that may depend on earlier conversations. Across every conversation by default; session_ids, speakers and metadata narrow what is returned. ${LANGUAGES}`,
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const query = c.req.valid("query");
      const { format, locale, ...body } = c.req.valid("json");
      const result = await agentOf(c, c.req.valid("param").agentId).ask("recall", {
        ...body,
        ...localePreference(c, query.locale ?? locale),
      });
      if ((query.format ?? format) === "json") {
        return c.json(
          {
            items: [...result.memories, ...result.traces],
            start_nodes: result.start_nodes,
            reached_nodes: result.reached_nodes,
            text: result.text,
          },
          200,
        );
      }
      return c.text(result.text, 200);
    }),
};
