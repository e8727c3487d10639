/** getContext (docs/design.md, "Context for prompts: episodes, profile, context block"): a context block for a prompt, within a token budget. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, EmptyQuerySchema, errorsOf, TextSchema } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { LANGUAGES, READ } from "../../surfaces/tool-args";
import { MAX_MESSAGE_CODE_POINTS } from "../../config/limits";
import { localePreference } from "../../http/accept-language";
import { LOCALES } from "../../vocabulary/locales";
import { MEMORY_FILTER_FIELDS } from "../../surfaces/memory-filter";
import { MESSAGE_ROLES } from "../../vocabulary/roles";
import {
  CONTEXT_SECTIONS,
  ContextResultSchema,
  DEFAULT_CONTEXT_BUDGET,
  MAX_CONTEXT_BUDGET,
  MAX_CONTEXT_MESSAGES,
  MIN_CONTEXT_BUDGET,
} from "./schemas";

const ContextRequestSchema = z
  .object({
    query: TextSchema.trim().min(1).max(2000).optional().openapi({ description: "What the block is for; or give `messages`." }),
    messages: z
      .array(
        z
          .object({
            role: z.enum(MESSAGE_ROLES),
            content: TextSchema.min(1).max(MAX_MESSAGE_CODE_POINTS),
            name: TextSchema.trim().min(1).max(128).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_CONTEXT_MESSAGES)
      .optional()
      .openapi({ description: "The conversation so far: the query is built from its latest turns." }),
    budget_tokens: z.number().int().min(MIN_CONTEXT_BUDGET).max(MAX_CONTEXT_BUDGET).default(DEFAULT_CONTEXT_BUDGET).openapi({
      description:
        "The block never exceeds this many tokens (an upper-bound estimate: 1.5 per CJK character, 0.34 per ASCII character, 1 per other).",
    }),
    include: z.array(z.enum(CONTEXT_SECTIONS)).min(1).default(["memories", "episodes", "traces"]).openapi({
      description:
        "Sections: memories, episodes (when the query asks about an earlier conversation), profile (the participants of `messages` first), traces.",
    }),
    locale: z.enum(LOCALES).optional().openapi({
      description: "Language of the block's labels; default: Accept-Language, else the language of the agent's memories, else English.",
    }),
    format: z.enum(["text", "json"]).default("text"),
    ...MEMORY_FILTER_FIELDS,
  })
  .strict()
  .refine((r) => r.query === undefined || r.messages === undefined, {
    message: "give either query or messages, not both",
    path: ["messages"],
  })
  .openapi("ContextRequest");

const ContextResponseSchema = ContextResultSchema.openapi("Context");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/context",
  operationId: "getContext",
  tags: ["context"],
  summary: "A context block for a prompt, within a token budget",
  description:
    "The memories recall ranks for the query (or for the latest messages), each with its energy (● ○ ◌ from min(importance, 1)) and the entities it is about, conflicts marked; the latest episodes first when the query asks about an earlier conversation; traces of forgotten memories; the profile when asked. Never longer than `budget_tokens`: pieces are taken whole, most relevant first. Plain text by default, JSON with `format: json`.",
  request: {
    params: AgentPathSchema,
    query: EmptyQuerySchema,
    body: { required: true, content: { "application/json": { schema: ContextRequestSchema } } },
  },
  responses: {
    200: {
      description: "The block",
      content: { "text/plain": { schema: z.string() }, "application/json": { schema: ContextResponseSchema } },
    },
    ...errorsOf({ body: true }),
  },
});

export const getContext: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const { text, used_tokens } = await agent.getContext({ query: "Plan Ines's visit", budget_tokens: 800 });
console.log(used_tokens, text);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const { text } = unwrap(await env.MEMORY.getContext("assistant-1", { query: "Plan Ines's visit", budget_tokens: 600 }));`,
    },
    fixedBody: { format: "json" },
    tool: {
      name: "get_context",
      title: "Context block for a prompt",
      description: `A block ready to put in front of a prompt: the memories most relevant to a query (or to the latest messages), each with its importance (● strong, ○ medium, ◌ weak) and entities, conflicts marked; summaries of earlier conversations when the query asks about one ("last time", 上次); traces of forgotten memories; the profile when included. Never longer than \`budget_tokens\`. Across every conversation by default; session_ids, speakers and metadata narrow it. ${LANGUAGES}`,
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { format, locale, ...request } = c.req.valid("json");
      const result = await agentOf(c, c.req.valid("param").agentId).ask("getContext", { ...request, ...localePreference(c, locale) });
      if (format === "json") return c.json(result, 200);
      return c.text(result.text, 200);
    }),
};
