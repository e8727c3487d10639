/**
 * The runtime of one agent inside its Durable Object: persisted state (meta, focus, queue), the
 * D1 repositories keyed by the agent's registry id, and the model. Task runners receive this, never
 * the Durable Object class, so nothing here is reachable over RPC.
 */
import { createEmbedder, createFallbackModel, createModel } from "../models/registry";
import { ResilientModel } from "../models/resilient-model";
import { realSleep, retryPolicy } from "../models/retry";
import type { Embedder, SmallModel } from "../models/types";
import { FtsRepo } from "../storage/fts-repo";
import type { MemoryGraph } from "../memory/graph";
import { GRAPH_MAX_LINKS, GRAPH_MAX_NODES, loadGraph } from "./graph-loader";
import { createVectorIndex } from "../vectors/registry";
import type { VectorIndex } from "../vectors/types";
import { AgentRegistry, type AgentIdentity } from "../storage/agent-registry";
import { createDb, type Db } from "../storage/db";
import { LinkRepo } from "../storage/link-repo";
import { NodeRepo } from "../storage/node-repo";
import { FocusStore } from "./focus-store";
import { MetaStore } from "./meta-store";
import type { AgentRepos, AgentRuntime } from "./runtime";
import { TaskQueue } from "./task-queue";

export class AgentState implements AgentRuntime {
  readonly db: Db;
  readonly d1: D1Database;
  readonly meta: MetaStore;
  readonly focus: FocusStore;
  readonly queue: TaskQueue;
  /** The configured provider and its fallback; replaceable in tests. */
  primaryModel: SmallModel;
  fallbackModel: SmallModel | undefined;
  /** How retries wait; replaceable in tests so they need no real time. */
  sleep: (ms: number) => Promise<void> = realSleep;
  readonly storage: DurableObjectStorage;
  readonly embedder: Embedder;
  private readonly env: Env;
  private repoCache: AgentRepos | undefined;
  private vectorCache: { uid: number; index: VectorIndex } | undefined;
  /** null: the agent is too large to cache; the D1 path serves it until the next wake. */
  private graphCache: { uid: number; graph: MemoryGraph | null } | undefined;

  constructor(storage: DurableObjectStorage, env: Env) {
    this.storage = storage;
    this.d1 = env.DB;
    this.db = createDb(env.DB);
    this.meta = new MetaStore(storage.sql);
    this.focus = new FocusStore(storage.sql);
    this.queue = new TaskQueue(storage.sql);
    this.env = env;
    this.primaryModel = createModel(env);
    this.fallbackModel = createFallbackModel(env);
    this.embedder = createEmbedder(env);
  }

  async graph(): Promise<MemoryGraph | undefined> {
    const repos = this.existingRepos();
    if (!repos) return undefined;
    if (this.graphCache?.uid !== repos.uid) this.graphCache = { uid: repos.uid, graph: (await loadGraph(repos)) ?? null };
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

  /** After a failed task the copy may have missed a committed write: rebuild it on next use. */
  dropGraph(): void {
    this.graphCache = undefined;
  }

  /** One index object per wake: the local index keeps its vectors in memory once loaded. */
  vectors(): VectorIndex | undefined {
    const uid = this.meta.get("agentUid");
    if (uid === undefined) return undefined;
    if (this.vectorCache?.uid !== uid) {
      const index = createVectorIndex(this.env, { sql: this.storage.sql, agentUid: uid, dimensions: this.embedder.dimensions });
      this.vectorCache = { uid, index };
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
    });
  }

  identity(): AgentIdentity {
    const identity = this.meta.get("identity");
    if (!identity) throw new Error("agent identity not bound yet");
    return identity;
  }

  /**
   * Checks the caller's identity against the one the object keeps; a write (`persist`) records it
   * the first time. A different identity is a routing bug and is refused.
   */
  bind(identity: AgentIdentity, persist: boolean): void {
    const known = this.meta.get("identity");
    if (!known) {
      if (persist) this.meta.set("identity", { tenantId: identity.tenantId, agentId: identity.agentId });
    } else if (known.tenantId !== identity.tenantId || known.agentId !== identity.agentId) {
      throw new Error("agent identity mismatch: this object belongs to another tenant/agent");
    }
  }

  now(): number {
    return Date.now();
  }

  async repos(): Promise<AgentRepos> {
    const existing = this.existingRepos();
    if (existing) return existing;
    const uid = await new AgentRegistry(this.db).ensure(this.identity(), this.now());
    this.meta.set("agentUid", uid);
    return this.reposFor(uid);
  }

  existingRepos(): AgentRepos | undefined {
    const uid = this.meta.get("agentUid");
    return uid === undefined ? undefined : this.reposFor(uid);
  }

  /** Drops in-memory copies of persisted state (after the storage was wiped). */
  clearCaches(): void {
    this.meta.clearCache();
    this.focus.clearCache();
    this.repoCache = undefined;
    this.vectorCache = undefined;
    this.graphCache = undefined;
  }

  private reposFor(uid: number): AgentRepos {
    if (this.repoCache?.uid !== uid) {
      this.repoCache = { uid, nodes: new NodeRepo(this.db, uid), links: new LinkRepo(this.db, uid), fts: new FtsRepo(this.db, uid) };
    }
    return this.repoCache;
  }
}
