/** `wait_ms` of the reads that can wait for the agent's work (getTask, getStats). */
import { z } from "@hono/zod-openapi";

/** Plain decimal only: "010", "1e3", "0x10" or "+5" are not read as some number of milliseconds. */
const WAIT_MS = /^(0|[1-9][0-9]{0,4})$/;

export const TaskWaitQuerySchema = z
  .object({
    wait_ms: z
      .string()
      .regex(WAIT_MS, "wait_ms: milliseconds, 0–30000, in plain decimal")
      .transform(Number)
      .refine((n) => n <= 30_000, "wait_ms: at most 30000")
      .optional()
      // The transform hides the pattern from the generated document: stated here again.
      .openapi({
        description: "Wait up to this long (ms) for the work to finish before answering.",
        type: "string",
        pattern: WAIT_MS.source,
      }),
  })
  .strict();
