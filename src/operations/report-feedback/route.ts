/** reportFeedback (docs/design.md, "Memory operations (as built)"): the memories a caller used are reinforced. */
import { createRoute, z } from "@hono/zod-openapi";
import { agentOf, writeOptions } from "../../surfaces/agent-of";
import { subApp, type Endpoint } from "../../surfaces/endpoint";
import { AgentPathSchema, errorsOf, jsonAnswer } from "../../surfaces/common-schemas";
import { WriteHeadersSchema } from "../../surfaces/headers";
import { defineOperation } from "../../surfaces/operation";
import { OPERATION_WAIT_MS, pendingBody, whenFailed, PENDING_ANSWER } from "../../surfaces/pending";
import { WRITE } from "../../surfaces/tool-args";
import { ReportFeedbackResultSchema } from "./task";

const FeedbackRequestSchema = z
  .object({
    node_ids: z
      .array(
        z
          .number()
          .int()
          .min(1)
          .max(2 ** 30),
      )
      .min(1)
      .max(100),
    used: z.boolean().openapi({ description: "Whether the caller really used these memories (only used ones are reinforced)." }),
  })
  .strict()
  .openapi("FeedbackRequest");

const FeedbackSchema = ReportFeedbackResultSchema.openapi("Feedback");

const route = createRoute({
  operationId: "reportFeedback",
  method: "post",
  path: "/v1/agents/{agentId}/feedback",
  tags: ["links"],
  summary: "Report the memories you used: they are reinforced",
  description:
    "Recall never changes strengths. Reporting memories as used (`used: true`) raises each of their outgoing links by `reinforce_step` (default 0.3, capped at 1), at most once per memory per compression cycle; ids that are not memories of this agent are skipped with a reason.",
  request: {
    params: AgentPathSchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: FeedbackRequestSchema } } },
  },
  responses: { 200: jsonAnswer(FeedbackSchema, "What was reinforced"), 202: PENDING_ANSWER, ...errorsOf({ body: true, write: true }) },
});

export const reportFeedback: Endpoint = {
  operation: defineOperation(route, {
    scope: "write",
    sdk: {
      example: `await agent.reportFeedback({ node_ids: [12, 15], used: true });`,
      binding: `import { unwrap } from "@agent-memory/sdk";
unwrap(await env.MEMORY.reportFeedback("assistant-1", { node_ids: [12], used: true }));`,
    },
    tool: {
      name: "report_feedback",
      title: "Report which memories helped",
      description:
        "After answering with recalled memories, report the node_ids you used (used: true): their links are reinforced, so they are forgotten more slowly. Once per memory per forgetting cycle counts.",
      annotations: WRITE,
    },
  }),
  routes: () =>
    subApp().openapi(route, async (c) => {
      const outcome = await agentOf(c, c.req.valid("param").agentId).submit("reportFeedback", c.req.valid("json"), {
        waitMs: OPERATION_WAIT_MS,
        ...writeOptions(c.req.valid("header")),
      });
      whenFailed(outcome, "reportFeedback");
      if (!outcome.result) return c.json(pendingBody(outcome), 202);
      return c.json(outcome.result, 200);
    }),
};
