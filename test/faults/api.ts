/**
 * One agent's endpoints as the fault suite uses them, with the API's answers checked by zod.
 * Loose objects: fields the suite does not read may come and go; a field it reads must be there.
 */
import { z } from "zod";
import type { Answer, FaultClient } from "./client";

const int = z.number().int();

/** Numbers and switches, and model_policy: a choice per operation. */
export const ConfigSchema = z.record(z.string(), z.union([z.number(), z.boolean(), z.record(z.string(), z.string())]));
export type Config = z.infer<typeof ConfigSchema>;

const RememberAccepted = z.looseObject({ task_id: z.string(), queued_ahead: int });
const CompressAccepted = z.looseObject({ task_ids: z.array(z.string()) });
/** PUT config: 200 with the parameters in force, or 202 with the task while earlier writes run. */
const ConfigAnswer = z.union([ConfigSchema, z.looseObject({ task_id: z.string(), status: z.string() })]);
const DeleteAnswer = z.looseObject({ deleted: z.boolean(), task_id: z.string().optional() });
/** A pin or unpin: the pin as it stands (200), queued (202), or refused as the memory stands (404, 409). */
const PinAnswer = z.union([
  z.looseObject({ node_id: int, pinned: z.boolean() }),
  z.looseObject({ task_id: z.string(), status: z.string() }),
  z.looseObject({ error: z.looseObject({ code: z.string() }) }),
]);

export const TaskSchema = z.looseObject({
  task_id: z.string(),
  sequence: int,
  kind: z.string(),
  status: z.enum(["queued", "running", "done", "failed"]),
  attempts: int,
  created_at: int,
  started_at: int.nullable(),
  finished_at: int.nullable(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
});
export type Task = z.infer<typeof TaskSchema>;

const CopyCheckSchema = z.object({
  copy: z.boolean(),
  journal: int,
  nodes: int,
  links: int,
  mismatches: z.array(z.string()),
});
export type CopyCheck = z.infer<typeof CopyCheckSchema>;

export const StatsSchema = z.looseObject({
  nodes: z.looseObject({ total: int, segments: int, entities: int }),
  links: z.looseObject({ total: int, dangling: int }),
  focus: int,
  queue: z.looseObject({ queued: int, running: int, done: int, failed: int }),
  characters: z.looseObject({ held: int, remembered: int }),
  vector_index: z.looseObject({ provider: z.string(), vectors: int.nullable() }).nullable(),
  counters: z.record(z.string(), z.number()),
});
export type Stats = z.infer<typeof StatsSchema>;

export const LinkSchema = z.looseObject({
  source: int,
  target: int,
  relation: z.string(),
  strength: z.number(),
  pinned: z.boolean(),
  dangling: z.boolean(),
});
export type Link = z.infer<typeof LinkSchema>;

export const NodeSchema = z.looseObject({
  node_id: int,
  kind: z.string(),
  name: z.string().nullable(),
  content: z.string(),
  original_length: int,
  phrase: z.string(),
  keywords: z.array(z.string()),
  role: z.string().nullable(),
  speaker: z.string().nullable(),
  source_message_ids: z.array(z.string()),
  source_task_id: z.string().nullable(),
  message_time: int.nullable(),
  scan_count: int,
  in_focus: z.boolean(),
  importance: z.number(),
  /** A newer version of the memory replaced it (docs/design.md §11): search no longer finds it. */
  superseded_by: int.nullable(),
  /** Outside forgetting (docs/design.md, "Pins"). */
  pinned: z.boolean(),
  links: z.looseObject({ outgoing: z.array(LinkSchema), incoming: z.array(LinkSchema) }),
});
export type NodeView = z.infer<typeof NodeSchema>;

const NotFound = z.looseObject({ error: z.looseObject({ code: z.literal("not_found") }) });

export const FocusSchema = z.looseObject({
  focus_limit: int,
  focus: z.array(z.looseObject({ node_id: int, name: z.string(), key: z.string() })),
});
export type Focus = z.infer<typeof FocusSchema>;

export const SearchItemSchema = z.looseObject({
  node_id: int,
  content: z.string(),
  source_message_ids: z.array(z.string()),
  score: z.number(),
});
export const SearchSchema = z.looseObject({ items: z.array(SearchItemSchema) });
export type SearchItem = z.infer<typeof SearchItemSchema>;

const RecallItemSchema = z.looseObject({ type: z.string(), node_id: int.optional(), content: z.string().optional() });
export const RecallSchema = z.looseObject({ items: z.array(RecallItemSchema), start_nodes: int, reached_nodes: int });
export type Recall = z.infer<typeof RecallSchema>;

export interface Message {
  role: "user" | "assistant";
  content: string;
  name?: string;
  timestamp?: number;
  id: string;
}

/** Longest the suite waits for one agent's queue to drain. */
const IDLE_TIMEOUT_MS = 5 * 60_000;

export class Agent {
  private readonly base: string;

  constructor(
    readonly client: FaultClient,
    readonly id: string,
  ) {
    this.base = `/v1/agents/${encodeURIComponent(id)}`;
  }

  remember(messages: readonly Message[], key: string): Promise<Answer<z.infer<typeof RememberAccepted>>> {
    return this.client.send("POST", `${this.base}/remember`, RememberAccepted, { body: { messages }, key, expect: [202] });
  }

  /** PUT config; resolves once the change is applied (following its task when the API answered 202). */
  async configure(patch: Config, key: string): Promise<Answer<unknown>> {
    const answer = await this.client.send("PUT", `${this.base}/config`, ConfigAnswer, { body: patch, key, expect: [200, 202] });
    const v = answer.value;
    if (answer.status === 202 && typeof v.task_id === "string") await this.finishedTask(v.task_id, true);
    return answer;
  }

  compress(cycles: number, key: string): Promise<Answer<z.infer<typeof CompressAccepted>>> {
    return this.client.send("POST", `${this.base}/compress`, CompressAccepted, { body: { cycles }, key, expect: [202] });
  }

  /** Pins (or unpins) a memory; resolves once the write ran (following its task when the API answered 202). */
  async pin(nodeId: number, pinned: boolean, key: string): Promise<Answer<z.infer<typeof PinAnswer>>> {
    const answer = await this.client.send(pinned ? "POST" : "DELETE", `${this.base}/memories/${nodeId}/pin`, PinAnswer, {
      key,
      expect: [200, 202, 404, 409],
    });
    const v = answer.value;
    if (answer.status === 202 && "task_id" in v && typeof v.task_id === "string") await this.finishedTask(v.task_id, true);
    return answer;
  }

  /** DELETE the agent; resolves once the deletion ran (following its task when the API answered 202). */
  async delete(key: string): Promise<Answer<z.infer<typeof DeleteAnswer>>> {
    const answer = await this.client.send("DELETE", this.base, DeleteAnswer, { key, expect: [200, 202] });
    if (answer.status === 202 && answer.value.task_id) await this.finishedTask(answer.value.task_id, false);
    return answer;
  }

  async stats(waitMs = 0): Promise<Stats> {
    return (await this.client.send("GET", `${this.base}/stats?wait_ms=${waitMs}`, StatsSchema)).value;
  }

  /** Stats once nothing is queued or running (the object resumes on this request or its alarm). */
  async idle(): Promise<Stats> {
    const deadline = Date.now() + IDLE_TIMEOUT_MS;
    for (;;) {
      const stats = await this.stats(10_000);
      if (stats.queue.queued === 0 && stats.queue.running === 0) return stats;
      if (Date.now() > deadline) throw new Error(`${this.id}: queue not idle after ${IDLE_TIMEOUT_MS} ms: ${JSON.stringify(stats.queue)}`);
    }
  }

  /** The task, or null when the agent does not know it (404). */
  async task(taskId: string, waitMs = 0): Promise<Task | null> {
    const answer = await this.client.send(
      "GET",
      `${this.base}/tasks/${encodeURIComponent(taskId)}?wait_ms=${waitMs}`,
      z.union([TaskSchema, NotFound]),
      {
        expect: [200, 404],
      },
    );
    return answer.status === 404 ? null : TaskSchema.parse(answer.value);
  }

  /**
   * The task once finished. A task that is gone (404) was taken with an agent deletion that ran
   * after it: accepted unless `mustExist`.
   */
  async finishedTask(taskId: string, mustExist: boolean): Promise<Task | null> {
    const deadline = Date.now() + IDLE_TIMEOUT_MS;
    for (;;) {
      const task = await this.task(taskId, 10_000);
      if (task === null) {
        if (mustExist) throw new Error(`${this.id}: task ${taskId} not found`);
        return null;
      }
      if (task.status === "done" || task.status === "failed") return task;
      if (Date.now() > deadline) throw new Error(`${this.id}: task ${taskId} still ${task.status} after ${IDLE_TIMEOUT_MS} ms`);
    }
  }

  async config(): Promise<Config> {
    return (await this.client.send("GET", `${this.base}/config`, ConfigSchema)).value;
  }

  async focus(): Promise<Focus> {
    return (await this.client.send("GET", `${this.base}/focus`, FocusSchema)).value;
  }

  /** The node, or null (404: no such node, or deleted). */
  async node(nodeId: number): Promise<NodeView | null> {
    const answer = await this.client.send("GET", `${this.base}/nodes/${nodeId}`, z.union([NodeSchema, NotFound]), { expect: [200, 404] });
    return answer.status === 404 ? null : NodeSchema.parse(answer.value);
  }

  async search(query: string, mode: "keyword" | "vector" | "hybrid", topK: number): Promise<SearchItem[]> {
    return (await this.client.send("POST", `${this.base}/search`, SearchSchema, { body: { query, mode, top_k: topK } })).value.items;
  }

  /**
   * The object's copy of the network (snapshot and journal) loaded afresh and compared with D1
   * (the benchmark hook src/agent/copy-check.ts; the server runs with BENCH_HOOKS). Ask it idle.
   */
  async copyCheck(): Promise<CopyCheck> {
    return (await this.client.send("POST", `/__bench/agents/${encodeURIComponent(this.id)}/copy`, CopyCheckSchema)).value;
  }

  async recall(keywords: string[], limit: number): Promise<Recall> {
    return (await this.client.send("POST", `${this.base}/recall?format=json`, RecallSchema, { body: { keywords, limit } })).value;
  }
}
