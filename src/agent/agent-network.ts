/**
 * Where one agent's network lives, as its object reaches it: the placement (its D1 shard and key
 * there, its Vectorize index: docs/design.md, "Scale and limits"), recorded in the object when the
 * agent first writes; the repositories on that shard; and the two caches of the wake, the graph in
 * memory and the vector index object.
 */
import type { MemoryGraph } from "../memory/graph";
import type { NetworkOp } from "../memory/write-ops";
import { AgentRegistry, legacyPlacement, type Placement } from "../storage/agent-registry";
import { D1Shards } from "../storage/d1-shards";
import { createDb, type Db } from "../storage/db";
import { FtsRepo } from "../storage/fts-repo";
import { LinkRepo } from "../storage/link-repo";
import { meteredD1, RoundTrips, type D1Usage } from "../storage/metered-d1";
import { NodeRepo } from "../storage/node-repo";
import { meteredVectorIndex } from "../vectors/metered-vector-index";
import { createVectorIndex, vectorIndexNames } from "../vectors/providers";
import type { VectorIndex } from "../vectors/types";
import type { AgentIdentity } from "../vocabulary/identity";
import { GRAPH_MAX_LINKS, GRAPH_MAX_NODES, loadGraph } from "../engine/graph-loader";
import type { AgentNetwork, AgentRepos } from "../engine/runtime";
import type { FocusStore } from "../engine/stores/focus-store";
import { GraphSnapshotStore } from "../engine/stores/graph-snapshot-store";
import { DATA_VERSION, type MetaStore } from "../engine/stores/meta-store";
import type { UsageDays } from "../engine/stores/usage-days";
import { benchD1DelayMs, d1Counters, vectorCounters, type UsageMeter } from "./usage-meter";

/**
 * When the snapshot is written again (docs/design.md, "The cold path and the storage layout"):
 * once the journal holds more entries than `journalEntries`, or once the agent has been quiet for
 * `quietMs` after a commit or a load (so a wake after a silence replays little).
 */
export interface SnapshotPolicy {
  journalEntries: number;
  quietMs: number;
}
const SNAPSHOT_POLICY: SnapshotPolicy = { journalEntries: 64, quietMs: 1_000 };
/** Loads from D1 before one that no commit ended during is kept unwritten (as before the copy existed). */
const D1_LOAD_ATTEMPTS = 3;

/** What the network needs of the rest of the object. */
interface NetworkContext {
  readonly storage: DurableObjectStorage;
  readonly env: Env;
  readonly meta: MetaStore;
  readonly focus: FocusStore;
  readonly usage: UsageMeter | undefined;
  /** The agent's usage per day: every D1 statement's rows are counted there. */
  readonly days: UsageDays;
  /** The embedder's dimensions (the local vector index is created with them). */
  readonly dimensions: number;
  identity(): AgentIdentity;
}

export class AgentNetworkAccess implements AgentNetwork {
  /** The configured D1 shards; replaceable in tests (to watch or limit a binding). */
  d1Shards: D1Shards;
  private repoCache: AgentRepos | undefined;
  private readonly dbCache = new Map<D1Database, Db>();
  /** A registration in flight: concurrent first writes register the agent once. */
  private registering: Promise<void> | undefined;
  private vectorCache: { agentUid: number; index: VectorIndex } | undefined;
  /** null: the agent is too large to cache; the D1 path serves it until the next wake. */
  private graphCache: { agentUid: number; graph: MemoryGraph | null } | undefined;
  /** The object's own copy of the network: what a wake loads the graph from. */
  readonly snapshots: GraphSnapshotStore;
  private snapshotTimer: ReturnType<typeof setTimeout> | undefined;
  /** Replaceable in tests (Infinity: never), to see a journal that service would have folded. */
  snapshotPolicy: SnapshotPolicy = SNAPSHOT_POLICY;
  /** Commits ended since the object woke (a load from D1 that saw one end is read again). */
  private commits = 0;

  constructor(private readonly context: NetworkContext) {
    this.d1Shards = this.metered(D1Shards.fromEnv(context.env));
    this.snapshots = new GraphSnapshotStore(context.storage.sql);
  }

  async graph(): Promise<MemoryGraph | undefined> {
    const repos = this.existingRepos();
    if (!repos) return undefined;
    if (this.graphCache?.agentUid !== repos.agentUid) {
      this.graphCache = { agentUid: repos.agentUid, graph: (await this.loadGraph(repos)) ?? null };
    }
    return this.graphCache.graph ?? undefined;
  }

  /**
   * From the object's snapshot and journal when it has them (no D1 statement), else rebuilt from
   * D1 (the first wake after this layout, or after a data upgrade), then a snapshot is written.
   */
  private async loadGraph(repos: AgentRepos): Promise<MemoryGraph | undefined> {
    const loaded = this.snapshots.load();
    if (loaded) {
      if (loaded.replayed > 0) this.scheduleSnapshot();
      return loaded.graph;
    }
    // A commit that ends while the pages are read may be in some of them and not in others: such a
    // load is read again, and never written to the snapshot.
    for (let attempt = 1; ; attempt++) {
      const commits = this.commits;
      const graph = await loadGraph(repos, this.context.focus.ids());
      if (this.commits === commits && graph) this.scheduleSnapshot();
      if (this.commits === commits || attempt === D1_LOAD_ATTEMPTS) return graph;
    }
  }

  loadedGraph(): MemoryGraph | undefined {
    const graph = this.graphCache?.graph ?? undefined;
    if (graph && (graph.nodeCount > GRAPH_MAX_NODES || graph.linkCount > GRAPH_MAX_LINKS) && this.graphCache) {
      // Grown past what the object should hold: stop caching until the next wake, and serve the
      // next wake from D1 too.
      this.graphCache.graph = null;
      this.snapshots.drop();
      return undefined;
    }
    return graph;
  }

  /**
   * Step 5 of a commit, inside its transaction: its network writes join the journal; a purge
   * writes the snapshot again instead (from the graph, which has the purge applied) and empties
   * the journal, so neither keeps what it took (docs/design.md, "Purge").
   */
  keepCopy(network: readonly NetworkOp[], purges: boolean): void {
    if (network.length > 0 || purges) this.commits += 1;
    if (purges) {
      clearTimeout(this.snapshotTimer);
      const graph = this.loadedGraph();
      if (graph) this.snapshots.write(graph);
      else this.snapshots.drop();
      return;
    }
    if (network.length === 0 || !this.snapshots.exists()) return;
    this.snapshots.append(network);
    this.scheduleSnapshot(this.snapshots.journalLength() > this.snapshotPolicy.journalEntries ? 0 : this.snapshotPolicy.quietMs);
  }

  /** The snapshot, written from the loaded graph once the journal is long or the agent quiet. */
  private scheduleSnapshot(afterMs = this.snapshotPolicy.quietMs): void {
    clearTimeout(this.snapshotTimer);
    if (!Number.isFinite(afterMs)) return;
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = undefined;
      this.writeSnapshot();
    }, afterMs);
  }

  /** Writes the snapshot now from the loaded graph (nothing when none is loaded). */
  writeSnapshot(): void {
    const graph = this.loadedGraph();
    if (graph) this.context.storage.transactionSync(() => this.snapshots.write(graph));
  }

  /** The graph is rebuilt on next use (it may have missed a committed write). */
  dropGraph(): void {
    this.graphCache = undefined;
    this.snapshots.forget();
  }

  /** After a purge: nothing cached of the agent's network is kept. */
  forget(): void {
    clearTimeout(this.snapshotTimer);
    this.repoCache = undefined;
    this.vectorCache = undefined;
    this.graphCache = undefined;
  }

  /** The agent's D1 shard once it registered; the primary database before. */
  get d1(): D1Database {
    const placement = this.placement();
    return placement ? this.d1Shards.get(placement.d1) : this.d1Shards.primary;
  }

  /** Where the agent's memory lives; undefined before its first write registered it. */
  placement(): Placement | undefined {
    const agentUid = this.context.meta.get("agentUid");
    if (agentUid === undefined) return undefined;
    const placement = this.context.meta.get("placement");
    return placement ? { uid: agentUid, ...placement } : legacyPlacement(agentUid, vectorIndexNames(this.context.env).length > 0);
  }

  /** One index object per wake: the local index keeps its vectors in memory once loaded. */
  vectors(): VectorIndex | undefined {
    const placement = this.placement();
    if (placement === undefined) return undefined;
    const agentUid = placement.uid;
    if (this.vectorCache?.agentUid !== agentUid) {
      const created = createVectorIndex(this.context.env, {
        sql: this.context.storage.sql,
        agentUid,
        dimensions: this.context.dimensions,
        index: placement.vectors,
        // A full index takes no new agents from now on (the registry sends them to the next one).
        onFull: (full) => this.registry().shards.markFull("vectorize", full.index, full.message, Date.now()),
      });
      const usage = this.context.usage;
      const index = usage ? meteredVectorIndex(created, (u) => usage.add(vectorCounters(u))) : created;
      this.vectorCache = { agentUid, index };
    }
    return this.vectorCache.index;
  }

  /**
   * The nodes the agent holds: the graph's count when it is loaded, else one count on its shard,
   * read past the usage meter (the usage report asks, and must not count itself as usage).
   */
  async nodesHeld(): Promise<number | undefined> {
    const placement = this.placement();
    if (placement === undefined) return undefined;
    const graph = this.loadedGraph();
    if (graph) return graph.nodeCount;
    return new NodeRepo(createDb(D1Shards.fromEnv(this.context.env).get(placement.d1)), placement.key).count();
  }

  /** The registry, in the primary database. */
  registry(): AgentRegistry {
    return new AgentRegistry(this.d1Shards.primary);
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

  existingRepos(): AgentRepos | undefined {
    const placement = this.placement();
    return placement === undefined ? undefined : this.reposFor(placement);
  }

  /**
   * Registers the agent in the registry, which assigns its D1 shard and Vectorize index, and
   * records the placement in the object: from now on every row of the agent is read and written there.
   */
  private async register(): Promise<void> {
    const limits = this.context.meta.get("tenantLimits");
    const placement = await this.registry().ensure(this.context.identity(), Date.now(), {
      d1: this.d1Shards.names,
      vectors: vectorIndexNames(this.context.env),
      ...(limits ? { maxAgents: limits.agents } : {}),
    });
    const meta = this.context.meta;
    // A new agent starts at the current data layout: nothing to upgrade.
    this.context.storage.transactionSync(() => {
      meta.set("agentUid", placement.uid);
      meta.set("placement", { d1: placement.d1, key: placement.key, vectors: placement.vectors });
      meta.set("dataVersion", DATA_VERSION);
    });
  }

  /**
   * The shards, each reporting its rows to the day's usage and to the usage meter when there is
   * one, and with a simulated round trip when the cold-path benchmark asks for one
   * (BENCH_D1_RTT_MS, usage-meter.ts).
   */
  private metered(shards: D1Shards): D1Shards {
    const { usage, days } = this.context;
    const meter = (u: D1Usage): void => {
      usage?.add(d1Counters(u));
      days.add({ d1_rows_read: u.rowsRead, d1_rows_written: u.rowsWritten });
    };
    const roundTrips = new RoundTrips(benchD1DelayMs(this.context.env));
    return shards.with(Object.fromEntries(shards.names.map((name) => [name, meteredD1(shards.get(name), meter, { roundTrips })])));
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
