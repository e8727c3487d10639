/**
 * What a task runner may use: the agent's persisted state, its storage and its models. The
 * Durable Object builds one per instance (AgentState); runners stay free of the class itself.
 */
import type { MemoryGraph } from "../memory/graph";
import type { WriteOp } from "../memory/write-ops";
import type { Embedder, SmallModel } from "../models/types";
import type { QueryVectors } from "../models/query-vectors";
import type { DigestAhead } from "./digest-ahead";
import type { VerdictsAhead } from "./verdicts-ahead";
import type { EmbeddingsAhead } from "./embeddings-ahead";
import type { AgentRegistry, Placement } from "../storage/agent-registry";
import type { Db } from "../storage/db";
import type { FtsRepo } from "../storage/fts-repo";
import type { LinkRepo } from "../storage/link-repo";
import type { NodeRepo } from "../storage/node-repo";
import type { VectorIndex } from "../vectors/types";
import type { AgentIdentity } from "../vocabulary/identity";
import type { FocusStore } from "./stores/focus-store";
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

export interface AgentRuntime {
  /**
   * The agent's D1 shard (docs/design.md, "Scale and limits"): where its rows live once it registered, the primary
   * database before. The registry is reached through `repos().registry`.
   */
  readonly db: Db;
  /** The same shard's raw binding, for atomic batches (src/storage/batch.ts). */
  readonly d1: D1Database;
  readonly meta: MetaStore;
  readonly focus: FocusStore;
  readonly queue: TaskQueue;
  readonly scans: ScanStore;
  readonly messages: MessageIds;
  readonly intents: IntentStore;
  /** When each memory was last reinforced (docs/design.md, "Memory operations"). */
  readonly feedback: FeedbackStore;
  /** Import lines validated and waiting for their import task. */
  readonly imports: ImportStaging;
  /** The model with retries (and fallback) applied. */
  readonly model: SmallModel;
  readonly embedder: Embedder;
  /** Digests of queued remembers asked ahead of their turn (a remote model only). */
  readonly digestAhead: DigestAhead;
  /** The embedder's vectors asked ahead for the queued remembers (what `embedder` answers from first). */
  readonly embeddingsAhead: EmbeddingsAhead;
  /** Conflict verdicts asked ahead for the queued remembers (a remote model only). */
  readonly verdictsAhead: VerdictsAhead;
  /** Whether the configured model shares calls between remembers (digest-ahead.ts is worth using). */
  sharesModelCalls(): boolean;
  /** Query embeddings, cached per agent (a repeated query costs no model call). */
  readonly queryVectors: QueryVectors;
  readonly storage: DurableObjectStorage;
  /** The agent's vector index; undefined before the agent's first write (nothing indexed yet). */
  vectors(): VectorIndex | undefined;
  /** The in-memory graph, loaded on first use; undefined before the first write or when too large. */
  graph(): Promise<MemoryGraph | undefined>;
  /**
   * The graph if it is loaded: every committed write is applied to it (never load it just to
   * update it: a later load reads the committed rows anyway).
   */
  loadedGraph(): MemoryGraph | undefined;
  identity(): AgentIdentity;
  now(): number;
  /** The agent's repositories, registering the agent in D1 on its first write. */
  repos(): Promise<AgentRepos>;
  /** The repositories if the agent was ever registered; undefined for an agent that never wrote. */
  existingRepos(): AgentRepos | undefined;
  /** Applies one committed operation to the object's own state (inside the commit's transaction). */
  applyLocal(op: WriteOp): void;
  /**
   * After a purge of `nodeIds`: the finished tasks whose results carry them lose those results and
   * their Idempotency-Keys are retired (a purge leaves no copy of the content in the object).
   */
  scrubPurged(nodeIds: readonly number[]): void;
  /** Queues a retry of vector writes that failed (inside the commit's transaction). */
  queueIndexRetry(ids: { upsert: number[]; remove: number[] }): void;
}

/**
 * What the state needs of the task kinds, given by the agent's task kinds (src/agent/agent-tasks.ts),
 * so the runtime names no kind.
 */
export interface TaskHooks {
  /** Queues the task that retries failed vector writes. */
  queueIndexRetry(queue: TaskQueue, ids: { upsert: number[]; remove: number[] }, now: number): void;
  /** The kinds whose results carry node ids, and where (scrubbed after a purge). */
  readonly resultNodePaths: readonly { kind: string; paths: readonly string[] }[];
}

/** What the queue runner needs beyond the tasks' runtime: the idempotency keys and the graph cache. */
export interface RunnerRuntime extends AgentRuntime {
  readonly keys: IdempotencyKeys;
  /** Forgets the cached graph (after a failed task or an agent reset). */
  dropGraph(): void;
}

/** Random, URL-safe ids (task ids). */
export function randomId(prefix: string, length = 20): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = prefix;
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
