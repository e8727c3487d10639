/**
 * What a kind of write is (docs/design.md, "One write path"): one row of the write table
 * (write-table.ts) per write operation type (src/memory/write-ops.ts), one column per place a
 * commit (write-path.ts) applies it to. The table's type is checked against the operation types:
 * a kind without its row, a row for no kind, a network write without its D1 or graph column, a
 * bookkeeping write that names D1, or a column whose operation type is wrong do not compile.
 *
 * A column is required for every row that can have it: a network write says `null` where it
 * leaves a target alone, so a new column (another copy of the network) makes the compiler list
 * every row that must decide.
 */
import type { z } from "zod";
import type { MemoryGraph } from "../memory/graph";
import type { BookkeepingOp, NetworkOp, WriteOp, WriteOpType } from "../memory/write-ops";
import type { Statement } from "../storage/batch";
import type { NodeKind } from "../vocabulary/node-kinds";
import type { AgentRepos } from "./runtime";
import type { FeedbackStore } from "./stores/feedback-store";
import type { FocusStore } from "./stores/focus-store";
import type { ForgottenNodes } from "./stores/forgotten-nodes";
import type { MessageIds } from "./stores/message-ids";
import type { MetaStore } from "./stores/meta-store";
import type { ScanStore } from "./stores/scan-store";
import type { ExpiryStore } from "./stores/expiry-store";
import type { SessionStore } from "./stores/session-store";

/** The operation of type `T`. */
export type OpOf<T extends WriteOpType> = Extract<WriteOp, { type: T }>;

/**
 * D1 (step 2 of a commit): the idempotent statements of a run of consecutive operations of this
 * type, in order (a handler may merge a run into fewer statements).
 */
export type D1Column<O> = (repos: AgentRepos, run: readonly O[]) => Statement[];

/** The in-memory graph, when loaded (step 3). */
type GraphColumn<O> = (graph: MemoryGraph, op: O) => void;

/** What is embedded for a node (write-table.ts's vector column collects these). */
export interface IndexableNode {
  id: number;
  kind: NodeKind;
  content: string;
  speaker: string | null;
  /** What a vector index filters on besides the kind (docs/design.md, "Scoping"); absent reads as none. */
  sessionId?: string | null | undefined;
}

/** The vector index's changes of one commit, collected in the list's order (step 4). */
interface VectorChangeSet {
  upsert(node: IndexableNode): void;
  /** Removed, and no longer upserted if an earlier operation of the list was to. */
  remove(id: number): void;
}
type VectorColumn<O> = (changes: VectorChangeSet, op: O) => void;

/** The object's own state, as the write table's object column changes it (step 5). */
export interface ObjectState {
  readonly meta: MetaStore;
  readonly focus: FocusStore;
  readonly scans: ScanStore;
  readonly messages: MessageIds;
  readonly feedback: FeedbackStore;
  readonly forgotten: ForgottenNodes;
  readonly sessions: SessionStore;
  readonly expiries: ExpiryStore;
  /** Everything the object keeps of the agent's memory goes; its identity stays (a purge). */
  purgeMemory(): void;
  /** What a purge takes out of finished tasks' results and keys (docs/design.md, "Purge"). */
  scrubPurged(purged: { nodeIds: readonly number[]; taskIds: readonly string[]; names: readonly string[] }): void;
}
type ObjectColumn<O> = (state: ObjectState, op: O) => void;

/** A network write: D1 and the graph always follow it; `null` where it leaves a target alone. */
interface NetworkWrite<O extends NetworkOp> {
  /** Its stored form: an intent redone after a crash is parsed with it, never cast. */
  schema: z.ZodType<O>;
  d1: D1Column<O>;
  /**
   * Whether it writes the agent's rows, so the agent is registered (a D1 shard assigned) on its
   * first write; without it, every operation of the kind does.
   */
  registers?: (op: O) => boolean;
  graph: GraphColumn<O>;
  vectors: VectorColumn<O> | null;
  /** What the object tracks of it (scan rows, the focus, a purge). */
  object: ObjectColumn<O> | null;
  /**
   * Whether it may leave the agent with fewer nodes or links: its commit removes the marker of an
   * agent past the graph's limits (meta `pastLimits`), so the next wake counts again.
   */
  shrinks: boolean;
  /** A purge: its commit writes the object's copy of the network again instead of journalling it. */
  purges?: true;
}

/** Bookkeeping: the object's own state, nothing else (never D1, the graph or the index). */
interface BookkeepingWrite<O extends BookkeepingOp> {
  schema: z.ZodType<O>;
  object: ObjectColumn<O>;
  /** A purge's side in the object: its commit writes the object's copy of the network again. */
  purges?: true;
}

/** The table's type: one row per operation type, of the shape its kind takes. */
export type WriteTable = {
  readonly [T in WriteOpType]: OpOf<T> extends NetworkOp
    ? NetworkWrite<OpOf<T>>
    : OpOf<T> extends BookkeepingOp
      ? BookkeepingWrite<OpOf<T>>
      : never;
};

/** A row as the commit reads it, whatever its kind: absent columns are targets it never reaches. */
export interface WriteKind<O extends WriteOp> {
  schema: z.ZodType<O>;
  d1?: D1Column<O>;
  registers?: (op: O) => boolean;
  graph?: GraphColumn<O>;
  vectors?: VectorColumn<O> | null;
  object?: ObjectColumn<O> | null;
  shrinks?: boolean;
  purges?: true;
}
