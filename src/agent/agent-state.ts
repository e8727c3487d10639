/**
 * The runtime of one agent inside its Durable Object: persisted state (meta, focus, queue, scan
 * bookkeeping, message ids in the object's SQLite), the D1 repositories keyed by the agent's
 * registry id, the models, and the caches (graph, vector index). Task runners receive this,
 * never the Durable Object class, so nothing here is reachable over RPC.
 */
import type { MemoryGraph } from "../memory/graph";
import type { WriteOp } from "../memory/write-ops";
import { createEmbedder, createFallbackModel, createModel } from "../models/registry";
import { ResilientModel } from "../models/resilient-model";
import { realSleep, retryPolicy } from "../models/retry";
import type { Embedder, SmallModel } from "../models/types";
import { AgentRegistry } from "../storage/agent-registry";
import { createDb, type Db } from "../storage/db";
import { FtsRepo } from "../storage/fts-repo";
import { LinkRepo } from "../storage/link-repo";
import { NodeRepo } from "../storage/node-repo";
import { createVectorIndex } from "../vectors/registry";
import type { VectorIndex } from "../vectors/types";
import type { AgentIdentity } from "../vocabulary/identity";
import { unreachable } from "../vocabulary/records";
import { FocusStore } from "./focus-store";
import { GRAPH_MAX_LINKS, GRAPH_MAX_NODES, loadGraph } from "./graph-loader";
import { IdempotencyKeys } from "./idempotency";
import { ImportStaging } from "./import-staging";
import { IntentStore } from "./intent-store";
import { MessageIds } from "./message-ids";
import { DATA_VERSION, MetaStore } from "./meta-store";
import type { AgentRepos, AgentRuntime } from "./runtime";
import { ReinforcedStore } from "./reinforced-store";
import { ScanStore } from "./scan-store";
import { TaskQueue } from "./task-queue";
import { enqueueTask } from "./tasks/registry";

export class AgentState implements AgentRuntime {
  readonly db: Db;
  readonly d1: D1Database;
  readonly meta: MetaStore;
  readonly focus: FocusStore;
  readonly queue: TaskQueue;
  readonly scans: ScanStore;
  readonly messages: MessageIds;
  readonly keys: IdempotencyKeys;
  readonly intents: IntentStore;
  readonly reinforced: ReinforcedStore;
  readonly imports: ImportStaging;
  /** The configured provider and its fallback; replaceable in tests. */
  primaryModel: SmallModel;
  fallbackModel: SmallModel | undefined;
  /** How retries wait; replaceable in tests so they need no real time. */
  sleep: (ms: number) => Promise<void> = realSleep;
  readonly storage: DurableObjectStorage;
  readonly embedder: Embedder;
  private readonly env: Env;
  private repoCache: AgentRepos | undefined;
  private vectorCache: { agentUid: number; index: VectorIndex } | undefined;
  /** null: the agent is too large to cache; the D1 path serves it until the next wake. */
  private graphCache: { agentUid: number; graph: MemoryGraph | null } | undefined;

  constructor(storage: DurableObjectStorage, env: Env) {
    this.storage = storage;
    this.d1 = env.DB;
    this.db = createDb(env.DB);
    this.meta = new MetaStore(storage.sql);
    this.focus = new FocusStore(storage.sql);
    this.queue = new TaskQueue(storage.sql);
    this.scans = new ScanStore(storage.sql);
    this.messages = new MessageIds(storage.sql);
    this.keys = new IdempotencyKeys(storage.sql);
    this.intents = new IntentStore(storage.sql);
    this.reinforced = new ReinforcedStore(storage.sql);
    this.imports = new ImportStaging(storage.sql);
    this.env = env;
    this.primaryModel = createModel(env);
    this.fallbackModel = createFallbackModel(env);
    this.embedder = createEmbedder(env);
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

  /** One index object per wake: the local index keeps its vectors in memory once loaded. */
  vectors(): VectorIndex | undefined {
    const agentUid = this.meta.get("agentUid");
    if (agentUid === undefined) return undefined;
    if (this.vectorCache?.agentUid !== agentUid) {
      const index = createVectorIndex(this.env, { sql: this.storage.sql, agentUid, dimensions: this.embedder.dimensions });
      this.vectorCache = { agentUid, index };
    }
    return this.vectorCache.index;
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
    const agentUid = await new AgentRegistry(this.db).ensure(this.identity(), this.now());
    // A new agent starts at the current data layout: nothing to upgrade.
    this.storage.transactionSync(() => {
      this.meta.set("agentUid", agentUid);
      this.meta.set("dataVersion", DATA_VERSION);
    });
    return this.reposFor(agentUid);
  }

  existingRepos(): AgentRepos | undefined {
    const agentUid = this.meta.get("agentUid");
    return agentUid === undefined ? undefined : this.reposFor(agentUid);
  }

  applyLocal(op: WriteOp): void {
    switch (op.type) {
      case "createNodes":
        this.scans.add(
          op.nodes.map((n) => n.id),
          this.meta.scanCycles(),
        );
        return;
      case "deleteNodes":
        this.scans.remove(op.ids);
        this.reinforced.remove(op.ids);
        return;
      case "setFocus":
        this.focus.replace(op.focus);
        return;
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
        this.reinforced.mark(op.ids, op.cycle);
        return;
      case "setScanCounts":
        this.scans.setCounts(op.counts, this.meta.scanCycles());
        return;
      case "count":
        this.meta.bump(op.counters);
        return;
      case "purgeAgent":
        this.purgeLocal();
        return;
      case "createLinks":
      case "setLinks":
      case "deleteLinks":
      case "updateText":
      case "supersede":
      case "addAliases":
        return;
      default:
        unreachable(op);
    }
  }

  queueIndexRetry(ids: { upsert: number[]; remove: number[] }): void {
    this.meta.bump({ index_retries: 1 });
    enqueueTask(this.queue, "index", ids, { now: this.now() });
  }

  /** The object's memory state goes; its identity stays, so tasks queued after a deletion still run. */
  private purgeLocal(): void {
    this.meta.clearAllButIdentity();
    for (const table of ["focus", "vectors", "recent_vectors", "reinforced"]) this.storage.sql.exec(`DELETE FROM ${table}`);
    this.scans.clear();
    this.messages.clear();
    this.focus.clearCache();
    this.repoCache = undefined;
    this.vectorCache = undefined;
    this.graphCache = undefined;
  }

  private reposFor(agentUid: number): AgentRepos {
    if (this.repoCache?.agentUid !== agentUid) {
      this.repoCache = {
        agentUid,
        nodes: new NodeRepo(this.db, agentUid),
        links: new LinkRepo(this.db, agentUid),
        fts: new FtsRepo(this.db, agentUid),
        registry: new AgentRegistry(this.db),
      };
    }
    return this.repoCache;
  }
}
