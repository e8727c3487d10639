/**
 * One agent's endpoints, typed: what the benchmark calls, exactly as any client would.
 */
import { z } from "zod";
import { HttpClient, type Timed } from "./http";
import {
  CompressAcceptedSchema,
  ConfigSchema,
  ContextSchema,
  ProfileSchema,
  CycleResultSchema,
  MergedCycleSchema,
  PingSchema,
  RecallSchema,
  RememberAcceptedSchema,
  SearchSchema,
  StatsSchema,
  TaskSchema,
  type Config,
  type Context,
  type CycleResult,
  type Recall,
  type Stats,
  type Task,
} from "./schemas";

export type ConfigPatch = Record<string, number | boolean>;

export interface Message {
  role: "user" | "assistant" | "system";
  content: string;
  name?: string;
  timestamp?: number;
  id?: string;
}

/** A read's filter (docs/design.md, "Filters choose what a read returns"): the part the benchmark uses. */
export interface ReadFilter {
  session_ids?: string[];
}

export interface RecallRequest extends ReadFilter {
  keywords?: string[];
  query?: string;
  relations?: string[];
  depth?: number;
  limit?: number;
}

export interface ContextRequest extends ReadFilter {
  query: string;
  budget_tokens: number;
  include: ("memories" | "episodes" | "profile" | "traces")[];
  locale: "zh" | "en";
}

export interface SearchRequest extends ReadFilter {
  query: string;
  mode: "keyword" | "vector" | "hybrid";
  top_k: number;
}

/** Longest the benchmark waits for one agent's queue to drain before giving up. */
export const IDLE_TIMEOUT_MS = 30 * 60_000;
/** Server-side wait per stats/task poll (the API allows up to 30 s). */
const POLL_WAIT_MS = 5_000;
/** Reads without an answer after this long are re-sent (stall guard, http.ts); ≈10× a slow recall. */
export const DEFAULT_HEDGE_MS = 2_000;
/** Polls without progress, queue waiting and nothing running, before the queue is woken. */
const STUCK_POLLS = 2;

const MemoryItemSchema = z.object({
  node_id: z.number(),
  content: z.string(),
  source_message_ids: z.array(z.string()),
  superseded_by: z.number().nullable(),
  conflicts_with: z.array(z.number()).default([]),
});
export type MemoryItem = z.infer<typeof MemoryItemSchema>;

const MemoryPageSchema = z.object({ items: z.array(MemoryItemSchema), next_cursor: z.string().nullable() });
const SessionPageSchema = z.object({
  sessions: z.array(z.object({ session_id: z.string(), memories: z.number() })),
  next_cursor: z.string().nullable(),
});

const LinkSchema = z.looseObject({ source: z.number(), target: z.number(), relation: z.string() });
const NodeSchema = z.looseObject({
  node_id: z.number(),
  kind: z.string(),
  content: z.string(),
  links: z.looseObject({ outgoing: z.array(LinkSchema), incoming: z.array(LinkSchema) }),
});
export type NodeRead = z.infer<typeof NodeSchema>;

export class AgentApi {
  private readonly base: string;
  /** Stall guard threshold for recall and search; the speed bench raises it for large agents. */
  hedgeAfterMs = DEFAULT_HEDGE_MS;

  constructor(
    private readonly http: HttpClient,
    readonly agentId: string,
  ) {
    this.base = `/v1/agents/${encodeURIComponent(agentId)}`;
  }

  ping(): Promise<Timed<z.infer<typeof PingSchema>>> {
    return this.http.request("GET", `${this.base}/ping`, PingSchema);
  }

  async configure(patch: ConfigPatch): Promise<Config> {
    return (await this.http.request("PUT", `${this.base}/config`, ConfigSchema, { body: patch })).value;
  }

  /** Sets the agent's model_policy (which provider answers each kind of model work). */
  async setModelPolicy(policy: Record<string, string>): Promise<Config> {
    return (await this.http.request("PUT", `${this.base}/config`, ConfigSchema, { body: { model_policy: policy } })).value;
  }

  /** The acknowledgement: the task is queued, nothing is applied yet. */
  async remember(messages: readonly Message[], idempotencyKey?: string, sessionId?: string): Promise<Timed<string>> {
    const r = await this.http.request("POST", `${this.base}/remember`, RememberAcceptedSchema, {
      body: { messages, ...(sessionId === undefined ? {} : { session_id: sessionId }) },
      expect: [202],
      ...(idempotencyKey === undefined ? {} : { headers: { "idempotency-key": idempotencyKey } }),
    });
    return { value: r.value.task_id, ms: r.ms };
  }

  /** Queues `cycles` compression cycles (the API takes at most 1,000 per request). */
  async compress(cycles: number): Promise<string[]> {
    const ids: string[] = [];
    for (let left = cycles; left > 0; left -= 1000) {
      const r = await this.http.request("POST", `${this.base}/compress`, CompressAcceptedSchema, {
        body: { cycles: Math.min(1000, left) },
        expect: [202],
      });
      ids.push(...r.value.task_ids);
    }
    return ids;
  }

  /** The task as it is now. */
  async task(taskId: string): Promise<Task> {
    return (await this.http.request("GET", `${this.base}/tasks/${encodeURIComponent(taskId)}`, TaskSchema)).value;
  }

  /** The task once it is finished (done or failed), waiting as long as it takes. */
  async finishedTask(taskId: string): Promise<Task> {
    const deadline = Date.now() + IDLE_TIMEOUT_MS;
    for (;;) {
      const path = `${this.base}/tasks/${encodeURIComponent(taskId)}?wait_ms=${POLL_WAIT_MS}`;
      const task = (await this.http.request("GET", path, TaskSchema)).value;
      if (task.status === "done" || task.status === "failed") return task;
      if (Date.now() > deadline) throw new Error(`${this.agentId}: task ${taskId} still ${task.status} after ${IDLE_TIMEOUT_MS} ms`);
    }
  }

  /**
   * A finished compression task: its pass's counts, or null when its cycle ran inside another
   * task's pass (`merged_into`). Fails loudly if the task failed or answered anything else.
   */
  async cycleResult(taskId: string): Promise<{ result: CycleResult | null; task: Task }> {
    const task = await this.finishedTask(taskId);
    if (task.status !== "done") throw new Error(`${this.agentId}: compression task ${taskId} failed: ${JSON.stringify(task)}`);
    if (MergedCycleSchema.safeParse(task.result).success) return { result: null, task };
    const parsed = CycleResultSchema.safeParse(task.result);
    if (!parsed.success) throw new Error(`${this.agentId}: compression task ${taskId}: unexpected result ${JSON.stringify(task.result)}`);
    return { result: parsed.data, task };
  }

  /**
   * Every segment that a later memory superseded (docs/design.md §11): search no longer finds
   * them, the listing with include_superseded does. Pages through the whole listing.
   */
  async supersededSegments(): Promise<{ node_id: number; content: string; source_message_ids: string[] }[]> {
    return (await this.memories("segment", true)).filter((i) => i.superseded_by !== null);
  }

  /** Every memory of `kind` (superseded versions too when asked), newest first, paging through the listing. */
  async memories(kind: "segment" | "episode" | "memory", includeSuperseded = false): Promise<MemoryItem[]> {
    const out: MemoryItem[] = [];
    for (let cursor: string | null = null; ;) {
      const query: string = `kind=${kind}&include_superseded=${includeSuperseded}&limit=200${cursor ? `&cursor=${cursor}` : ""}`;
      const page = (await this.http.request("GET", `${this.base}/memories?${query}`, MemoryPageSchema)).value;
      out.push(...page.items);
      if (page.next_cursor === null) return out;
      cursor = page.next_cursor;
    }
  }

  /** Every session of the agent with the memories it holds, paging through the listing. */
  async sessions(): Promise<{ session_id: string; memories: number }[]> {
    const out: { session_id: string; memories: number }[] = [];
    for (let cursor: string | null = null; ;) {
      const path: string = `${this.base}/sessions?limit=100${cursor ? `&cursor=${cursor}` : ""}`;
      const page = (await this.http.request("GET", path, SessionPageSchema)).value;
      out.push(...page.sessions);
      if (page.next_cursor === null) return out;
      cursor = page.next_cursor;
    }
  }

  /** One node with its links. */
  async node(nodeId: number): Promise<NodeRead> {
    return (await this.http.request("GET", `${this.base}/nodes/${nodeId}`, NodeSchema)).value;
  }

  async stats(waitMs = 0): Promise<Stats> {
    return (await this.http.request("GET", `${this.base}/stats?wait_ms=${waitMs}`, StatsSchema)).value;
  }

  /**
   * Waits until the queue is idle (every remember applied and every compression cycle run) and
   * returns the stats then. A failed task means lost input: the benchmark stops rather than report
   * numbers for data that was not remembered.
   */
  async idleStats(): Promise<Stats> {
    const deadline = Date.now() + IDLE_TIMEOUT_MS;
    let last = "";
    let stuck = 0;
    for (;;) {
      const stats = await this.stats(POLL_WAIT_MS);
      const q = stats.queue;
      if (q.failed > 0) throw new Error(`${this.agentId}: ${q.failed} task(s) failed: ${JSON.stringify(stats)}`);
      if (q.queued === 0 && q.running === 0) return stats;
      if (Date.now() > deadline) throw new Error(`${this.agentId}: queue not idle after ${IDLE_TIMEOUT_MS} ms`);
      // A lost queue wake-up (http.ts; builds before cdc0450) can strand queued work with nothing
      // running: after a few polls without progress, a one-item recall (a read) wakes the queue.
      const now = `${q.queued}/${q.done}`;
      stuck = now === last && q.running === 0 ? stuck + 1 : 0;
      last = now;
      if (stuck >= STUCK_POLLS) {
        this.http.stalls.set("idle wait: queue woken", (this.http.stalls.get("idle wait: queue woken") ?? 0) + 1);
        await this.recall({ keywords: ["wake"], limit: 1 });
        stuck = 0;
      }
    }
  }

  recall(request: RecallRequest): Promise<Timed<Recall>> {
    return this.http.request("POST", `${this.base}/recall`, RecallSchema, {
      body: { ...request, format: "json" },
      hedgeAfterMs: this.hedgeAfterMs,
    });
  }

  context(request: ContextRequest): Promise<Timed<Context>> {
    return this.http.request("POST", `${this.base}/context`, ContextSchema, {
      body: { ...request, format: "json" },
      hedgeAfterMs: this.hedgeAfterMs,
    });
  }

  /** The whole agent's profile, or one participant's; at the API's default length unless `maxChars` says. */
  profile(options: { participant?: string; maxChars?: number; locale?: "en" | "zh" } = {}): Promise<Timed<z.infer<typeof ProfileSchema>>> {
    const query = new URLSearchParams({ locale: options.locale ?? "en" });
    if (options.participant !== undefined) query.set("participant", options.participant);
    if (options.maxChars !== undefined) query.set("max_chars", String(options.maxChars));
    return this.http.request("GET", `${this.base}/profile?${query}`, ProfileSchema, { hedgeAfterMs: this.hedgeAfterMs });
  }

  /** null when the search endpoint does not exist on this build (404). */
  search(request: SearchRequest): Promise<Timed<z.infer<typeof SearchSchema>> | null> {
    return this.http.requestUnlessMissing("POST", `${this.base}/search`, SearchSchema, {
      body: request,
      hedgeAfterMs: this.hedgeAfterMs,
    });
  }
}
