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
import type { Jurisdiction } from "../vocabulary/jurisdictions";
import type { Region } from "../vocabulary/regions";
import type { PlacementView } from "../operations/get-stats/read";
import { placementOptions } from "./placement-options";
import { loadGraph } from "../engine/graph-loader";
import { PastLimits } from "./past-limits";
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

/** A load of the graph; `whole` when no commit ended while it was read (it may be written to the copy). */
interface LoadedGraph {
  graph: MemoryGraph | undefined;
  whole: boolean;
}

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
  /** The region the current write came with (SubmitOptions.region): where registering places the agent. */
  regionHint: Region | undefined;
  /** A registration in flight: concurrent first writes register the agent once. */
  private registering: Promise<void> | undefined;
  private vectorCache: { agentUid: number; index: VectorIndex } | undefined;
  /** null: the agent is too large to cache; the D1 path serves it until the next wake. */
  private graphCache: { agentUid: number; graph: MemoryGraph | null; whole: boolean } | undefined;
  /** The object's own copy of the network: what a wake loads the graph from. */
  readonly snapshots: GraphSnapshotStore;
  private snapshotTimer: ReturnType<typeof setTimeout> | undefined;
  /** A load of the graph in flight. */
  private loading: { agentUid: number; epoch: number; graph: Promise<LoadedGraph> } | undefined;
  /** Moves on at every drop of the cached graph, so that a load begun before it is not kept. */
  private epoch = 0;
  /** The quiet work (refreshCopy) in flight. */
  private copyWork: Promise<void> | undefined;
  /** Replaceable in tests (Infinity: never), to see a journal that service would have folded. */
  snapshotPolicy: SnapshotPolicy = SNAPSHOT_POLICY;
  /** Commits ended since the object woke (a load from D1 that saw one end is read again). */
  private commits = 0;
  /** The graph's limits, and the marker of an agent found past them (past-limits.ts). */
  readonly pastLimits: PastLimits;

  constructor(private readonly context: NetworkContext) {
    this.d1Shards = this.metered(D1Shards.fromEnv(context.env));
    this.snapshots = new GraphSnapshotStore(context.storage.sql);
    this.pastLimits = new PastLimits(context.meta);
  }

  async graph(): Promise<MemoryGraph | undefined> {
    const repos = this.existingRepos();
    if (!repos) return undefined;
    while (this.graphCache?.agentUid !== repos.agentUid) {
      // Callers that arrive while it loads (a read beside the background build) share the load.
      if (this.loading?.agentUid !== repos.agentUid || this.loading.epoch !== this.epoch) {
        this.loading = { agentUid: repos.agentUid, epoch: this.epoch, graph: this.loadGraph(repos) };
      }
      const loading = this.loading;
      const loaded = await loading.graph;
      if (this.loading === loading) this.loading = undefined;
      // A load that a drop or a purge overtook is not kept: the loop loads again.
      if (loading.epoch === this.epoch && this.graphCache?.agentUid !== loading.agentUid) {
        this.graphCache = { agentUid: loading.agentUid, graph: loaded.graph ?? null, whole: loaded.whole };
      }
    }
    return this.graphCache.graph ?? undefined;
  }

  /**
   * From the object's snapshot and journal when it has them (no D1 statement), else rebuilt from
   * D1 (the first wake after this layout, or after a data upgrade), then a snapshot is written.
   */
  private async loadGraph(repos: AgentRepos): Promise<LoadedGraph> {
    const loaded = this.snapshots.load();
    if (loaded) {
      if (loaded.replayed > 0) this.scheduleSnapshot();
      return { graph: loaded.graph, whole: true };
    }
    // Known to be past the limits: the D1 path, with no statement spent on finding it out again.
    if (this.pastLimits.known()) return { graph: undefined, whole: true };
    // A commit that ends while the pages are read may be in some of them and not in others: such a
    // load is read again, and never written to the snapshot (nor marked: it may have shrunk the agent).
    for (let attempt = 1; ; attempt++) {
      const commits = this.commits;
      const { graph, past } = await loadGraph(repos, this.context.focus.ids(), this.pastLimits.limits);
      const whole = this.commits === commits;
      if (whole) this.pastLimits.found(past);
      if (whole && graph) this.scheduleSnapshot();
      if (whole || past || attempt === D1_LOAD_ATTEMPTS) return { graph, whole };
    }
  }

  loadedGraph(): MemoryGraph | undefined {
    const graph = this.graphCache?.graph ?? undefined;
    if (graph && this.graphCache && this.pastLimits.markIfPast(graph)) {
      // Grown past what the object should hold (marked: the next wake loads nothing): stop caching
      // until the next wake, and serve the next wake from D1 too.
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
    this.pastLimits.follow(network);
    if (purges) {
      clearTimeout(this.snapshotTimer);
      const graph = this.graphCache?.whole === true ? this.loadedGraph() : undefined;
      if (graph) this.snapshots.write(graph);
      else this.snapshots.drop();
      return;
    }
    if (network.length === 0) return;
    if (!this.snapshots.exists()) {
      // No copy yet (writes only since this layout): built from D1 once the agent is quiet, so the
      // next wake reads none (the background build); never for an agent known to be past the limits.
      if (this.graphCache?.graph !== null && !this.pastLimits.known()) this.scheduleSnapshot();
      return;
    }
    this.snapshots.append(network);
    this.scheduleSnapshot(this.snapshots.journalLength() > this.snapshotPolicy.journalEntries ? 0 : this.snapshotPolicy.quietMs);
  }

  /** The snapshot brought up to date (refreshCopy) once the journal is long or the agent quiet. */
  private scheduleSnapshot(afterMs = this.snapshotPolicy.quietMs): void {
    clearTimeout(this.snapshotTimer);
    if (!Number.isFinite(afterMs)) return;
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = undefined;
      void this.runCopyWork();
    }, afterMs);
  }

  private runCopyWork(): Promise<void> {
    this.copyWork ??= this.refreshCopy()
      .catch((err: unknown) => console.warn("the object's copy of the network was not refreshed", err))
      .finally(() => {
        this.copyWork = undefined;
      });
    return this.copyWork;
  }

  /**
   * The snapshot written from the loaded graph. With no graph loaded, it is loaded first when the
   * copy is missing (from D1) or has a journal to fold (from the copy): a load from D1 that a
   * commit may have torn writes nothing (loadGraph), and the next quiet time tries again.
   */
  private async refreshCopy(): Promise<void> {
    const stale = !this.snapshots.exists() || this.snapshots.journalLength() > 0;
    if (this.graphCache === undefined && stale) await this.graph();
    this.writeSnapshot();
  }

  /**
   * Runs the quiet work now and waits for it (and for any in flight): what an object left idle
   * has done before the platform evicts it (the benchmark's eviction hook).
   */
  async settle(): Promise<void> {
    while (this.snapshotTimer !== undefined || this.copyWork !== undefined) {
      if (this.snapshotTimer !== undefined) {
        clearTimeout(this.snapshotTimer);
        this.snapshotTimer = undefined;
        void this.runCopyWork();
      }
      await this.copyWork;
    }
  }

  /** Writes the snapshot now from the loaded graph (nothing when none is loaded, or it may be torn). */
  writeSnapshot(): void {
    const graph = this.loadedGraph();
    if (!graph || this.graphCache?.whole !== true) return;
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    this.context.storage.transactionSync(() => this.snapshots.write(graph));
  }

  /** The graph is rebuilt on next use (it may have missed a committed write). */
  dropGraph(): void {
    this.epoch += 1;
    this.graphCache = undefined;
    this.snapshots.forget();
  }

  /** After a purge: nothing cached of the agent's network is kept. */
  forget(): void {
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    this.epoch += 1;
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
    if (!placement) return legacyPlacement(agentUid, vectorIndexNames(this.context.env).length > 0);
    const jurisdiction = this.context.meta.get("identity")?.jurisdiction ?? null;
    return {
      uid: agentUid,
      d1: placement.d1,
      key: placement.key,
      vectors: placement.vectors,
      jurisdiction,
      region: placement.region ?? null,
    };
  }

  /** The agent's placement as its stats report it; before its first write, its jurisdiction only. */
  placementView(jurisdiction: Jurisdiction | undefined): PlacementView {
    const placement = this.placement();
    return {
      jurisdiction: jurisdiction ?? null,
      region: placement?.region ?? null,
      d1_shard: placement?.d1 ?? null,
      vector_index: placement?.vectors ?? null,
    };
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
    const identity = this.context.identity();
    const { env, meta } = this.context;
    const options = placementOptions(env, this.d1Shards, identity.jurisdiction, meta.get("tenantLimits")?.agents, this.regionHint);
    const placement = await this.registry().ensure(identity, Date.now(), options);
    // A new agent starts at the current data layout: nothing to upgrade.
    this.context.storage.transactionSync(() => {
      meta.set("agentUid", placement.uid);
      meta.set("placement", { d1: placement.d1, key: placement.key, vectors: placement.vectors, region: placement.region });
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
