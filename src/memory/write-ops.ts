/**
 * Every change a task makes to an agent's memory, as data (docs/design.md, "One write path").
 * Remember, compression, capacity eviction and every later operation describe their changes as a
 * list of these; src/engine/write-path.ts applies a list to D1, the in-memory graph, the search
 * indexes and the object's own state, in that order, as one unit that can be redone. What each
 * type does to each of those is its row of the write table (src/engine/write-table.ts): a type
 * added here does not compile until it has one.
 *
 * Two kinds: network writes (NetworkOp) change the memory network, so D1, the graph and the
 * vector index follow them (and the object keeps what it tracks of them: scan rows, the focus);
 * bookkeeping (BookkeepingOp) is the object's own state only (clock, scans, message ids,
 * reinforcement marks, counters) and never reaches D1 or the graph.
 *
 * Every operation is idempotent: applied twice it leaves what applying it once left (inserts
 * ignore rows that exist, levels and texts are absolute values, deletions of what is gone do
 * nothing). That is what lets an interrupted commit be redone from its stored intent.
 */
import type { FocusEntry } from "./focus-lru";
import type { EntityAlias, LinkKey, MemoryNode, NewLink, NodePatch, TextUpdate } from "../vocabulary/records";

export type NetworkOp =
  /** New nodes (with their full-text rows, vectors and scan bookkeeping). */
  | { type: "createNodes"; nodes: MemoryNode[] }
  /** New links; a link that exists keeps its level. */
  | { type: "createLinks"; links: NewLink[] }
  /**
   * The focus after a remember (docs/design.md, "The model"): links incident to a focus node are pinned at strength
   * 1; `released` left the focus at `clock` and their links decay from strength 1 from then on.
   */
  | { type: "setFocus"; focus: FocusEntry[]; released: number[]; clock: number; epoch: number }
  /** Links removed (broken by decay, or deleted on purpose). */
  | { type: "deleteLinks"; keys: LinkKey[] }
  /** Links created, or an existing link's level set (reinforcement, an explicit strength). */
  | { type: "setLinks"; links: NewLink[] }
  /**
   * Fields of nodes set to the given values (a correction's `supersededBy`: the node is history now,
   * docs/design.md, "Memory operations"); fields the patch does not name stay as they are.
   */
  | { type: "patchNodes"; ids: number[]; fields: NodePatch }
  /** Other names that lead to an entity (a merge keeps the absorbed entity's names). */
  | { type: "addAliases"; aliases: EntityAlias[] }
  /** Aliases removed by key (a purge: names that only purged memories mentioned). */
  | { type: "deleteAliases"; keys: string[] }
  /** A node's content replaced by its compression. */
  | { type: "updateText"; update: TextUpdate }
  /**
   * Nodes deleted with their outgoing links and the aliases that lead to them; links into them
   * stay, dangling (docs/design.md, "The model").
   */
  | { type: "deleteNodes"; ids: number[] }
  /**
   * Everything of the agent goes (docs/design.md, "Execution model"): rows, index entries, `nodeIds`' vectors, the
   * object's memory state; its identity and the tasks that arrived after the deletion stay. An
   * agent deletion first takes the rows away in bounded chunks (deleteLinks, deleteNodes), so this
   * last step finds (almost) nothing left in D1.
   */
  | { type: "purgeAgent"; nodeIds: number[] };

export type BookkeepingOp =
  /** The decay clock moved (docs/design.md, "Compression" step 1). */
  | { type: "setClock"; clock: number }
  /**
   * A compression pass of `cycles` cycles finished: every node it scanned gained `cycles` scans;
   * the focus nodes it skipped (`skipped`) did not.
   */
  | { type: "finishScan"; cycles: number; skipped: number[] }
  /** Message ids now held by the agent: a message id is never stored twice. */
  | { type: "recordMessages"; ids: string[] }
  /** Message ids no longer held (a purge, docs/design.md, "Memory operations"): a re-sent message is stored again. */
  | { type: "forgetMessages"; ids: string[] }
  /** Memories reinforced in compression cycle `cycle` (docs/design.md, "Memory operations": at most once per cycle). */
  | { type: "markReinforced"; ids: number[]; cycle: number }
  /** Scan counts restored (an import, docs/design.md, "Memory operations"): each node's count is set, absolutely. */
  | { type: "setScanCounts"; counts: { id: number; count: number }[] }
  /**
   * Memories forgotten (deleted, not purged) and what wrote them: a later purge of one finds the
   * task whose result and Idempotency-Key it must take (docs/design.md, "Purge"). No text.
   */
  | { type: "recordForgotten"; nodes: ForgottenNode[] }
  /**
   * The object's side of a purge (docs/design.md, "Purge"): finished tasks that wrote a purged node
   * (`taskIds`) or whose result names one (`nodeIds`) lose their results and Idempotency-Keys;
   * `names` (purged entities and aliases) leave the name lists of every other result.
   */
  | { type: "scrubPurged"; nodeIds: number[]; taskIds: string[]; names: string[] }
  /** Lifetime counters (stats). */
  | { type: "count"; counters: Record<string, number> };

/** A memory deleted without a purge: its id, the task that wrote it and the messages it came from. */
export interface ForgottenNode {
  id: number;
  taskId: string | null;
  messageIds: string[];
}

/** What the object keeps of nodes it forgets without a purge: the memories' writers (entities are not memories). */
export function forgottenNodes(nodes: Iterable<MemoryNode>): ForgottenNode[] {
  return [...nodes].filter((n) => n.kind !== "entity").map((n) => ({ id: n.id, taskId: n.sourceTaskId, messageIds: n.sourceMessageIds }));
}

export type WriteOp = NetworkOp | BookkeepingOp;
export type WriteOpType = WriteOp["type"];
