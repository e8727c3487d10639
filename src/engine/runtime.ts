/**
 * What a task runner may use, as a few small interfaces (the object's stores, the network, the
 * models, its progress in the queue, the write path): each operation names the ones it needs.
 * The Durable Object builds one runtime per instance (src/agent/agent-state.ts); runners stay
 * free of the class itself.
 */
import type { MemoryGraph } from "../memory/graph";
import type { NetworkOp, WriteOp } from "../memory/write-ops";
import type { Embedder, SmallModel } from "../models/types";
import type { QueryVectors } from "../models/query-vectors";
import type { DigestAhead } from "./digest-ahead";
import type { VerdictsAhead } from "./verdicts-ahead";
import type { EmbeddingsAhead } from "./embeddings-ahead";
import type { AgentRegistry, Placement } from "../storage/agent-registry";
import type { FtsRepo } from "../storage/fts-repo";
import type { LinkRepo } from "../storage/link-repo";
import type { NodeRepo } from "../storage/node-repo";
import type { VectorIndex } from "../vectors/types";
import type { FocusStore } from "./stores/focus-store";
import type { ForgottenNodes } from "./stores/forgotten-nodes";
import type { ResultCarrier } from "./result-scrub";
import type { IdempotencyKeys } from "./stores/idempotency";
import type { ImportStaging } from "./stores/import-staging";
import type { IntentStore } from "./stores/intent-store";
import type { MessageIds } from "./stores/message-ids";
import type { MetaStore } from "./stores/meta-store";
import type { FeedbackStore } from "./stores/feedback-store";
import type { ScanStore } from "./stores/scan-store";
import type { TaskQueue } from "./task-queue";

export interface AgentRepos {
  /** The registry id (unique across the service): the registry row, the vector namespace. */
  agentUid: number;
  /** Where the agent's memory lives: its D1 shard and key there, its Vectorize index. */
  placement: Placement;
  /** The agent's D1 shard (its rows; atomic batches go here). */
  d1: D1Database;
  nodes: NodeRepo;
  links: LinkRepo;
  fts: FtsRepo;
  /** The registry, in the primary database. */
  registry: AgentRegistry;
}

/**
 * The object's own tables as a task reads them (and the few it writes outside a commit: the
 * configuration, the node id counter, import staging), and the wall clock.
 */
export interface AgentStores {
  readonly meta: MetaStore;
  readonly focus: FocusStore;
  readonly scans: ScanStore;
  readonly messages: MessageIds;
  /** When each memory was last reinforced (docs/design.md, "Memory operations"). */
  readonly feedback: FeedbackStore;
  /** Import lines validated and waiting for their import task. */
  readonly imports: ImportStaging;
  /** Memories deleted without a purge, and the tasks that wrote them (a later purge reads them). */
  readonly forgotten: ForgottenNodes;
  now(): number;
}

/** Where the agent's network lives: its D1 rows, the graph cached in memory, the vector index. */
export interface AgentNetwork {
  /** The agent's repositories, registering the agent in D1 on its first write. */
  repos(): Promise<AgentRepos>;
  /** The repositories if the agent was ever registered; undefined for an agent that never wrote. */
  existingRepos(): AgentRepos | undefined;
  /** The in-memory graph, loaded on first use; undefined before the first write or when too large. */
  graph(): Promise<MemoryGraph | undefined>;
  /**
   * The graph if it is loaded: every committed write is applied to it (never load it just to
   * update it: a later load reads the committed rows anyway).
   */
  loadedGraph(): MemoryGraph | undefined;
  /** The agent's vector index; undefined before the agent's first write (nothing indexed yet). */
  vectors(): VectorIndex | undefined;
}

/** The models as tasks use them. */
export interface AgentModels {
  /** The model with retries (and fallback) applied. */
  readonly model: SmallModel;
  readonly embedder: Embedder;
  /** Query embeddings, cached per agent (a repeated query costs no model call). */
  readonly queryVectors: QueryVectors;
  /** Whether the configured model shares calls between remembers (digest-ahead.ts is worth using). */
  sharesModelCalls(): boolean;
  /** Digests of queued remembers asked ahead of their turn (a remote model only). */
  readonly digestAhead: DigestAhead;
  /** The embedder's vectors asked ahead for the queued remembers (what `embedder` answers from first). */
  readonly embeddingsAhead: EmbeddingsAhead;
  /** Conflict verdicts asked ahead for the queued remembers (a remote model only). */
  readonly verdictsAhead: VerdictsAhead;
}

/**
 * What a task may see of the queue: its own progress (a checkpoint, saved with the object's other
 * writes in one transaction) and the tasks behind it. (What a purge takes of finished tasks is a
 * write of its commit: `scrubPurged`, src/engine/write-table.ts.)
 */
export interface TaskProgress {
  readonly queue: Pick<TaskQueue, "saveCheckpoint" | "upcoming" | "readWaiting" | "absorbFollowingCycles">;
  readonly storage: Pick<DurableObjectStorage, "transactionSync">;
}

/** What commit() needs (write-path.ts): the intent store, every target of the write table, the checkpoint. */
export interface WritePath extends AgentNetwork {
  readonly storage: Pick<DurableObjectStorage, "transactionSync">;
  readonly intents: IntentStore;
  readonly queue: Pick<TaskQueue, "saveCheckpoint">;
  readonly embedder: Embedder;
  /** Applies one committed operation to the object's own state (inside the commit's transaction). */
  applyLocal(op: WriteOp): void;
  /** Queues a retry of vector writes that failed (inside the commit's transaction). */
  queueIndexRetry(ids: { upsert: number[]; remove: number[] }): void;
  /**
   * The object's copy of the network (its snapshot and journal) follows the commit, inside its
   * transaction: the network writes journalled, or the copy written again after a purge.
   */
  keepCopy(network: readonly NetworkOp[], purges: boolean): void;
}

/**
 * Everything a task may be given; each operation declares the parts it uses (`run(rt: AgentStores
 * & WritePath, task)`), so what it can reach is in its signature.
 */
export type TaskRuntime = AgentStores & AgentNetwork & AgentModels & TaskProgress & WritePath;

/**
 * What the state needs of the task kinds, given by the agent's task kinds (src/agent/agent-tasks.ts),
 * so the runtime names no kind.
 */
export interface TaskHooks {
  /** Queues the task that retries failed vector writes. */
  queueIndexRetry(queue: TaskQueue, ids: { upsert: number[]; remove: number[] }, now: number): void;
  /** The kinds whose results carry node ids or entity names, and where (scrubbed by a purge). */
  readonly resultCarriers: readonly ResultCarrier[];
}

/** What the queue runner needs beyond the tasks' runtime: the whole queue, the idempotency keys and the graph cache. */
export interface RunnerRuntime extends AgentStores, AgentNetwork, AgentModels, TaskProgress, WritePath {
  readonly queue: TaskQueue;
  readonly storage: DurableObjectStorage;
  readonly keys: IdempotencyKeys;
  /** Forgets the cached graph (after a failed task or an agent reset). */
  dropGraph(): void;
  /** The object's copy of the network goes (a commit given up after D1 may have applied it): rebuilt from D1. */
  dropCopy(): void;
}

/** Random, URL-safe ids (task ids). */
export function randomId(prefix: string, length = 20): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = prefix;
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
