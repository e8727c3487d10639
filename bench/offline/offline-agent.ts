/**
 * An agent run in this process for fast iteration on retrieval quality: the Durable Object's own
 * runtime (src/agent/agent-state.ts), queue runner and task registry, so remember, compression,
 * configuration and recall are the real operations (src/operations: entity resolution, the
 * conflict check, capacity and every later change included), over in-memory SQLite instead of the
 * object's storage and D1 (sqlite-bindings.ts), with the local model and the local vector index.
 * What is left out is the HTTP edge and the Worker: payloads are the tasks' own (times already in
 * milliseconds, as the API converts them).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AgentState } from "../../src/agent/agent-state";
import { AGENT_TASK_HOOKS, AGENT_TASKS } from "../../src/agent/agent-tasks";
import type { AgentParams } from "../../src/config/params";
import { QueueRunner } from "../../src/engine/queue-runner";
import { migrateAgentSchema } from "../../src/engine/stores/do-schema";
import type { Message } from "../../src/vocabulary/message";
import { RecallResultSchema } from "../../src/operations/recall/schemas";
import { ProfileResultSchema, type ProfileResult } from "../../src/operations/get-profile/schemas";
import { codePointLength } from "../../src/text/code-points";
import { d1Database, objectStorage, type OfflineObjectStorage } from "./sqlite-bindings";

const MIGRATIONS_DIR = path.join(import.meta.dirname, "..", "..", "migrations");
const migrations = readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith(".sql"))
  .sort()
  .map((f) => readFileSync(path.join(MIGRATIONS_DIR, f), "utf8"));

/** Long enough for any pass of the probe's sizes; a queue still busy after it is an error. */
const IDLE_TIMEOUT_MS = 600_000;
const IDLE_WAIT_STEP_MS = 1_000;

/** wrangler.local.toml's variables: the local model and the local vector index, one D1 shard. */
const LOCAL_VARS = {
  MODEL_PROVIDER: "local",
  VECTOR_PROVIDER: "local",
  D1_SHARDS: "DB",
} as const;

export interface RecalledItem {
  sourceIds: string[];
  text: string;
}

let agents = 0;

export class OfflineAgent {
  private constructor(
    readonly state: AgentState,
    private readonly runner: QueueRunner,
    private readonly object: OfflineObjectStorage,
  ) {}

  /** A fresh agent with `params` set through the configuration operation. */
  static async create(params: AgentParams): Promise<OfflineAgent> {
    const object = objectStorage();
    // The bindings the local configuration gives the object (wrangler.local.toml: no AI, no Vectorize).
    const env = { ...LOCAL_VARS, DB: d1Database(migrations) } satisfies Partial<Env>;
    const state = new AgentState(object.storage, env as Env, AGENT_TASK_HOOKS);
    const runner = new QueueRunner(state, object.state, AGENT_TASKS);
    object.onAlarm(() => runner.runFromAlarm());
    migrateAgentSchema(object.storage.sql);
    agents += 1;
    state.bind({ tenantId: "offline", agentId: `agent-${agents}` });
    await state.repos();
    const agent = new OfflineAgent(state, runner, object);
    await agent.configure(params);
    return agent;
  }

  /** Queues a task as the object's submit does and waits until the queue is idle (follow-ups included). */
  private async run(kind: string, payload: unknown, repeat = 1): Promise<void> {
    const queue = this.state.queue;
    this.state.storage.transactionSync(() => {
      for (let i = 0; i < repeat; i++) AGENT_TASKS.enqueue(queue, kind, payload, { now: Date.now() });
    });
    await this.runner.wake();
    // The wake starts the drain on a timer of its own: let it start, then wait for it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // In short waits: each leaves its timer running to the end (harmless in the object, but here
    // it would keep the process alive that long).
    const deadline = Date.now() + IDLE_TIMEOUT_MS;
    while (!(await this.runner.waitForIdle(IDLE_WAIT_STEP_MS))) {
      if (Date.now() > deadline) throw new Error(`${kind}: queue not idle after ${IDLE_TIMEOUT_MS} ms`);
    }
    const failed = queue.counts().failed;
    if (failed > 0) throw new Error(`${kind}: ${failed} task(s) failed`);
  }

  configure(params: AgentParams): Promise<void> {
    return this.run("updateConfig", params);
  }

  remember(messages: readonly Message[]): Promise<void> {
    return this.run("remember", { messages });
  }

  /** `cycles` compression cycles queued at once (POST /compress with cycles: one pass). */
  async compress(cycles: number): Promise<void> {
    if (cycles > 0) await this.run("compressMemories", null, cycles);
  }

  /** The recall operation with the question as its free-text query, as bench:quality asks. */
  async recall(query: string, limit: number): Promise<RecalledItem[]> {
    const queue = this.state.queue;
    const task = AGENT_TASKS.enqueue(queue, "recall", { query, keywords: [], relations: [], limit, start: "hybrid" }, { now: Date.now() });
    const result = RecallResultSchema.parse(await this.runner.waitForResult(task.id));
    return result.memories.map((m) => ({ sourceIds: m.source_message_ids, text: m.content }));
  }

  /** The profile operation (GET /profile) with its query as the route passes it. */
  async profile(query: Record<string, unknown>): Promise<ProfileResult> {
    const task = AGENT_TASKS.enqueue(this.state.queue, "getProfile", query, { now: Date.now() });
    return ProfileResultSchema.parse(await this.runner.waitForResult(task.id));
  }

  /** The entity names the agent holds. */
  async entityNames(): Promise<string[]> {
    const graph = await this.state.graph();
    if (!graph) throw new Error("the agent's graph is not loaded");
    return graph.find({ kind: "entity" }, 100_000).map((n) => n.content);
  }

  /** Characters of segment text the agent holds now. */
  async charactersHeld(): Promise<number> {
    const graph = await this.state.graph();
    if (!graph) throw new Error("the agent's graph is not loaded");
    let n = 0;
    for (const id of graph.nodeIds()) {
      const node = graph.node(id);
      if (node?.kind === "segment") n += codePointLength(node.content);
    }
    return n;
  }

  /** Characters of segment text remembered (the agent's own counter). */
  charactersRemembered(): number {
    return this.state.meta.counters().characters_remembered ?? 0;
  }

  close(): void {
    this.object.close();
  }
}
