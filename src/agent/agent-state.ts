/**
 * The runtime of one agent inside its Durable Object: persisted state (meta, focus, queue, scan
 * bookkeeping, message ids in the object's SQLite), the D1 repositories of the agent's shard
 * keyed by its key there, the models, and the caches (graph, vector index). Task runners receive
 * this, never the Durable Object class, so nothing here is reachable over RPC.
 */
import type { MemoryGraph } from "../memory/graph";
import { isBookkeeping, type BookkeepingOp, type NetworkOp, type WriteOp } from "../memory/write-ops";
import { createEmbedder, createFallbackModel, createModel } from "../models/providers";
import { ResilientModel } from "../models/resilient-model";
import { realSleep, retryPolicy } from "../models/retry";
import type { Embedder, SmallModel } from "../models/types";
import { QueryVectors } from "../models/query-vectors";
import { DigestAhead } from "../engine/digest-ahead";
import { VerdictsAhead } from "../engine/verdicts-ahead";
import { EmbeddingsAhead } from "../engine/embeddings-ahead";
import { AgentRegistry, legacyPlacement, type Placement } from "../storage/agent-registry";
import { D1Shards } from "../storage/d1-shards";
import { createDb, type Db } from "../storage/db";
import { FtsRepo } from "../storage/fts-repo";
import { LinkRepo } from "../storage/link-repo";
import { NodeRepo } from "../storage/node-repo";
import { meteredD1 } from "../storage/metered-d1";
import { meteredVectorIndex } from "../vectors/metered-vector-index";
import { createVectorIndex, vectorIndexNames } from "../vectors/providers";
import type { VectorIndex } from "../vectors/types";
import type { AgentIdentity } from "../vocabulary/identity";
import { unreachable } from "../vocabulary/records";
import { FocusStore } from "../engine/stores/focus-store";
import { GRAPH_MAX_LINKS, GRAPH_MAX_NODES, loadGraph } from "../engine/graph-loader";
import { IdempotencyKeys } from "../engine/stores/idempotency";
import { ImportStaging } from "../engine/stores/import-staging";
import { IntentStore } from "../engine/stores/intent-store";
import { MessageIds } from "../engine/stores/message-ids";
import { DATA_VERSION, MetaStore } from "../engine/stores/meta-store";
import type { AgentRepos, RunnerRuntime, TaskHooks } from "../engine/runtime";
import { FeedbackStore } from "../engine/stores/feedback-store";
import { ScanStore } from "../engine/stores/scan-store";
import { TaskQueue } from "../engine/task-queue";
import { d1Counters, UsageMeter, usageMetered, vectorCounters } from "./usage-meter";

export class AgentState implements RunnerRuntime {
  /** The configured D1 shards; replaceable in tests (to watch or limit a binding). */
  d1Shards: D1Shards;
  readonly meta: MetaStore;
  readonly focus: FocusStore;
  readonly queue: TaskQueue;
  readonly scans: ScanStore;
  readonly messages: MessageIds;
  readonly keys: IdempotencyKeys;
  readonly intents: IntentStore;
  readonly feedback: FeedbackStore;
  readonly imports: ImportStaging;
  /** What the object spends of billed resources; only with BENCH_USAGE_COUNTERS (usage-meter.ts). */
  readonly usage: UsageMeter | undefined;
  /** The configured provider and its fallback; replaceable in tests. */
  primaryModel: SmallModel;
  fallbackModel: SmallModel | undefined;
  /** How retries wait; replaceable in tests so they need no real time. */
  sleep: (ms: number) => Promise<void> = realSleep;
  readonly storage: DurableObjectStorage;
  readonly embedder: Embedder;
  readonly embeddingsAhead: EmbeddingsAhead;
  readonly queryVectors: QueryVectors;
  /**
   * Model answers prepared ahead of their turn, for the model policy they were asked under: a
   * change of the agent's model_policy applies from its place in the queue, so answers asked
   * before it are dropped, never used by a task after it.
   */
  private ahead: { policy: string; digests: DigestAhead; verdicts: VerdictsAhead } | undefined;
  private readonly env: Env;
  private repoCache: AgentRepos | undefined;
  private readonly dbCache = new Map<D1Database, Db>();
  /** A registration in flight: concurrent first writes register the agent once. */
  private registering: Promise<void> | undefined;
  private vectorCache: { agentUid: number; index: VectorIndex } | undefined;
  /** null: the agent is too large to cache; the D1 path serves it until the next wake. */
  private graphCache: { agentUid: number; graph: MemoryGraph | null } | undefined;

  constructor(
    storage: DurableObjectStorage,
    env: Env,
    private readonly hooks: TaskHooks,
  ) {
    this.storage = storage;
    this.meta = new MetaStore(storage.sql);
    const meta = this.meta;
    this.usage = usageMetered(env) ? new UsageMeter((deltas) => meta.bump(deltas)) : undefined;
    this.d1Shards = this.metered(D1Shards.fromEnv(env));
    this.focus = new FocusStore(storage.sql);
    this.queue = new TaskQueue(storage.sql);
    this.scans = new ScanStore(storage.sql);
    this.messages = new MessageIds(storage.sql);
    this.keys = new IdempotencyKeys(storage.sql);
    this.intents = new IntentStore(storage.sql);
    this.feedback = new FeedbackStore(storage.sql);
    this.imports = new ImportStaging(storage.sql);
    this.env = env;
    this.primaryModel = createModel(env, () => this.meta.params().model_policy);
    this.fallbackModel = createFallbackModel(env);
    const embedder = createEmbedder(env);
    this.embeddingsAhead = new EmbeddingsAhead(embedder);
    this.embedder = this.embeddingsAhead;
    this.queryVectors = new QueryVectors(embedder);
  }

  async graph(): Promise<MemoryGraph | undefined> {
    const repos = this.existingRepos();
    if (!repos) return undefined;
    if (this.graphCache?.agentUid !== repos.agentUid) {
      this.graphCache = { agentUid: repos.agentUid, graph: (await loadGraph(repos, this.focus.ids())) ?? null };
    }
    return this.graphCache.graph ?? undefined;
  }

  loadedGraph(): MemoryGraph | undefined {
    const graph = this.graphCache?.graph ?? undefined;
    if (graph && (graph.nodeCount > GRAPH_MAX_NODES || graph.linkCount > GRAPH_MAX_LINKS) && this.graphCache) {
      // Grown past what the object should hold: stop caching until the next wake.
      this.graphCache.graph = null;
      return undefined;
    }
    return graph;
  }

  /**
   * After a failed task the copy may have missed a committed write: rebuild it on next use. A
   * transaction that threw rolled back, so what the intent store knows is re-read too.
   */
  dropGraph(): void {
    this.graphCache = undefined;
    this.intents.forget();
    this.scans.forget();
    this.focus.clearCache();
    this.meta.clearCache();
  }

  /** The agent's D1 shard once it registered; the primary database before. */
  get d1(): D1Database {
    const placement = this.placement();
    return placement ? this.d1Shards.get(placement.d1) : this.d1Shards.primary;
  }

  get db(): Db {
    return this.dbOf(this.d1);
  }

  /** Where the agent's memory lives; undefined before its first write registered it. */
  placement(): Placement | undefined {
    const agentUid = this.meta.get("agentUid");
    if (agentUid === undefined) return undefined;
    const placement = this.meta.get("placement");
    return placement ? { uid: agentUid, ...placement } : legacyPlacement(agentUid, vectorIndexNames(this.env).length > 0);
  }

  /** One index object per wake: the local index keeps its vectors in memory once loaded. */
  vectors(): VectorIndex | undefined {
    const placement = this.placement();
    if (placement === undefined) return undefined;
    const agentUid = placement.uid;
    if (this.vectorCache?.agentUid !== agentUid) {
      const created = createVectorIndex(this.env, {
        sql: this.storage.sql,
        agentUid,
        dimensions: this.embedder.dimensions,
        index: placement.vectors,
        // A full index takes no new agents from now on (the registry sends them to the next one).
        onFull: (full) => this.registry().shards.markFull("vectorize", full.index, full.message, this.now()),
      });
      const usage = this.usage;
      const index = usage ? meteredVectorIndex(created, (u) => usage.add(vectorCounters(u))) : created;
      this.vectorCache = { agentUid, index };
    }
    return this.vectorCache.index;
  }

  /** The shards, each reporting its rows to the usage meter when there is one. */
  private metered(shards: D1Shards): D1Shards {
    const usage = this.usage;
    if (!usage) return shards;
    return shards.with(
      Object.fromEntries(shards.names.map((name) => [name, meteredD1(shards.get(name), (u) => usage.add(d1Counters(u)))])),
    );
  }

  /** The registry, in the primary database. */
  registry(): AgentRegistry {
    return new AgentRegistry(this.d1Shards.primary);
  }

  get digestAhead(): DigestAhead {
    return this.answersAhead().digests;
  }

  get verdictsAhead(): VerdictsAhead {
    return this.answersAhead().verdicts;
  }

  private answersAhead(): { digests: DigestAhead; verdicts: VerdictsAhead } {
    const policy = JSON.stringify(this.meta.params().model_policy);
    if (this.ahead?.policy !== policy) this.ahead = { policy, digests: new DigestAhead(), verdicts: new VerdictsAhead() };
    return this.ahead;
  }

  sharesModelCalls(): boolean {
    return this.primaryModel.digestMany !== undefined;
  }

  /** The model as tasks use it: retried per the agent's max_retries, failures counted in stats. */
  get model(): SmallModel {
    return new ResilientModel(this.primaryModel, this.fallbackModel, retryPolicy(this.meta.params().max_retries, this.sleep), {
      failed: (operation, error) => {
        this.meta.bump({ model_failures: 1 });
        console.warn(`model ${operation} failed after retries`, error);
      },
      fellBack: () => this.meta.bump({ model_fallbacks: 1 }),
      rateLimited: (_operation, ms) => this.meta.bump({ model_rate_limit_waits: 1, model_rate_limit_wait_ms: Math.round(ms) }),
      notRetried: (operation, error) => {
        this.meta.bump({ model_failures_not_retried: 1 });
        console.warn(`model ${operation} not retried`, error);
      },
    });
  }

  identity(): AgentIdentity {
    const identity = this.meta.get("identity");
    if (!identity) throw new Error("agent identity not bound yet");
    return identity;
  }

  /**
   * Checks the caller's identity against the one the object keeps, recording it the first time.
   * The object's name is derived from the same pair, so a different identity is a routing bug.
   */
  bind(identity: AgentIdentity): void {
    const known = this.meta.get("identity");
    if (!known) this.meta.set("identity", { tenantId: identity.tenantId, agentId: identity.agentId });
    else if (known.tenantId !== identity.tenantId || known.agentId !== identity.agentId) {
      throw new Error("agent identity mismatch: this object belongs to another tenant/agent");
    }
  }

  now(): number {
    return Date.now();
  }

  async repos(): Promise<AgentRepos> {
    const existing = this.existingRepos();
    if (existing) return existing;
    this.registering ??= this.register().finally(() => {
      this.registering = undefined;
    });
    await this.registering;
    const registered = this.existingRepos();
    if (!registered) throw new Error("the agent registered, but its placement was not recorded");
    return registered;
  }

  /**
   * Registers the agent in the registry, which assigns its D1 shard and Vectorize index
   * (docs/design.md, "Scale and limits"), and records the placement in the object: from now on every row of the
   * agent is read and written there.
   */
  private async register(): Promise<void> {
    const placement = await this.registry().ensure(this.identity(), this.now(), {
      d1: this.d1Shards.names,
      vectors: vectorIndexNames(this.env),
    });
    // A new agent starts at the current data layout: nothing to upgrade.
    this.storage.transactionSync(() => {
      this.meta.set("agentUid", placement.uid);
      this.meta.set("placement", { d1: placement.d1, key: placement.key, vectors: placement.vectors });
      this.meta.set("dataVersion", DATA_VERSION);
    });
  }

  existingRepos(): AgentRepos | undefined {
    const placement = this.placement();
    return placement === undefined ? undefined : this.reposFor(placement);
  }

  applyLocal(op: WriteOp): void {
    if (isBookkeeping(op)) this.applyBookkeeping(op);
    else this.followNetwork(op);
  }

  /** What the object tracks of a network write: the scan rows of new and deleted nodes, the focus, a purge. */
  private followNetwork(op: NetworkOp): void {
    if (op.type === "createNodes") {
      this.scans.add(
        op.nodes.map((n) => n.id),
        this.meta.scanCycles(),
      );
    } else if (op.type === "deleteNodes") {
      this.scans.remove(op.ids);
      this.feedback.remove(op.ids);
    } else if (op.type === "setFocus") {
      this.focus.replace(op.focus);
    } else if (op.type === "purgeAgent") {
      this.purgeLocal();
    }
  }

  private applyBookkeeping(op: BookkeepingOp): void {
    switch (op.type) {
      case "setClock":
        this.meta.set("clock", op.clock);
        return;
      case "finishScan":
        this.scans.skip(op.skipped, op.cycles);
        this.meta.set("scanCycles", this.meta.scanCycles() + op.cycles);
        return;
      case "recordMessages":
        this.messages.record(op.ids);
        return;
      case "forgetMessages":
        this.messages.forget(op.ids);
        return;
      case "markReinforced":
        this.feedback.mark(op.ids, op.cycle);
        return;
      case "setScanCounts":
        this.scans.setCounts(op.counts, this.meta.scanCycles());
        return;
      case "count":
        this.meta.bump(op.counters);
        return;
      default:
        unreachable(op);
    }
  }

  queueIndexRetry(ids: { upsert: number[]; remove: number[] }): void {
    this.meta.bump({ index_retries: 1 });
    this.hooks.queueIndexRetry(this.queue, ids, this.now());
  }

  scrubPurged(nodeIds: readonly number[]): void {
    this.storage.transactionSync(() => this.keys.forgetTasks(this.queue.scrubResults(nodeIds, this.hooks.resultNodePaths)));
  }

  /** The object's memory state goes; its identity stays, so tasks queued after a deletion still run. */
  private purgeLocal(): void {
    this.meta.clearAllButIdentity();
    for (const table of ["focus", "vectors", "recent_vectors", "reinforced"]) this.storage.sql.exec(`DELETE FROM ${table}`);
    this.scans.clear();
    this.messages.clear();
    // Staged imports hold content too: an upload still under way finds its lines gone and is refused.
    this.imports.dropAll();
    this.focus.clearCache();
    this.repoCache = undefined;
    this.vectorCache = undefined;
    this.graphCache = undefined;
  }

  private reposFor(placement: Placement): AgentRepos {
    const shard = this.d1Shards.get(placement.d1);
    const cached = this.repoCache;
    if (cached?.agentUid !== placement.uid || cached.placement.key !== placement.key || cached.d1 !== shard) {
      const db = this.dbOf(shard);
      this.repoCache = {
        agentUid: placement.uid,
        placement,
        d1: shard,
        nodes: new NodeRepo(db, placement.key),
        links: new LinkRepo(db, placement.key),
        fts: new FtsRepo(db, placement.key),
        registry: this.registry(),
      };
      return this.repoCache;
    }
    return cached;
  }

  private dbOf(d1: D1Database): Db {
    let db = this.dbCache.get(d1);
    if (!db) {
      db = createDb(d1);
      this.dbCache.set(d1, db);
    }
    return db;
  }
}
