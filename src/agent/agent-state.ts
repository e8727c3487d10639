/**
 * The runtime of one agent inside its Durable Object (src/engine/runtime.ts): its own tables (meta,
 * focus, queue, scan bookkeeping, message ids, idempotency keys, intents, feedback marks, import
 * staging, in the object's SQLite), where its network lives (agent-network.ts) and its models
 * (agent-models.ts). Task runners receive this as the few interfaces each names, never the Durable
 * Object class, so nothing here is reachable over RPC.
 */
import type { NetworkOp, WriteOp } from "../memory/write-ops";
import type { AgentIdentity } from "../vocabulary/identity";
import type { RunnerRuntime, TaskHooks } from "../engine/runtime";
import { FeedbackStore } from "../engine/stores/feedback-store";
import { FocusStore } from "../engine/stores/focus-store";
import { ForgottenNodes } from "../engine/stores/forgotten-nodes";
import { scrubPurged } from "../engine/stores/purged-results";
import { IdempotencyKeys } from "../engine/stores/idempotency";
import { ImportStaging } from "../engine/stores/import-staging";
import { IntentStore } from "../engine/stores/intent-store";
import { MessageIds } from "../engine/stores/message-ids";
import { MetaStore } from "../engine/stores/meta-store";
import { ScanStore } from "../engine/stores/scan-store";
import { ExpiryStore } from "../engine/stores/expiry-store";
import { SessionStore } from "../engine/stores/session-store";
import { TaskQueue } from "../engine/task-queue";
import type { ObjectState } from "../engine/write-kind";
import { writeKind } from "../engine/write-table";
import { AgentModelSet } from "./agent-models";
import { AgentNetworkAccess } from "./agent-network";
import { UsageDays } from "../engine/stores/usage-days";
import { meteredObjectStorage } from "../storage/metered-do-sql";
import { reportIntervalMs, TenantTerms } from "./tenant-terms";
import { doSqlCounters, UsageMeter, usageMetered } from "./usage-meter";

export class AgentState implements RunnerRuntime, ObjectState {
  readonly storage: DurableObjectStorage;
  readonly meta: MetaStore;
  readonly focus: FocusStore;
  readonly queue: TaskQueue;
  readonly scans: ScanStore;
  readonly messages: MessageIds;
  readonly keys: IdempotencyKeys;
  readonly intents: IntentStore;
  readonly feedback: FeedbackStore;
  readonly imports: ImportStaging;
  readonly forgotten: ForgottenNodes;
  readonly sessions: SessionStore;
  readonly expiries: ExpiryStore;
  /** What the object spends of billed resources; only with BENCH_USAGE_COUNTERS (usage-meter.ts). */
  readonly usage: UsageMeter | undefined;
  /** The tenant's limits, its daily messages charge and the agent's usage per day (tenant-terms.ts). */
  readonly terms: TenantTerms;
  /** The D1 shards, the placement, the repositories and the caches of the network. */
  readonly network: AgentNetworkAccess;
  readonly models: AgentModelSet;

  constructor(
    storage: DurableObjectStorage,
    env: Env,
    private readonly hooks: TaskHooks,
    /** The platform's word on the object's jurisdiction (ctx.id.jurisdiction); undefined in workerd and outside one. */
    private readonly platformJurisdiction?: string,
  ) {
    // With the meter on, the object's own rows are counted too (their writes are billed like
    // D1's), but not the meter's own: its counters exist only in the benchmark.
    let flushing = false;
    const metered = usageMetered(env);
    this.storage = metered
      ? meteredObjectStorage(storage, (u) => {
          if (!flushing) this.usage?.add(doSqlCounters(u));
        })
      : storage;
    const sql = this.storage.sql;
    const meta = new MetaStore(sql);
    this.meta = meta;
    this.usage = metered
      ? new UsageMeter((deltas) => {
          flushing = true;
          try {
            meta.bump(deltas);
          } finally {
            flushing = false;
          }
        })
      : undefined;
    this.focus = new FocusStore(sql);
    this.queue = new TaskQueue(sql);
    this.scans = new ScanStore(sql);
    this.messages = new MessageIds(sql);
    this.keys = new IdempotencyKeys(sql);
    this.intents = new IntentStore(sql);
    this.feedback = new FeedbackStore(sql);
    this.imports = new ImportStaging(sql);
    this.forgotten = new ForgottenNodes(sql);
    this.sessions = new SessionStore(sql);
    this.expiries = new ExpiryStore(sql);
    const days = new UsageDays(sql, reportIntervalMs(env));
    this.models = new AgentModelSet(env, meta, (kind) => days.add({ [`model_calls.${kind}`]: 1 }));
    this.network = new AgentNetworkAccess({
      storage: this.storage,
      env,
      meta,
      focus: this.focus,
      usage: this.usage,
      days,
      dimensions: this.models.embedder.dimensions,
      identity: () => this.identity(),
    });
    this.terms = new TenantTerms(env, meta, days, this.network, () => this.identity());
  }

  // The network (agent-network.ts).
  repos() {
    return this.network.repos();
  }
  existingRepos() {
    return this.network.existingRepos();
  }
  graph() {
    return this.network.graph();
  }
  loadedGraph() {
    return this.network.loadedGraph();
  }
  vectors() {
    return this.network.vectors();
  }
  /** The agent's D1 shard once it registered; the primary database before. */
  get d1(): D1Database {
    return this.network.d1;
  }

  // The models (agent-models.ts).
  get model() {
    return this.models.model;
  }
  get embedder() {
    return this.models.embedder;
  }
  get queryVectors() {
    return this.models.queryVectors;
  }
  get digestAhead() {
    return this.models.digestAhead;
  }
  get verdictsAhead() {
    return this.models.verdictsAhead;
  }
  get embeddingsAhead() {
    return this.models.embeddingsAhead;
  }
  sharesModelCalls(): boolean {
    return this.models.sharesModelCalls();
  }

  /**
   * After a failed task the copy may have missed a committed write: rebuild it on next use. A
   * transaction that threw rolled back, so what the intent store knows is re-read too.
   */
  dropGraph(): void {
    this.network.dropGraph();
    this.intents.forget();
    this.scans.forget();
    this.focus.clearCache();
    this.meta.clearCache();
  }

  identity(): AgentIdentity {
    const identity = this.meta.get("identity");
    if (!identity) throw new Error("agent identity not bound yet");
    return identity;
  }

  /**
   * Checks the caller's identity against the one the object keeps, recording it the first time.
   * The object's name is derived from the same pair, and its namespace from the jurisdiction, so a
   * different identity or jurisdiction is a routing bug; so is a jurisdiction the platform says
   * the object is not in.
   */
  bind(identity: AgentIdentity): void {
    const jurisdiction = identity.jurisdiction;
    if (this.platformJurisdiction !== undefined && this.platformJurisdiction !== jurisdiction) {
      throw new Error(
        `agent jurisdiction mismatch: this object is in ${this.platformJurisdiction}, the caller addressed ${jurisdiction ?? "none"}`,
      );
    }
    const known = this.meta.get("identity");
    if (!known) {
      const { tenantId, agentId } = identity;
      this.meta.set("identity", jurisdiction === undefined ? { tenantId, agentId } : { tenantId, agentId, jurisdiction });
    } else if (known.tenantId !== identity.tenantId || known.agentId !== identity.agentId || known.jurisdiction !== jurisdiction) {
      throw new Error("agent identity mismatch: this object belongs to another tenant/agent or jurisdiction");
    }
  }

  now(): number {
    return Date.now();
  }

  /** The object's column of the write table (src/engine/write-table.ts). */
  applyLocal(op: WriteOp): void {
    writeKind(op.type).object?.(this, op);
  }

  /** The expiries' schedule: an expiry due now queues its purge (once), a later one is the next due time. */
  scheduleDue(now: number): number | null {
    const at = this.expiries.earliest();
    if (at === null) return null;
    if (at > now) return at;
    this.hooks.queueExpiry(this.queue, now);
    return null;
  }

  keepCopy(network: readonly NetworkOp[], purges: boolean): void {
    this.network.keepCopy(network, purges);
  }

  dropCopy(): void {
    this.network.snapshots.drop();
  }

  queueIndexRetry(ids: { upsert: number[]; remove: number[] }): void {
    this.meta.bump({ index_retries: 1 });
    this.hooks.queueIndexRetry(this.queue, ids, this.now());
  }

  /** The object's side of a purge (src/engine/stores/purged-results.ts), inside its commit's transaction. */
  scrubPurged(purged: { nodeIds: readonly number[]; taskIds: readonly string[]; names: readonly string[] }): void {
    scrubPurged(this.storage.sql, { keys: this.keys, forgotten: this.forgotten }, this.hooks.resultCarriers, purged);
  }

  /** The object's memory state goes; its identity stays, so tasks queued after a deletion still run. */
  purgeMemory(): void {
    this.meta.clearAllButIdentity();
    for (const table of ["focus", "vectors", "recent_vectors", "reinforced"]) this.storage.sql.exec(`DELETE FROM ${table}`);
    this.scans.clear();
    this.messages.clear();
    this.forgotten.clear();
    this.sessions.clear();
    this.expiries.clear();
    // Staged imports hold content too: an upload still under way finds its lines gone and is refused.
    this.imports.dropAll();
    this.focus.clearCache();
    this.network.forget();
  }
}
