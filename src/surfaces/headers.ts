import { z } from "@hono/zod-openapi";

/**
 * The Idempotency-Key header of every write: a retry with the same key and the same request gets
 * the first answer's task and queues nothing again; with a different request it is refused (422).
 * Kept for 24 hours per agent.
 */
export const WriteHeadersSchema = z.object({
  "idempotency-key": z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, "Idempotency-Key: 1–255 visible ASCII characters")
    .optional()
    .openapi({
      param: { name: "idempotency-key", in: "header" },
      description: "Makes a retried write safe: the same key with the same request answers as the first time and writes nothing.",
      example: "7f1c2e6a-remember-42",
    }),
});
