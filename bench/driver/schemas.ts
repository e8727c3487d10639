/**
 * The API's answers as the benchmark reads them, checked with zod: outside data is never trusted.
 *
 * Objects are loose (unknown keys pass through untouched) and only the fields the benchmark uses are
 * required, so that the API can grow (new stats fields, new item types, extra scores) without
 * breaking the harness, while a changed field the benchmark relies on fails loudly.
 */
import { z } from "zod";

const int = z.number().int();

export const PingSchema = z.looseObject({ ok: z.literal(true), agent_id: z.string() });

/** The parameters in force: numbers and switches, and model_policy (a choice per operation). */
export const ConfigSchema = z.record(z.string(), z.union([z.number(), z.boolean(), z.record(z.string(), z.string())]));
export type Config = z.infer<typeof ConfigSchema>;

export const RememberAcceptedSchema = z.looseObject({ task_id: z.string(), status: z.string(), queued_ahead: int });
export const CompressAcceptedSchema = z.looseObject({ task_ids: z.array(z.string()) });

export const TaskSchema = z.looseObject({
  task_id: z.string(),
  kind: z.string(),
  status: z.enum(["queued", "running", "done", "failed"]),
  started_at: int.nullable(),
  finished_at: int.nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
});
export type Task = z.infer<typeof TaskSchema>;

/**
 * `result` of a finished compression task. `cycles`: how many cycles the task's pass ran (the API
 * may run cycles queued back to back as one pass; absent on builds that do not).
 */
export const CycleResultSchema = z.looseObject({
  cycle: int,
  cycles: int.optional(),
  links_broken: z.number(),
  scanned: z.number(),
  protected: z.number(),
  compressed: z.number(),
  deleted: z.number(),
  model_failures: z.number(),
  decay_ms: z.number(),
  scan_ms: z.number(),
  slices: z.number(),
});
export type CycleResult = z.infer<typeof CycleResultSchema>;

/** `result` of a compression task whose cycle ran inside another task's pass. */
export const MergedCycleSchema = z.looseObject({ merged_into: z.string() });

export const StatsSchema = z.looseObject({
  nodes: z.looseObject({ total: int, segments: int, entities: int }),
  links: z.looseObject({ total: int, dangling: int }),
  focus: int,
  queue: z.looseObject({ queued: int, running: int, done: int, failed: int }),
  characters: z.looseObject({ held: int, remembered: int }),
  counters: z.record(z.string(), z.unknown()),
  vector_index: z.looseObject({ vectors: int.nullable() }).nullable().optional(),
});
export type Stats = z.infer<typeof StatsSchema>;

/** A counter of the stats (`cycles`, `nodes_deleted`, …); 0 when absent or not a number. */
export function counter(stats: Stats, name: string): number {
  const value = stats.counters[name];
  return typeof value === "number" ? value : 0;
}

export const MemoryItemSchema = z.looseObject({
  type: z.literal("memory"),
  node_id: int,
  content: z.string(),
  source_message_ids: z.array(z.string()),
});
export type MemoryItem = z.infer<typeof MemoryItemSchema>;

// Forgotten traces and any item type added later are kept but never scored.
const OtherItemSchema = z.looseObject({ type: z.string() });

export const RecallSchema = z.looseObject({
  items: z.array(z.union([MemoryItemSchema, OtherItemSchema])),
  start_nodes: int,
  reached_nodes: int,
});
export type Recall = z.infer<typeof RecallSchema>;

/** The memories of a recall answer in rank order, forgotten traces left out. */
export function memoriesOf(recall: Recall): MemoryItem[] {
  return recall.items.flatMap((item) => {
    const parsed = MemoryItemSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** `POST /context` with `format: json`: what the quality bench scores (the block's memories and size). */
export const ContextSchema = z.looseObject({
  used_tokens: int,
  text: z.string(),
  memories: z.array(z.looseObject({ content: z.string(), source_message_ids: z.array(z.string()) })),
});
export type Context = z.infer<typeof ContextSchema>;

/** `GET /profile`: what the benches read (the text is what the quality bench scores). */
export const ProfileSchema = z.looseObject({
  entities: z.array(z.looseObject({ name: z.string() })),
  lines: z.array(z.looseObject({ participant: z.string(), text: z.string(), memory_ids: z.array(int) })),
  text: z.string(),
});

/** `POST /search` (being built): only what the speed bench reads. */
export const SearchSchema = z.looseObject({
  items: z.array(z.looseObject({ content: z.string(), source_message_ids: z.array(z.string()).optional() })),
});

/**
 * The local vector index's size, if stats report it: the first object under a key naming a vector
 * index that has a numeric `bytes` (the field is not part of the stats contract yet).
 */
export function vectorIndexBytes(stats: Stats): number | null {
  for (const [key, value] of Object.entries(stats)) {
    if (!/vector/i.test(key)) continue;
    const parsed = z.looseObject({ bytes: z.number() }).safeParse(value);
    if (parsed.success) return parsed.data.bytes;
  }
  return null;
}
