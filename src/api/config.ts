import { z } from "@hono/zod-openapi";
import { AgentParamsPatchSchema, AgentParamsSchema } from "../config/params";

export const ConfigSchema = AgentParamsSchema.openapi("AgentConfig");
export const ConfigPatchSchema = AgentParamsPatchSchema.openapi("AgentConfigPatch", {
  description:
    "Any subset of the parameters; each is validated like the whole. Takes effect on the next compression cycle (focus_limit: on the next remember).",
});

export const MAX_CYCLES_PER_REQUEST = 1000;

export const CompressRequestSchema = z
  .object({
    cycles: z.number().int().min(1).max(MAX_CYCLES_PER_REQUEST).default(1).openapi({ description: "Compression cycles to queue." }),
  })
  .strict()
  .openapi("CompressRequest");

export const CompressAcceptedSchema = z.object({ task_ids: z.array(z.string()), status: z.literal("queued") }).openapi("CompressAccepted");

/** PUT config's answer when the change is still queued behind earlier writes: follow the task. */
export const ConfigPendingSchema = z.object({ task_id: z.string(), status: z.enum(["queued", "running"]) }).openapi("ConfigPending");
