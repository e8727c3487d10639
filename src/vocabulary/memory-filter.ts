/**
 * Scoping a memory (docs/design.md, "Scoping: sessions, speakers, tags and expiry"): the
 * attributes a memory carries besides its speaker (its session, the application's tags) and the
 * filter a read takes over them. Declared once, as zod: the record's fields (records.ts), the
 * agent's payloads and, with OpenAPI names and time conversion, the HTTP edge
 * (src/surfaces/memory-filter.ts) all use these schemas. The predicate is src/memory/memory-filter.ts.
 */
import { z } from "zod";
import { AGENT_ID_PATTERN, MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS } from "../config/limits";
import { wellFormed } from "../text/well-formed";

/** A session id: the agent-id alphabet (a client's own id, safe in a path). */
export const SESSION_ID_PATTERN = AGENT_ID_PATTERN;
export const SessionIdSchema = z
  .string()
  .regex(SESSION_ID_PATTERN, "session id: 1–64 characters of A–Z a–z 0–9 _ . -, starting with a letter or digit");

/** Tags per memory, a key's and a string value's length (code points). */
export const MAX_METADATA_KEYS = 16;
export const MAX_METADATA_KEY_LENGTH = 64;
export const MAX_METADATA_STRING_LENGTH = 256;
/** Bounds of a filter: values in a list, alternatives in `any`. */
export const MAX_FILTER_VALUES = 100;
export const MAX_FILTER_ALTERNATIVES = 16;

const codePoints = (s: string) => [...s].length;
const ONE_LINE = /^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$/;

const Text = z.string().refine(wellFormed, "malformed Unicode (a lone surrogate)");

/** A tag's key: 1–64 code points of one line. */
export const MetadataKeySchema = Text.refine((k) => codePoints(k) >= 1 && codePoints(k) <= MAX_METADATA_KEY_LENGTH, {
  message: `a metadata key has 1–${MAX_METADATA_KEY_LENGTH} characters`,
}).refine((k) => ONE_LINE.test(k), "a metadata key is one line, without control characters");

/** A tag's value: a string of at most 256 code points, a finite number or a boolean (never nested). */
export const MetadataValueSchema = z.union([
  Text.refine((s) => codePoints(s) <= MAX_METADATA_STRING_LENGTH, `a metadata string has at most ${MAX_METADATA_STRING_LENGTH} characters`),
  z.number().finite(),
  z.boolean(),
]);
export type MetadataValue = z.infer<typeof MetadataValueSchema>;

const atMostKeys = (o: Record<string, unknown>) => Object.keys(o).length <= MAX_METADATA_KEYS;

/** The application's tags on a memory: a flat object of at most 16 keys. */
export const MetadataSchema = z
  .record(MetadataKeySchema, MetadataValueSchema)
  .refine(atMostKeys, `metadata has at most ${MAX_METADATA_KEYS} keys`);
export type Metadata = z.infer<typeof MetadataSchema>;

/** One tag's condition: all the operators given must hold (a bare value is `eq`). */
export const MetadataOperatorsSchema = z
  .object({
    eq: MetadataValueSchema.optional(),
    in: z.array(MetadataValueSchema).min(1).max(MAX_FILTER_VALUES).optional(),
    ne: MetadataValueSchema.optional(),
    exists: z.boolean().optional(),
    gt: z.number().finite().optional(),
    gte: z.number().finite().optional(),
    lt: z.number().finite().optional(),
    lte: z.number().finite().optional(),
  })
  .strict()
  .refine((o) => Object.keys(o).length > 0, "a metadata condition names at least one operator");

export const MetadataConditionSchema = z.union([MetadataValueSchema, MetadataOperatorsSchema]);
export type MetadataCondition = z.infer<typeof MetadataConditionSchema>;

export const SpeakerSchema = Text.refine((s) => codePoints(s) >= 1 && codePoints(s) <= 128, "a speaker has 1–128 characters");

const Time = z.number().int().min(MIN_TIMESTAMP_MS).max(MAX_TIMESTAMP_MS);

/** What a write (a remember, an explicit memory) says of the memories it makes, as the agent takes it. */
export const WRITE_SCOPE_SHAPE = {
  session_id: SessionIdSchema.optional(),
  metadata: MetadataSchema.optional(),
  /** When they stop existing (ms); else the agent's retention_days from the write's time, else never. */
  expires_at: Time.optional(),
};
export type WriteScopeFields = { session_id?: string | undefined; metadata?: Metadata | undefined; expires_at?: number | undefined };

/** The attribute part of a filter: what one alternative of `any` says. */
export const FILTER_CLAUSE_SHAPE = {
  session_ids: z.array(SessionIdSchema).min(1).max(MAX_FILTER_VALUES).optional(),
  speakers: z.array(SpeakerSchema).min(1).max(MAX_FILTER_VALUES).optional(),
  metadata: z
    .record(MetadataKeySchema, MetadataConditionSchema)
    .refine(atMostKeys, `a metadata filter names at most ${MAX_METADATA_KEYS} keys`)
    .optional(),
};
export const FilterClauseSchema = z.object(FILTER_CLAUSE_SHAPE).strict();
export type FilterClause = z.infer<typeof FilterClauseSchema>;

/** Inclusive bounds on a memory's time (its messages' time, else when it was written), in ms. */
export const TimeRangeSchema = z.object({ from: Time.optional(), to: Time.optional() }).strict();

/** The filter of a read as the agent takes it (the HTTP edge has converted its times). */
export const MEMORY_FILTER_SHAPE = {
  ...FILTER_CLAUSE_SHAPE,
  any: z.array(FilterClauseSchema).min(1).max(MAX_FILTER_ALTERNATIVES).optional(),
  time_range: TimeRangeSchema.optional(),
};
export const MemoryFilterSchema = z.object(MEMORY_FILTER_SHAPE).strict();
export type MemoryFilter = z.infer<typeof MemoryFilterSchema>;

/** Whether a filter names any attribute of a memory (beyond kinds, which every read has). */
export function namesAttributes(filter: MemoryFilter): boolean {
  return (
    filter.session_ids !== undefined ||
    filter.speakers !== undefined ||
    filter.metadata !== undefined ||
    filter.any !== undefined ||
    filter.time_range?.from !== undefined ||
    filter.time_range?.to !== undefined
  );
}

/** The filter fields of a payload that holds them among others (a search, a recall…). */
export function filterOf(payload: MemoryFilter): MemoryFilter {
  const { session_ids, speakers, metadata, any, time_range } = payload;
  return {
    ...(session_ids !== undefined ? { session_ids } : {}),
    ...(speakers !== undefined ? { speakers } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(any !== undefined ? { any } : {}),
    ...(time_range !== undefined ? { time_range } : {}),
  };
}
