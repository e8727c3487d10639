/**
 * One agent's memory: a SQLite-backed Durable Object reached by typed RPC (docs/design.md, "Execution model"). It owns
 * the durable task queue, the focus LRU and the agent's bookkeeping; node and link rows live in
 * D1, keyed by agent.
 *
 * Work goes through two generic entry points derived from the task kinds (agent-tasks.ts):
 * `submit` queues a write or a compression cycle, `ask` runs a read behind every write accepted
 * before it; a new kind needs no new method. Their payloads come typed from the object's own
 * Worker, whose routes validated them at the edge: the object stores them as given and parses a
 * payload only when it reads it back from storage to run it, and a result only when it reads a
 * finished task's result back (docs/design.md, "Task kinds"). Results cross the RPC
 * boundary as objects. Reads of the agent's state that are not tasks (status, focus, a node,
 * stats, config) are plain methods.
 *
 * Every call carries the caller's identity (tenant from the API key, agent id from the path). The
 * object's name is derived from the same pair, and the first identity it sees is kept and checked.
 */
import { DurableObject } from "cloudflare:workers";
import { MAX_QUEUED_TASKS } from "../config/limits";
import type { AgentParams } from "../config/params";
import type { AgentIdentity } from "../vocabulary/identity";
import type { QuotaRefusal } from "./refusal";
import type { SubmitOptions } from "./submit-options";
import { admitWrite } from "./admit-write";
import { AgentState } from "./agent-state";
import { exportStream } from "../operations/shared/export-format";
import { fingerprint } from "../engine/stores/idempotency";
import { migrateAgentSchema } from "../engine/stores/do-schema";
import { networkReader } from "../engine/network-reader";
import { buildNodeView, FIRST_LINKS_PAGE, type LinksPage, type NodeView } from "../operations/shared/node-view";
import type { FocusView } from "../operations/get-focus/schemas";
import { buildStats, type StatsView } from "../operations/get-stats/read";
import type { PingView } from "../operations/ping/schemas";
import { QueueRunner } from "../engine/queue-runner";
import { nodeIdShortage } from "./node-id-room";
import {
  AGENT_TASK_HOOKS,
  AGENT_TASKS,
  ALLOCATING_KINDS,
  enqueueTyped,
  fingerprintName,
  RENAMED_KINDS,
  resultInMemory,
  storedResult,
  type KindOf,
  type PayloadIn,
  type ResultOf,
} from "./agent-tasks";
import type { TaskStatus } from "../engine/task-queue";
import { upgradeAgentData } from "./upgrade";
import { benchAnswer, type BenchAnswer } from "./copy-check";
import { taskView, type TaskStatusView } from "./task-status";
import { benchHooksOn, type BenchAction } from "./usage-meter";

export type SubmitOutcome<R> =
  /**
   * conflict: the write cannot apply to the agent as it stands (its node ids could run out, or its
   * Idempotency-Key names a write deleted since).
   */
  | { ok: false; code: "idempotency_conflict" | "capacity" | "conflict"; message: string }
  /** `result`: the finished task's result (or the write's refusal, as its kind's result). */
  | { ok: true; taskIds: string[]; queuedAhead: number; status: TaskStatus; result: R | null; error: string | null }
  | { ok: false; code: "queue_full"; message: string }
  /** A quota of the tenant: the agents it may have, or the messages it may remember today. */
  | { ok: false; code: "quota_exceeded"; message: string; quota: QuotaRefusal };

/**
 * The object's test interface (docs/architecture.md, "Tests"), for tests that run inside its
 * isolate (`runInDurableObject`) and reach what no RPC method shows.
 */
export interface AgentTestAccess {
  /**
   * The runtime its tasks run on (the interfaces of src/engine/runtime.ts), with the parts a test
   * may replace: the models (`models.primaryModel`, `models.sleep`), the D1 shards
   * (`network.d1Shards`), and `applyLocal` (a fault between a commit's steps).
   */
  readonly state: AgentState;
  /** Its queue runner: drain budget, retry delay, waits for a task or for idle. */
  readonly runner: QueueRunner;
}

export class MemoryAgent extends DurableObject<Env> {
  private readonly state: AgentState;
  private readonly runner: QueueRunner;
  private readonly ready: Promise<void>;

  /** The test interface of an instance; static, so no RPC caller can reach it. */
  static testAccess(agent: MemoryAgent): AgentTestAccess {
    return { state: agent.state, runner: agent.runner };
  }

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.state = new AgentState(ctx.storage, env, AGENT_TASK_HOOKS, ctx.id.jurisdiction);
    this.runner = new QueueRunner(this.state, ctx, AGENT_TASKS);
    const usage = this.state.usage;
    if (usage) this.runner.observeDrain = (drain) => usage.track(drain);
    // The usage report rides the one alarm (alarm() below sends it).
    this.runner.upkeepDue = () => this.state.terms.usage.dueAt();
    // Schema set-up, data upgrades and crash recovery run once per wake, before any request.
    this.ready = ctx.blockConcurrencyWhile(async () => {
      migrateAgentSchema(ctx.storage.sql);
      this.state.queue.renameKinds(RENAMED_KINDS);
      await upgradeAgentData(this.state);
      this.state.queue.recoverAfterWake(Date.now());
      // Work left by the last instance: queued tasks, or an expiry whose alarm may be lost.
      if (this.state.queue.earliestDue() !== null || this.state.expiries.earliest() !== null) await this.runner.wake();
    });
  }

  /**
   * Queues a write or compression cycle of `kind` (durable before this returns; applied in the
   * queue's order) and optionally waits for it. Answers with its id, its place and, when it
   * finished within the wait, its result.
   */
  submit<K extends KindOf<"write" | "cycle">>(
    identity: AgentIdentity,
    kind: K,
    payload: PayloadIn<K>,
    options: SubmitOptions = {},
  ): Promise<SubmitOutcome<ResultOf<K>>> {
    return this.serve("submit", async () => {
      await this.bind(identity, true);
      const terms = this.state.terms;
      terms.accept(options);
      const definition = AGENT_TASKS.definition(kind);
      if (definition.lane !== "write" && definition.lane !== "cycle") throw new Error(`${kind} cannot be submitted`);
      const repeat = options.repeat ?? 1;
      const queue = this.state.queue;
      const key = options.idempotencyKey;
      const print = key === undefined ? "" : await fingerprint(fingerprintName(kind), payload, repeat);
      const seen = key === undefined ? undefined : this.state.keys.find(key, Date.now());
      if (seen && seen.fingerprint !== print) {
        return { ok: false, code: "idempotency_conflict", message: "this Idempotency-Key was used with a different request" };
      }
      if (seen?.gone) {
        return {
          ok: false,
          code: "conflict",
          message:
            "this Idempotency-Key's request was applied, and what it wrote was deleted since (the agent, or the memory with purge): send it with a new key to write it again",
        };
      }
      if (seen) return this.answer(kind, seen.taskIds, options.waitMs);
      const shortage = nodeIdShortage(this.state, ALLOCATING_KINDS, {
        allocates: definition.allocatesNodes === true,
        setsNextNodeId: definition.setsNextNodeId?.(payload),
      });
      if (shortage !== undefined) return { ok: false, code: "conflict", message: shortage };
      // A write refused by the memory as it stands (a node not found…) is answered without queuing it.
      if (definition.refuse) {
        const check = enqueueTyped(queue, "check", { kind, payload }, { now: Date.now() });
        const { refusal } = resultInMemory("check", await this.runner.waitForResult(check.id));
        if (refusal !== null && refusal !== undefined) {
          // What the kind's own `refuse` returned: a result of this kind.
          return { ok: true, taskIds: [], queuedAhead: 0, status: "done", result: resultInMemory(kind, refusal), error: null };
        }
      }
      // Cycles are the agent's own work and never make a write bounce; a client asking for more
      // cycles than the limit at once is refused.
      const waiting = definition.lane === "write" ? queue.queuedWrites() + repeat : queue.queuedDurable() + repeat;
      if (waiting > MAX_QUEUED_TASKS) {
        return { ok: false, code: "queue_full", message: `the agent has ${waiting - repeat} tasks waiting; retry later` };
      }
      // The daily messages quota and the agent's registration in D1 (a refused write did neither).
      const refused = await admitWrite(this.state, kind, payload);
      if (refused) return refused;
      // The tasks and the key that names them commit together: a retry finds both or neither.
      const tasks = this.state.storage.transactionSync(() => {
        const queued = Array.from({ length: repeat }, () => enqueueTyped(queue, kind, payload, { now: Date.now() }));
        if (key !== undefined) this.state.keys.record(key, { fingerprint: print, taskIds: queued.map((t) => t.id) }, Date.now());
        terms.usage.add({ [`requests.${kind}`]: 1 });
        return queued;
      });
      await this.runner.wake();
      return this.answer(
        kind,
        tasks.map((t) => t.id),
        options.waitMs,
      );
    });
  }

  /** The answer about queued tasks: where the last one stands, after waiting for it if asked. */
  private async answer<K extends KindOf<"write" | "cycle">>(kind: K, taskIds: string[], waitMs = 0): Promise<SubmitOutcome<ResultOf<K>>> {
    const lastId = taskIds[taskIds.length - 1];
    if (lastId === undefined) throw new Error("nothing queued");
    if (waitMs > 0) await this.runner.waitForFinish(lastId, waitMs);
    const last = this.state.queue.get(lastId);
    return {
      ok: true,
      taskIds,
      queuedAhead: last ? this.state.queue.ahead(last.seq) : 0,
      // A task no longer listed was taken with an agent deletion (or pruned): it is done.
      status: last?.status ?? "done",
      result: last?.status === "done" && last.result !== null ? storedResult(kind, last.result) : null,
      error: last?.error ?? null,
    };
  }

  /** Runs a read of `kind` once every write accepted before it is applied; answers its result. */
  ask<K extends KindOf<"read">>(identity: AgentIdentity, kind: K, payload: PayloadIn<K>): Promise<ResultOf<K>> {
    return this.serve("ask", async () => {
      await this.bind(identity, true); // the day's usage names the agent
      if (AGENT_TASKS.definition(kind).lane !== "read") throw new Error(`${kind} is not a read`);
      this.state.terms.usage.add({ [`requests.${kind}`]: 1 });
      const task = enqueueTyped(this.state.queue, kind, payload, { now: Date.now() });
      return resultInMemory(kind, await this.runner.waitForResult(task.id));
    });
  }

  config(identity: AgentIdentity): Promise<AgentParams> {
    return this.serve("config", async () => {
      await this.bind(identity);
      return this.state.meta.params();
    });
  }

  taskStatus(identity: AgentIdentity, taskId: string, waitMs = 0): Promise<TaskStatusView | null> {
    return this.serve("taskStatus", async () => {
      await this.bind(identity);
      if (waitMs > 0) await this.runner.waitForFinish(taskId, waitMs);
      const task = this.state.queue.get(taskId);
      return task && task.lane !== "read" ? taskView(task) : null;
    });
  }

  focusView(identity: AgentIdentity): Promise<FocusView> {
    return this.serve("focusView", async () => {
      await this.bind(identity);
      return {
        focus_limit: this.state.meta.params().focus_limit,
        focus: this.state.focus.list().map((f) => ({ node_id: f.nodeId, name: f.name, key: f.key })),
      };
    });
  }

  node(identity: AgentIdentity, nodeId: number, page: LinksPage = FIRST_LINKS_PAGE): Promise<NodeView | null> {
    return this.serve("node", async () => {
      await this.bind(identity);
      const s = this.state;
      const repos = s.existingRepos();
      if (!repos) return null;
      return buildNodeView(
        await networkReader(s, repos),
        nodeId,
        {
          clock: s.meta.clock(),
          focus: new Set(s.focus.ids()),
          scanCount: s.scans.counts([nodeId], s.meta.scanCycles()).get(nodeId) ?? 0,
          now: s.now(),
        },
        page,
      );
    });
  }

  stats(identity: AgentIdentity, waitIdleMs = 0): Promise<StatsView> {
    return this.serve("stats", async () => {
      await this.bind(identity);
      if (waitIdleMs > 0) await this.runner.waitForIdle(waitIdleMs);
      const s = this.state;
      const counters = s.usage ? s.usage.withUnflushed(s.meta.counters()) : s.meta.counters();
      return buildStats(
        s.existingRepos(),
        s.vectors(),
        s.queue.counts(),
        s.focus.ids().length,
        counters,
        s.network.placementView(identity.jurisdiction),
      );
    });
  }

  /**
   * The agent's whole memory as JSON Lines (docs/design.md, "Memory operations", export), streamed. Read in one
   * turn of the queue, after every write accepted before it (the export task), then serialised
   * line by line as the caller reads.
   */
  exportLines(identity: AgentIdentity): Promise<ReadableStream<Uint8Array>> {
    return this.serve("exportLines", async () => {
      await this.bind(identity);
      const task = enqueueTyped(this.state.queue, "exportAgent", null, { now: Date.now() });
      const snapshot = resultInMemory("exportAgent", await this.runner.waitForResult(task.id));
      return exportStream(snapshot);
    });
  }

  /**
   * Whether an import may go into this agent now: "retry" when `idempotencyKey` already names a
   * request (the caller only hashes the body and submits: the key answers its first task or
   * refuses another body), "empty" when it holds no memory (the import task checks again), else
   * "not_empty".
   */
  importable(identity: AgentIdentity, idempotencyKey?: string): Promise<"retry" | "empty" | "not_empty"> {
    return this.serve("importable", async () => {
      await this.bind(identity);
      if (idempotencyKey !== undefined && this.state.keys.find(idempotencyKey, Date.now())) return "retry";
      const repos = this.state.existingRepos();
      if (this.state.messages.count() > 0 || this.state.focus.ids().length > 0) return "not_empty";
      const empty = !repos || ((await repos.nodes.count()) === 0 && (await repos.links.count()) === 0);
      return empty ? "empty" : "not_empty";
    });
  }

  /**
   * Stages validated import lines (the HTTP layer validates, src/operations/shared/export-format.ts) under an
   * upload id: `from` is the position of the first; `begin` starts the upload afresh.
   */
  stageImport(identity: AgentIdentity, uploadId: string, from: number, lines: string[], begin: boolean): Promise<void> {
    return this.serve("stageImport", async () => {
      await this.bind(identity, true);
      if (begin) this.state.imports.begin(uploadId, Date.now());
      this.state.imports.add(uploadId, from, lines, Date.now());
    });
  }

  /** Names a complete upload by its digest (the import task's id). */
  sealImport(identity: AgentIdentity, uploadId: string, digest: string): Promise<void> {
    return this.serve("sealImport", async () => {
      await this.bind(identity, true);
      this.state.imports.rename(uploadId, digest);
    });
  }

  /**
   * Drops what an upload staged when it ends before its task is queued (a bad line, a refusal, a
   * broken connection): the lines under its upload id, and under `digest` unless an import task
   * queued or running reads them.
   */
  abandonImport(identity: AgentIdentity, uploadId: string, digest: string | null): Promise<void> {
    return this.serve("abandonImport", async () => {
      await this.bind(identity);
      this.state.imports.drop(uploadId);
      if (digest !== null && !this.state.queue.importQueued(digest)) this.state.imports.drop(digest);
    });
  }

  /** Reaches the object and runs one trivial D1 query: the floor of any agent request. */
  ping(identity: AgentIdentity): Promise<PingView> {
    return this.serve("ping", async () => {
      await this.bind(identity);
      await this.state.d1.prepare("SELECT 1").first();
      return { ok: true, agent_id: identity.agentId };
    });
  }

  /**
   * The benchmark's hooks (BENCH_HOOKS = "1" only; what each does: bench-hooks.ts). Not a request
   * the meter counts (serve), so the last call's figures stay. With the hooks off: null.
   */
  async benchHook<A extends BenchAction>(identity: AgentIdentity, action: A): Promise<BenchAnswer<A> | null> {
    if (!benchHooksOn(this.env)) return null;
    await this.bind(identity);
    return benchAnswer(this.state, this.ctx, action);
  }

  /** Cron safety net: make sure overdue work is being done (and an idle agent's entry tidied). */
  wake(): Promise<void> {
    return this.serve("wake", async () => {
      await this.ready;
      await this.runner.wakeFromCron();
    });
  }

  override alarm(): Promise<void> {
    return this.serve("alarm", async () => {
      await this.ready;
      // Before the drain, whose settling arms the alarm for the next report if counts remain.
      await this.state.terms.report(Date.now());
      await this.runner.runFromAlarm();
    });
  }

  /**
   * One request into the object (an RPC call, the alarm): the queue gives way to it before its next
   * task, and the usage meter, when on, counts and times it.
   */
  private serve<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.runner.requestArrived();
    const usage = this.state.usage;
    return usage ? usage.request(name, work) : work();
  }

  /**
   * Waits for start-up, then checks the caller's identity; a write or a counted read (`persist`)
   * records it the first time (any other read of an agent that never wrote leaves nothing).
   */
  private async bind(identity: AgentIdentity, persist = false): Promise<void> {
    await this.ready;
    if (persist || this.state.meta.get("identity")) this.state.bind(identity);
  }
}
