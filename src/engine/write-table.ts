/**
 * The write table (docs/design.md, "One write path"): every kind of write (src/memory/write-ops.ts)
 * declared once, with its stored form and what it does to each place a commit applies it to:
 * D1, the in-memory graph, the vector index and the object's own state (write-kind.ts says what
 * each column is; write-path.ts applies them in that order). A new kind of write is one type in
 * write-ops.ts and one row here; the compiler refuses a table without it.
 *
 * Every column is idempotent: applied twice it leaves what applying it once left, which is what
 * lets an interrupted commit be redone from its stored intent (the object column runs once, in the
 * transaction that clears the intent).
 */
import { z } from "zod";
import type { WriteOp, WriteOpType } from "../memory/write-ops";
import { indexTokens } from "../search/bm25-index";
import { ftsDocument } from "../search/fts-text";
import type { Statement } from "../storage/batch";
import { EntityAliasSchema, Id, LinkKeySchema, NewLinkSchema, NodePatchSchema, NodeSchema, TextUpdateSchema } from "../vocabulary/records";
import type { AgentRepos } from "./runtime";
import type { D1Column, OpOf, WriteKind, WriteTable } from "./write-kind";

/** A D1 column that writes each operation of a run on its own. */
function each<O>(statements: (repos: AgentRepos, op: O) => Statement[]): D1Column<O> {
  return (repos, run) => run.flatMap((op) => statements(repos, op));
}

const op = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) => z.object({ type: z.literal(type), ...shape });

export const WRITE_TABLE = {
  /** New nodes, with their full-text rows, vectors and scan rows. */
  createNodes: {
    schema: op("createNodes", { nodes: z.array(NodeSchema) }),
    d1: each((repos, { nodes }) => {
      const documents = nodes.map((n) => ({ node: n, terms: ftsDocument(n) }));
      return [
        ...repos.nodes.insertStatements(documents.map((d) => ({ ...d.node, ftsTokens: indexTokens(d.terms).length }))),
        ...repos.fts.upsertStatements(documents.map((d) => ({ nodeId: d.node.id, terms: d.terms }))),
      ];
    }),
    graph: (graph, { nodes }) => {
      for (const node of nodes) graph.addNode(node);
    },
    vectors: (changes, { nodes }) => {
      for (const node of nodes) changes.upsert(node);
    },
    object: (state, { nodes }) => {
      state.scans.add(
        nodes.map((n) => n.id),
        state.meta.scanCycles(),
      );
      state.expiries.set(nodes.filter((n) => n.expiresAt !== null));
    },
    shrinks: false,
  },
  createLinks: {
    schema: op("createLinks", { links: z.array(NewLinkSchema) }),
    d1: each((repos, { links }) => repos.links.insertStatements(links)),
    graph: (graph, { links }) => graph.createLinks(links),
    vectors: null,
    object: null,
    shrinks: false,
  },
  setLinks: {
    schema: op("setLinks", { links: z.array(NewLinkSchema) }),
    d1: each((repos, { links }) => repos.links.upsertStatements(links)),
    graph: (graph, { links }) => graph.setLinks(links),
    vectors: null,
    object: null,
    shrinks: false,
  },
  patchNodes: {
    schema: z.union([
      op("patchNodes", { ids: z.array(Id), fields: NodePatchSchema }),
      // An intent stored before patchNodes replaced it (a supersession), redone after the upgrade.
      op("supersede", { id: Id, by: Id }).transform(({ id, by }) => ({
        type: "patchNodes" as const,
        ids: [id],
        fields: { supersededBy: by },
      })),
    ]),
    d1: each((repos, { ids, fields }) => repos.nodes.patchStatements(ids, fields)),
    graph: (graph, { ids, fields }) => {
      for (const id of ids) graph.patchNode(id, fields);
    },
    vectors: null, // no field of a patch is embedded
    // The alarm's schedule follows a changed expiry.
    object: (state, { ids, fields }) => {
      const { expiresAt } = fields;
      if (expiresAt !== undefined) state.expiries.set(ids.map((id) => ({ id, expiresAt })));
    },
    shrinks: false,
  },
  addAliases: {
    schema: op("addAliases", { aliases: z.array(EntityAliasSchema) }),
    d1: each((repos, { aliases }) => repos.nodes.aliasStatements(aliases, Date.now())),
    graph: (graph, { aliases }) => {
      for (const alias of aliases) graph.addAlias(alias.key, alias.nodeId);
    },
    vectors: null,
    object: null,
    shrinks: false,
  },
  /** Aliases removed by key (a purge: names only purged memories used). */
  deleteAliases: {
    schema: op("deleteAliases", { keys: z.array(z.string()) }),
    d1: each((repos, { keys }) => (keys.length === 0 ? [] : [repos.nodes.deleteAliasesStatement(keys)])),
    graph: (graph, { keys }) => graph.deleteAliases(keys),
    vectors: null,
    object: null,
    shrinks: false,
  },
  /** Only a release writes rows (the levels its links restart from); the focus itself is the object's. */
  setFocus: {
    schema: op("setFocus", {
      focus: z.array(z.object({ nodeId: Id, key: z.string(), name: z.string() })),
      released: z.array(Id),
      clock: z.number(),
      epoch: Id,
    }),
    d1: each((repos, { released, clock, epoch }) =>
      released.length > 0 ? [repos.nodes.releaseStatement(released, { clock, epoch })] : [],
    ),
    registers: ({ released }) => released.length > 0,
    graph: (graph, { focus, released, clock }) =>
      graph.setFocus(
        focus.map((f) => f.nodeId),
        released,
        clock,
      ),
    vectors: null,
    object: (state, { focus }) => state.focus.replace(focus),
    shrinks: false,
  },
  deleteLinks: {
    schema: op("deleteLinks", { keys: z.array(LinkKeySchema) }),
    d1: each((repos, { keys }) => repos.links.deleteKeysStatements(keys)),
    graph: (graph, { keys }) => graph.deleteLinks(keys),
    vectors: null,
    object: null,
    shrinks: true,
  },
  updateText: {
    schema: op("updateText", { update: TextUpdateSchema }),
    // A run of text updates (a scan page's compressions) goes as one statement per table.
    d1: (repos, run) => {
      const documents = run.map(({ update }) => ({ update, terms: ftsDocument(update) }));
      return [
        ...repos.nodes.updateTextStatements(documents.map((d) => ({ update: d.update, ftsTokens: indexTokens(d.terms).length }))),
        ...repos.fts.upsertStatements(documents.map((d) => ({ nodeId: d.update.id, terms: d.terms }))),
      ];
    },
    graph: (graph, { update }) => graph.updateText(update),
    vectors: (changes, { update }) => changes.upsert(update),
    object: null,
    shrinks: false,
  },
  deleteNodes: {
    schema: op("deleteNodes", { ids: z.array(Id) }),
    d1: each((repos, { ids }) =>
      ids.length === 0
        ? []
        : [
            repos.links.settleReleasesStatement(ids),
            repos.links.deleteOutgoingStatement(ids),
            repos.nodes.deleteStatement(ids),
            repos.nodes.deleteAliasesOfStatement(ids),
            repos.fts.deleteStatement(ids),
          ],
    ),
    graph: (graph, { ids }) => graph.deleteNodes(ids),
    vectors: (changes, { ids }) => {
      for (const id of ids) changes.remove(id);
    },
    object: (state, { ids }) => {
      state.scans.remove(ids);
      state.feedback.remove(ids);
      state.expiries.remove(ids);
    },
    shrinks: true,
  },
  /**
   * What chunks of the deletion left, if anything (src/operations/delete-agent/task.ts). It registers
   * nothing (it only removes what an earlier write registered), and the registry row, in the
   * primary database, is removed by the deletion before this commit.
   */
  purgeAgent: {
    schema: op("purgeAgent", { nodeIds: z.array(Id) }),
    d1: each((repos) => [
      repos.links.deleteAllStatement(),
      repos.nodes.deleteAllStatement(),
      repos.fts.deleteAllStatement(),
      repos.nodes.deleteAllAliasesStatement(),
    ]),
    registers: () => false,
    graph: (graph) => graph.purge(),
    vectors: (changes, { nodeIds }) => {
      for (const id of nodeIds) changes.remove(id);
    },
    object: (state) => state.purgeMemory(),
    shrinks: true,
    purges: true,
  },
  setClock: {
    schema: op("setClock", { clock: z.number() }),
    object: (state, { clock }) => state.meta.set("clock", clock),
  },
  finishScan: {
    schema: op("finishScan", { cycles: Id, skipped: z.array(Id) }),
    object: (state, { cycles, skipped }) => {
      state.scans.skip(skipped, cycles);
      state.meta.set("scanCycles", state.meta.scanCycles() + cycles);
    },
  },
  recordMessages: {
    schema: op("recordMessages", { ids: z.array(z.string()) }),
    object: (state, { ids }) => state.messages.record(ids),
  },
  forgetMessages: {
    schema: op("forgetMessages", { ids: z.array(z.string()) }),
    object: (state, { ids }) => state.messages.forget(ids),
  },
  markReinforced: {
    schema: op("markReinforced", { ids: z.array(Id), cycle: Id }),
    object: (state, { ids, cycle }) => state.feedback.mark(ids, cycle),
  },
  setScanCounts: {
    schema: op("setScanCounts", { counts: z.array(z.object({ id: Id, count: Id })) }),
    object: (state, { counts }) => state.scans.setCounts(counts, state.meta.scanCycles()),
  },
  /** Memories forgotten without a purge: who wrote them (a later purge of one retires that task's key). */
  recordForgotten: {
    schema: op("recordForgotten", {
      nodes: z.array(
        z.object({ id: Id, taskId: z.string().nullable(), messageIds: z.array(z.string()), sessionId: z.string().nullable().optional() }),
      ),
    }),
    object: (state, { nodes }) => state.forgotten.record(nodes),
  },
  /** The object's side of a purge: task results, keys and forgotten-node notes (docs/design.md, "Purge"). */
  scrubPurged: {
    schema: op("scrubPurged", { nodeIds: z.array(Id), taskIds: z.array(z.string()), names: z.array(z.string()) }),
    object: (state, purged) => state.scrubPurged(purged),
    purges: true,
  },
  recordSession: {
    schema: op("recordSession", { session: z.object({ id: z.string(), from: z.number(), to: z.number(), messages: Id }) }),
    object: (state, { session }) => state.sessions.record(session),
  },
  forgetSession: {
    schema: op("forgetSession", { id: z.string() }),
    object: (state, { id }) => state.sessions.drop(id),
  },
  count: {
    schema: op("count", { counters: z.record(z.string(), z.number()) }),
    object: (state, { counters }) => state.meta.bump(counters),
  },
} satisfies WriteTable;

const rows: { readonly [T in WriteOpType]: WriteKind<OpOf<T>> } = WRITE_TABLE;

/** The row of an operation type. */
export function writeKind<T extends WriteOpType>(type: T): WriteKind<OpOf<T>> {
  return rows[type];
}

/** The stored form of any write operation (an intent's list). */
export const WriteOpSchema: z.ZodType<WriteOp> = z.union(Object.values(rows).map((row) => row.schema));
