/** Context for prompts (docs/design.md, "Context for prompts: episodes, profile, context block"): the context block, the profile, and episodes for older memories. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../api/agent-of";
import { subApp, type Area } from "../api/area";
import { AgentPathSchema, EmptyQuerySchema, errorResponses, errorsOf, TextSchema } from "../api/common";
import { WriteHeadersSchema } from "../api/headers";
import { defineOperation } from "../api/operation";
import { LANGUAGES, READ } from "../api/tool-args";
import { MAX_MESSAGE_CODE_POINTS } from "../config/limits";
import { localePreference } from "../http/accept-language";
import {
  CONTEXT_SECTIONS,
  ContextResultSchema,
  DEFAULT_CONTEXT_BUDGET,
  DEFAULT_PROFILE_CHARS,
  MAX_CONTEXT_BUDGET,
  MAX_CONTEXT_MESSAGES,
  MAX_PARTICIPANT_NAME,
  MAX_PROFILE_CHARS,
  MIN_CONTEXT_BUDGET,
  MIN_PROFILE_CHARS,
  ProfileResultSchema,
} from "../operations/views/get-context-schemas";
import { LOCALES } from "../vocabulary/locales";
import { MESSAGE_ROLES } from "../vocabulary/roles";

/** How long a rebuild request waits before answering with its task. */
const REBUILD_WAIT_MS = 25_000;

/** Plain decimal only, as every number in a query string. */
const CHARS = /^[1-9][0-9]{0,4}$/;

const ProfileUrlQuerySchema = z
  .object({
    locale: z.enum(LOCALES).optional().openapi({
      description: "Language of the profile's labels; default: Accept-Language, else the language of the agent's memories, else English.",
    }),
    participant: TextSchema.trim().min(1).max(MAX_PARTICIPANT_NAME).optional().openapi({
      description: "Only this participant (a speaker's name, as the messages gave it; case does not matter); default: every participant.",
    }),
    max_chars: z
      .string()
      .regex(CHARS, `max_chars: ${MIN_PROFILE_CHARS}–${MAX_PROFILE_CHARS}, in plain decimal`)
      .transform(Number)
      .refine((n) => n >= MIN_PROFILE_CHARS && n <= MAX_PROFILE_CHARS, `max_chars: ${MIN_PROFILE_CHARS}–${MAX_PROFILE_CHARS}`)
      .optional()
      // The transform hides the pattern from the generated document: stated here again.
      .openapi({
        description: `The text's length at most, in code points (${MIN_PROFILE_CHARS}–${MAX_PROFILE_CHARS}, default ${DEFAULT_PROFILE_CHARS}).`,
        type: "string",
        pattern: CHARS.source,
      }),
  })
  .strict();

const ProfileResponseSchema = ProfileResultSchema.openapi("Profile");

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
  })
  .strict()
  .refine((r) => r.query === undefined || r.messages === undefined, {
    message: "give either query or messages, not both",
    path: ["messages"],
  })
  .openapi("ContextRequest");

const ContextResponseSchema = ContextResultSchema.openapi("Context");

const RebuildEpisodesAcceptedSchema = z
  .object({ task_id: z.string(), status: z.enum(["queued", "running", "done"]), episodes_created: z.number().int().nullable() })
  .openapi("EpisodesRebuild");

export const contextRoute = createRoute({
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

export const profileRoute = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/profile",
  operationId: "getProfile",
  tags: ["context"],
  summary:
    "What the memory says about the people in it: per participant, the statements that together say the most, each with its memories",
  description:
    "Derived from the network when asked (it forgets as the network does; reading it changes nothing). For one participant (`participant`) or everyone: the participants by messages; lines chosen together within `max_chars` (statements about the speaker over questions and reactions, spread over sessions, no two lines saying the same), each with the ids of the memories it comes from, in the language it was said; the entities those memories are about; the focus. `text` is the profile as the context block shows it, never longer than `max_chars`.",
  request: { params: AgentPathSchema, query: ProfileUrlQuerySchema },
  responses: {
    200: { description: "The profile", content: { "application/json": { schema: ProfileResponseSchema } } },
    ...errorResponses,
  },
});

export const rebuildEpisodesRoute = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/episodes/rebuild",
  operationId: "rebuildEpisodes",
  tags: ["context"],
  summary: "Give episodes to submissions remembered before episodes existed",
  description: "Runs in order with the agent's writes; waits up to 25 s, then answers 202 with the task.",
  request: { params: AgentPathSchema, query: EmptyQuerySchema, headers: WriteHeadersSchema },
  responses: {
    200: { description: "Done", content: { "application/json": { schema: RebuildEpisodesAcceptedSchema } } },
    202: { description: "Under way", content: { "application/json": { schema: RebuildEpisodesAcceptedSchema } } },
    ...errorsOf({ write: true }),
  },
});

const getContext = defineOperation(contextRoute, {
  fixedBody: { format: "json" },
  tool: {
    name: "get_context",
    title: "Context block for a prompt",
    description: `A block ready to put in front of a prompt: the memories most relevant to a query (or to the latest messages), each with its importance (● strong, ○ medium, ◌ weak) and entities, conflicts marked; summaries of earlier conversations when the query asks about one ("last time", 上次); traces of forgotten memories; the profile when included. Never longer than \`budget_tokens\`. ${LANGUAGES}`,
    annotations: READ,
  },
});

const getProfile = defineOperation(profileRoute, {
  queryArgs: {
    locale: z.enum(LOCALES).optional().describe("Language of the profile's labels: zh or en (default: the language of the memories)."),
    participant: z
      .string()
      .min(1)
      .max(MAX_PARTICIPANT_NAME)
      .optional()
      .describe("Only this participant (a speaker's name); default: everyone."),
    max_chars: z
      .number()
      .int()
      .min(MIN_PROFILE_CHARS)
      .max(MAX_PROFILE_CHARS)
      .optional()
      .describe(`Length of the text at most, in characters (default ${DEFAULT_PROFILE_CHARS}).`),
  },
  tool: {
    name: "get_profile",
    title: "Profile of the people in the memory",
    description:
      "What the memory says about the people in it, for one participant or everyone: the participants (by messages), the statements that together say the most about each (their own words, each with the ids of its memories), the entities those are about, and the current focus; as data and as text within `max_chars`.",
    annotations: READ,
  },
});

const rebuildEpisodes = defineOperation(rebuildEpisodesRoute, {
  tool: {
    name: "rebuild_episodes",
    title: "Rebuild episodes",
    description:
      "Give an episode (a summary of one conversation, its participants and time span) to every conversation remembered before episodes existed. Maintenance: once after an upgrade, when get_context finds no earlier conversations that should be there; calling it again does nothing more.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
});

export const CONTEXT: Area = {
  operations: [getContext, getProfile, rebuildEpisodes],
  routes: () =>
    subApp()
      .openapi(contextRoute, async (c) => {
        const { format, locale, ...request } = c.req.valid("json");
        const result = await agentOf(c, c.req.valid("param").agentId).ask("getContext", { ...request, ...localePreference(c, locale) });
        if (format === "json") return c.json(result, 200);
        return c.text(result.text, 200);
      })
      .openapi(profileRoute, async (c) => {
        const { locale, ...query } = c.req.valid("query");
        const result = await agentOf(c, c.req.valid("param").agentId).ask("getProfile", { ...query, ...localePreference(c, locale) });
        return c.json(result, 200);
      })
      .openapi(rebuildEpisodesRoute, async (c) => {
        const agent = agentOf(c, c.req.valid("param").agentId);
        const outcome = await agent.submit("rebuildEpisodes", {}, { waitMs: REBUILD_WAIT_MS, ...writeOptions(c.req.valid("header")) });
        const body = {
          task_id: outcome.taskIds[0] ?? "",
          status: outcome.status === "done" ? ("done" as const) : outcome.status === "running" ? ("running" as const) : ("queued" as const),
          episodes_created: outcome.result?.episodes_created ?? null,
        };
        return body.status === "done" ? c.json(body, 200) : c.json(body, 202);
      }),
};
