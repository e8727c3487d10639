/**
 * Scoping at the HTTP edge (docs/design.md, "Scoping: sessions, speakers, tags and expiry"): the
 * fields a write gives its memories (session, tags, expiry) and the filter a read takes, as the
 * routes of remember, createMemory, search, recall, context and the memory listing declare them.
 * The schemas are the agent's own (src/vocabulary/memory-filter.ts) with their OpenAPI names and,
 * for times, the client's forms converted to milliseconds (TimestampSchema): one filter for every
 * read, kept simple enough for a model to fill as a tool's arguments (flat lists, one level of
 * `any`, tags as key → value or key → operators).
 */
import { z } from "@hono/zod-openapi";
import {
  FILTER_CLAUSE_SHAPE,
  MAX_FILTER_ALTERNATIVES,
  MemoryFilterSchema,
  MetadataOperatorsSchema,
  MetadataSchema,
  MetadataValueSchema,
  SessionIdSchema,
  type MemoryFilter,
} from "../vocabulary/memory-filter";
import { TimestampSchema } from "./messages";

const SessionId = SessionIdSchema.openapi("SessionId", {
  description: "A session (a conversation) of the agent: 1–64 characters of A–Z a–z 0–9 _ . -, starting with a letter or digit.",
  example: "chat-2026-11-20",
});

const Metadata = MetadataSchema.openapi("Metadata", {
  description:
    "The application's own tags: at most 16 keys of 1–64 characters, each value a string (at most 256 characters), a finite number or a boolean; never nested.",
  example: { project: "apollo", priority: 2 },
});

MetadataValueSchema.openapi("MetadataValue");
MetadataOperatorsSchema.openapi("MetadataOperators", {
  description:
    "All the operators given must hold: eq (equal), in (one of), ne (absent or another value), exists (true: the key is there; false: it is not), gt/gte/lt/lte (numbers).",
});

/** What a write gives the memories it makes (remember, createMemory). */
export const WRITE_SCOPE_FIELDS = {
  session_id: SessionId.optional().openapi({
    description:
      "The conversation these memories belong to: recall and search can then be scoped to it, and DELETE sessions/{sessionId} forgets it.",
  }),
  metadata: Metadata.optional(),
  expires_at: TimestampSchema.optional().openapi({
    description:
      "When these memories stop existing: from then on no read returns them, and they are purged within the hour. Default: the agent's retention_days, else never.",
  }),
};

const TimeRange = z
  .object({ from: TimestampSchema.optional(), to: TimestampSchema.optional() })
  .strict()
  .refine((r) => r.from === undefined || r.to === undefined || r.from <= r.to, "time_range.from must not be after time_range.to")
  .openapi({ description: "Inclusive bounds on a memory's time: its messages' timestamp, else when it was written." });

const MetadataFilter = FILTER_CLAUSE_SHAPE.metadata.unwrap().openapi("MetadataFilter", {
  description: 'Per tag key a value (equal) or operators, e.g. {"project": "apollo", "priority": {"gte": 2}}; every key must hold.',
});

const FilterClause = z
  .object({
    session_ids: FILTER_CLAUSE_SHAPE.session_ids,
    speakers: FILTER_CLAUSE_SHAPE.speakers,
    metadata: MetadataFilter.optional(),
  })
  .strict()
  .openapi("FilterClause");

/** The filter of every read (search, recall, context; the listing's `filter`): fields beside the read's own. */
export const MEMORY_FILTER_FIELDS = {
  session_ids: FILTER_CLAUSE_SHAPE.session_ids.openapi({
    description: "Only memories of these sessions (conversations). Leave out to read across every session.",
  }),
  speakers: FILTER_CLAUSE_SHAPE.speakers.openapi({
    description: "Only memories said by one of these speakers (a message's name), exactly as remembered.",
  }),
  metadata: MetadataFilter.optional(),
  any: z
    .array(FilterClause)
    .min(1)
    .max(MAX_FILTER_ALTERNATIVES)
    .optional()
    .openapi({ description: "Alternatives: a memory passes when at least one of them holds (OR), besides the other conditions." }),
  time_range: TimeRange.optional(),
};

export const MemoryFilterRequestSchema = z.object(MEMORY_FILTER_FIELDS).strict().openapi("MemoryFilter", {
  description: "Which memories a read returns: every condition given must hold.",
});

/**
 * The filter as a query parameter (GET memories?filter=…): the JSON of the same object, so a
 * listing takes the very filter a search does. A value that is not JSON is refused naming `filter`.
 */
export const MemoryFilterQuerySchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "filter: the JSON of a MemoryFilter object" });
      return z.NEVER;
    }
  })
  .pipe(MemoryFilterRequestSchema)
  .openapi({
    type: "string",
    description:
      'The JSON of a MemoryFilter, URL-encoded: e.g. {"session_ids":["chat-1"],"speakers":["Bob"],"metadata":{"project":"apollo"}}.',
    example: '{"session_ids":["chat-1"]}',
  });

/** The filter fields of a validated request, as the agent takes them (times already in ms). */
export function filterFields(request: z.output<typeof MemoryFilterRequestSchema>): MemoryFilter {
  const { session_ids, speakers, metadata, any, time_range } = request;
  return MemoryFilterSchema.parse({
    ...(session_ids !== undefined ? { session_ids } : {}),
    ...(speakers !== undefined ? { speakers } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(any !== undefined ? { any } : {}),
    ...(time_range !== undefined
      ? {
          time_range: {
            ...(time_range.from !== undefined ? { from: time_range.from } : {}),
            ...(time_range.to !== undefined ? { to: time_range.to } : {}),
          },
        }
      : {}),
  });
}

/** The write fields of a validated request, as the agent takes them. */
export function writeScopeFields(request: {
  session_id?: string | undefined;
  metadata?: Record<string, string | number | boolean> | undefined;
  expires_at?: number | undefined;
}) {
  return {
    ...(request.session_id !== undefined ? { session_id: request.session_id } : {}),
    ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
    ...(request.expires_at !== undefined ? { expires_at: request.expires_at } : {}),
  };
}
