/** getProfile (docs/design.md, "The profile"): what the memory says about the people in it. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, errorResponses, TextSchema } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { READ } from "../../surfaces/tool-args";
import { localePreference } from "../../http/accept-language";
import { LOCALES } from "../../vocabulary/locales";
import { DEFAULT_PROFILE_CHARS, MAX_PARTICIPANT_NAME, MAX_PROFILE_CHARS, MIN_PROFILE_CHARS, ProfileResultSchema } from "./schemas";

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

const route = createRoute({
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

export const getProfile: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    sdk: {
      example: `const profile = await agent.getProfile({ participant: "John", max_chars: 1000 });
for (const line of profile.lines) console.log(line.text, line.memory_ids);`,
      binding: `import { unwrap } from "@agent-memory/sdk";
const profile = unwrap(await env.MEMORY.getProfile("assistant-1"));`,
    },
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
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const { locale, ...query } = c.req.valid("query");
      const result = await agentOf(c, c.req.valid("param").agentId).ask("getProfile", { ...query, ...localePreference(c, locale) });
      return c.json(result, 200);
    }),
};
