/**
 * One agent's memory: a SQLite-backed Durable Object reached by typed RPC (DESIGN §7). It owns
 * the durable FIFO task queue and the focus LRU; node and link rows live in D1, keyed by agent.
 *
 * Every RPC carries the caller's identity (tenant from the API key, agent id from the path). The
 * object's name is derived from the same pair, and the first identity it sees is kept and checked.
 * This class is only the RPC surface: state lives in AgentState, the drain loop in QueueRunner.
 */
import { DurableObject } from "cloudflare:workers";
import type { RememberMessage } from "../api/messages";
import type { RecallRequest } from "../api/recall";
import type { SearchRequest, SearchResponse } from "../api/search";
import type { FocusView, NodeView, PingView, StatsView, TaskStatusView } from "../api/views";
import { MAX_QUEUED_TASKS } from "../config/limits";
import { AgentParamsSchema, type AgentParams, type AgentParamsPatch } from "../config/params";
import type { AgentIdentity } from "../storage/agent-registry";
import { AgentState } from "./agent-state";
import { migrateAgentSchema } from "./do-schema";
import { QueueRunner } from "./queue-runner";
import { runRecall, type RecallOutcome } from "./recall-task";
import { runSearch } from "./search-task";
import { randomId } from "./runtime";
import { buildNodeView, buildStats, taskView } from "./views";

export type CompressOutcome = { ok: true; taskIds: string[] } | { ok: false; code: "queue_full"; message: string };

export type EnqueueOutcome = { ok: true; taskId: string; queuedAhead: number } | { ok: false; code: "queue_full"; message: string };

export class MemoryAgent extends DurableObject<Env> {
  private readonly state: AgentState;
  private readonly runner: QueueRunner;
  private readonly ready: Promise<void>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.state = new AgentState(ctx.storage, env);
    this.runner = new QueueRunner(this.state, ctx);
    // Schema set-up and crash recovery run once per wake, before any request is delivered.
    this.ready = ctx.blockConcurrencyWhile(async () => {
      migrateAgentSchema(ctx.storage.sql);
      this.state.queue.recoverAfterWake();
      if (this.state.queue.earliestDue() !== null && (await ctx.storage.getAlarm()) === null) {
        await ctx.storage.setAlarm(Date.now());
      }
    });
  }

  /** Accepts a remember: durably queued before this returns; processed in arrival order. */
  async remember(identity: AgentIdentity, messages: RememberMessage[]): Promise<EnqueueOutcome> {
    await this.bind(identity, true);
    const queue = this.state.queue;
    if (queue.queuedForeground() >= MAX_QUEUED_TASKS) {
      return { ok: false, code: "queue_full", message: `the agent has ${MAX_QUEUED_TASKS} tasks waiting; retry later` };
    }
    const task = queue.enqueue({ id: randomId("tsk_"), kind: "remember", payload: { messages }, now: Date.now() });
    await this.runner.wake();
    return { ok: true, taskId: task.id, queuedAhead: queue.ahead(task.seq) };
  }

  /** Queues `cycles` compression cycles (background: they yield to remembers and recalls). */
  async compress(identity: AgentIdentity, cycles: number): Promise<CompressOutcome> {
    await this.bind(identity, true);
    const queue = this.state.queue;
    // Cycles are background work, but a client asking for more than the limit at once is refused.
    const waiting = queue.counts().queued;
    if (waiting + cycles > MAX_QUEUED_TASKS) {
      return { ok: false, code: "queue_full", message: `the agent has ${waiting} tasks waiting; retry later` };
    }
    const taskIds = this.state.storage.transactionSync(() =>
      Array.from(
        { length: cycles },
        () => queue.enqueue({ id: randomId("tsk_"), kind: "compress", payload: null, background: true, now: Date.now() }).id,
      ),
    );
    await this.runner.wake();
    return { ok: true, taskIds };
  }

  async config(identity: AgentIdentity): Promise<AgentParams> {
    await this.bind(identity);
    return this.state.meta.params();
  }

  /** Validates the merged parameters; they apply from the next cycle (a running cycle keeps its own). */
  async updateConfig(identity: AgentIdentity, patch: AgentParamsPatch): Promise<AgentParams> {
    await this.bind(identity, true);
    const params = AgentParamsSchema.parse({ ...this.state.meta.params(), ...patch });
    this.state.meta.set("params", params);
    return params;
  }

  /** Recall goes through the queue, so it sees every remember accepted before it. */
  async recall(identity: AgentIdentity, request: RecallRequest): Promise<RecallOutcome> {
    await this.bind(identity);
    const task = this.state.queue.enqueue({
      id: randomId("tsk_"),
      kind: "recall",
      payload: request,
      ephemeral: true,
      now: Date.now(),
    });
    return this.runner.waitForResult(task.id, () => runRecall(this.state, request));
  }

  /** Search goes through the queue too: it sees every remember accepted before it. */
  async search(identity: AgentIdentity, request: SearchRequest): Promise<SearchResponse> {
    await this.bind(identity);
    const task = this.state.queue.enqueue({ id: randomId("tsk_"), kind: "search", payload: request, ephemeral: true, now: Date.now() });
    return this.runner.waitForResult(task.id, () => runSearch(this.state, request));
  }

  /**
   * Deletes the agent's memory entirely, after whatever was queued before. Waits up to `waitMs`;
   * a deletion still running then answers with its task id.
   */
  async deleteAgent(identity: AgentIdentity, waitMs: number): Promise<{ deleted: true } | { deleted: false; taskId: string }> {
    await this.bind(identity);
    const task = this.state.queue.enqueue({ id: randomId("tsk_"), kind: "delete", payload: null, now: Date.now() });
    await this.runner.wake();
    await this.runner.waitForFinish(task.id, waitMs);
    const left = this.state.queue.get(task.id);
    if (left?.status === "failed") throw new Error(`agent deletion failed: ${left.error ?? "unknown error"}`);
    return left ? { deleted: false, taskId: task.id } : { deleted: true };
  }

  async taskStatus(identity: AgentIdentity, taskId: string, waitMs = 0): Promise<TaskStatusView | null> {
    await this.bind(identity);
    if (waitMs > 0) await this.runner.waitForFinish(taskId, waitMs);
    const task = this.state.queue.get(taskId);
    return task && !task.ephemeral ? taskView(task) : null;
  }

  async focusView(identity: AgentIdentity): Promise<FocusView> {
    await this.bind(identity);
    return {
      focus_limit: this.state.meta.params().focus_limit,
      focus: this.state.focus.list().map((f) => ({ node_id: f.nodeId, name: f.name, key: f.key })),
    };
  }

  async node(identity: AgentIdentity, nodeId: number): Promise<NodeView | null> {
    await this.bind(identity);
    const repos = this.state.existingRepos();
    if (!repos) return null;
    return buildNodeView(repos, nodeId, this.state.meta.clock(), new Set(this.state.focus.ids()));
  }

  async stats(identity: AgentIdentity, waitIdleMs = 0): Promise<StatsView> {
    await this.bind(identity);
    if (waitIdleMs > 0) await this.runner.waitForIdle(waitIdleMs);
    const s = this.state;
    return buildStats(s.existingRepos(), s.vectors(), s.queue.counts(), s.focus.ids().length, s.meta.counters());
  }

  /** Reaches the object and runs one trivial D1 query: the floor of any agent request. */
  async ping(identity: AgentIdentity): Promise<PingView> {
    await this.bind(identity);
    await this.state.d1.prepare("SELECT 1").first();
    return { ok: true, agent_id: identity.agentId };
  }

  /** Cron safety net: make sure overdue work is being done. */
  async wake(): Promise<void> {
    await this.ready;
    await this.runner.wake();
  }

  override async alarm(): Promise<void> {
    await this.ready;
    await this.runner.runFromAlarm();
  }

  /** Waits for start-up, then checks (reads) or records (writes) the caller's identity. */
  private async bind(identity: AgentIdentity, persist = false): Promise<void> {
    await this.ready;
    this.state.bind(identity, persist);
  }
}
