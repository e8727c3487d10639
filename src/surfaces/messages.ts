/** The message and the point in time as clients send them (remember, search, memories). */
import { z } from "@hono/zod-openapi";
import { MAX_MESSAGE_CODE_POINTS, MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS } from "../config/limits";
import { TOO_LARGE } from "../http/errors";
import { codePointLength } from "../text/code-points";
import { memoryTextProblem } from "../text/memory-text";
import { MESSAGE_ROLES } from "../vocabulary/roles";
import { TextSchema } from "./common-schemas";

/** Epoch numbers below this magnitude are taken as seconds, above as milliseconds (year 5138 vs 1973). */
const SECONDS_CUTOFF = 1e11;

/**
 * A point in time as a client may give it: seconds or milliseconds since the epoch (negative
 * before 1970), or an ISO 8601 date-time. Converted here, once, to whole milliseconds; the agent
 * stores exactly that number. Outside the years 0001–9999 it is refused.
 */
export const TimestampSchema = z
  .union([z.number().finite(), z.iso.datetime({ offset: true })])
  .transform((t, ctx) => {
    const ms = typeof t === "string" ? Date.parse(t) : Math.abs(t) < SECONDS_CUTOFF ? Math.round(t * 1000) : Math.round(t);
    if (!(ms >= MIN_TIMESTAMP_MS && ms <= MAX_TIMESTAMP_MS)) {
      ctx.addIssue({ code: "custom", message: "timestamp outside the years 0001–9999" });
      return z.NEVER;
    }
    return ms;
  })
  .openapi({
    description: "Seconds or milliseconds since the epoch (numbers below 1e11 in magnitude are seconds), or an ISO 8601 date-time.",
    example: 1732300000000,
  });

/**
 * A speaker's name is one line of text: the segmenter writes a run of short messages as
 * `name: text` lines, so a line break (or another control character) in a name would forge a line
 * said by someone else, attributed in the text to a speaker the provenance does not name.
 */
const ONE_LINE = /^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$/; // \p{Cc}, spelt out: the OpenAPI pattern takes no flags

/** A memory's text as a client sends it (a message's, an explicit memory's, a correction's): src/text/memory-text.ts, and at most MAX_MESSAGE_CODE_POINTS. */
export const ContentSchema = TextSchema.superRefine((s, ctx) => {
  const problem = memoryTextProblem(s);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: `content ${problem}` });
  if (codePointLength(s) > MAX_MESSAGE_CODE_POINTS)
    ctx.addIssue({ code: "custom", message: `content exceeds ${MAX_MESSAGE_CODE_POINTS} characters`, params: { [TOO_LARGE]: true } });
});

export const MessageSchema = z
  .object({
    role: z.enum(MESSAGE_ROLES),
    content: ContentSchema,
    name: TextSchema.trim()
      .min(1)
      .max(128)
      .regex(ONE_LINE, "name: one line, without control characters")
      .optional()
      .openapi({ description: "The speaker's name: one line of at most 128 characters.", example: "Alice" }),
    timestamp: TimestampSchema.optional(),
    id: TextSchema.min(1).max(256).optional().openapi({
      description:
        "Your id for the message: kept as provenance; a message whose id the agent holds is not stored again. Two different messages of one call cannot share an id.",
      example: "m-17",
    }),
  })
  .strict()
  .openapi("Message");
