/** getProfile (docs/design.md, "Context for prompts: episodes, profile, context block"): who and what the memory is mostly about. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, errorResponses } from "../../surfaces/common-schemas";
import { defineOperation } from "../../surfaces/operation";
import { READ } from "../../surfaces/tool-args";
import { localePreference } from "../../http/accept-language";
import { LOCALES } from "../../vocabulary/locales";
import { ProfileResultSchema } from "./schemas";

const ProfileUrlQuerySchema = z
  .object({
    locale: z.enum(LOCALES).optional().openapi({
      description: "Language of the profile's labels; default: Accept-Language, else the language of the agent's memories, else English.",
    }),
  })
  .strict();

const ProfileResponseSchema = ProfileResultSchema.openapi("Profile");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/profile",
  operationId: "getProfile",
  tags: ["context"],
  summary: "The agent's profile: main participants, most important entities with their strongest memories, the focus",
  description: "Derived from the network when asked (it forgets as the network does).",
  request: { params: AgentPathSchema, query: ProfileUrlQuerySchema },
  responses: {
    200: { description: "The profile", content: { "application/json": { schema: ProfileResponseSchema } } },
    ...errorResponses,
  },
});

export const getProfile: Endpoint = {
  operation: defineOperation(route, {
    scope: "read",
    queryArgs: {
      locale: z.enum(LOCALES).optional().describe("Language of the profile's labels: zh or en (default: the language of the memories)."),
    },
    tool: {
      name: "get_profile",
      title: "Profile of the memory",
      description:
        "Who and what the agent's memory is mostly about: its main participants (by messages), its most important entities with their strongest memories, and its current focus; as data and as text.",
      annotations: READ,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const result = await agentOf(c, c.req.valid("param").agentId).ask("getProfile", localePreference(c, c.req.valid("query").locale));
      return c.json(result, 200);
    }),
};
