import { z } from "@hono/zod-openapi";
import { MAX_MESSAGE_CODE_POINTS, MAX_MESSAGES_PER_REMEMBER, MAX_REMEMBER_CODE_POINTS } from "../config/limits";
import { codePointLength } from "../text/code-points";
import { TOO_LARGE } from "./common";

/** Epoch values below this are taken as seconds, above as milliseconds (year 5138 vs 1973). */
const SECONDS_CUTOFF = 1e11;

export const TimestampSchema = z
  .union([z.number().nonnegative().finite(), z.iso.datetime({ offset: true })])
  .transform((t) => (typeof t === "string" ? Date.parse(t) : t < SECONDS_CUTOFF ? Math.round(t * 1000) : Math.round(t)))
  .openapi({ description: "Seconds or milliseconds since the epoch, or an ISO 8601 date-time.", example: 1732300000000 });

export const MessageSchema = z
  .object({
    role: z.enum(["user", "assistant", "system"]),
    content: z.string().superRefine((s, ctx) => {
      if (s.trim().length === 0) ctx.addIssue({ code: "custom", message: "content must not be empty" });
      if (codePointLength(s) > MAX_MESSAGE_CODE_POINTS)
        ctx.addIssue({ code: "custom", message: `content exceeds ${MAX_MESSAGE_CODE_POINTS} characters`, params: { [TOO_LARGE]: true } });
    }),
    name: z.string().trim().min(1).max(128).optional().openapi({ description: "The speaker's name.", example: "Alice" }),
    timestamp: TimestampSchema.optional(),
    id: z.string().min(1).max(256).optional().openapi({ description: "Your id for the message, kept as provenance.", example: "m-17" }),
  })
  .openapi("Message");

export type RememberMessage = z.output<typeof MessageSchema>;

export const RememberRequestSchema = z
  .object({
    messages: z
      .array(MessageSchema)
      .min(1, "messages must not be empty")
      .superRefine((messages, ctx) => {
        if (messages.length > MAX_MESSAGES_PER_REMEMBER)
          ctx.addIssue({
            code: "custom",
            message: `at most ${MAX_MESSAGES_PER_REMEMBER} messages per call`,
            params: { [TOO_LARGE]: true },
          });
        const total = messages.reduce((sum, m) => sum + codePointLength(m.content), 0);
        if (total > MAX_REMEMBER_CODE_POINTS)
          ctx.addIssue({
            code: "custom",
            message: `messages exceed ${MAX_REMEMBER_CODE_POINTS} characters in total`,
            params: { [TOO_LARGE]: true },
          });
      }),
  })
  .openapi("RememberRequest");

export const RememberAcceptedSchema = z
  .object({
    task_id: z.string(),
    status: z.literal("queued"),
    /** Foreground tasks ahead of this one in the agent's queue. */
    queued_ahead: z.number().int(),
  })
  .openapi("RememberAccepted");
