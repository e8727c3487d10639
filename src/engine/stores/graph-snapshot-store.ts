/**
 * The object's own copy of the agent's network (docs/design.md, "The cold path and the storage
 * layout", Decision 1): a snapshot of the graph at some commit (../graph-snapshot.ts) and a
 * journal of the network writes of every commit since, one entry per commit, written in that
 * commit's step 5 transaction (../write-path.ts).
 *
 *   graph_snapshot  part 0: the header; parts 1…: the body, ≤ 1 MiB each (a value holds 2 MB);
 *   graph_journal   (seq, part) → a commit's network writes as JSON, in parts of ≤ 1 MiB.
 *
 * The invariant: while a snapshot exists, the snapshot with the journal replayed through the
 * write table's graph column is the network in D1, but for a commit whose intent is still stored
 * (redone before any later task, appending its entry then). The journal is kept only while there
 * is a snapshot; writing a snapshot (from the loaded graph, never behind the journal) empties it in
 * the same transaction. A commit in flight may be in a snapshot and also come after it in the
 * journal: replaying it again changes nothing (every operation sets absolute values).
 */
import { z } from "zod";
import type { MemoryGraph } from "../../memory/graph";
import type { NetworkOp } from "../../memory/write-ops";
import { ByteParts } from "../byte-parts";
import { packGraph, unpackGraph } from "../graph-snapshot";
import { writeKind, WriteOpSchema } from "../write-table";

const PART_BYTES = 1 << 20;

const JournalEntrySchema = z.array(WriteOpSchema);

export interface LoadedSnapshot {
  graph: MemoryGraph;
  /** Journal entries replayed on top of the snapshot. */
  replayed: number;
}

export class GraphSnapshotStore {
  /** Whether a snapshot is stored; undefined until asked once after a wake. */
  private present: boolean | undefined;
  /** Journal entries stored; undefined until counted. */
  private entries: number | undefined;

  constructor(private readonly sql: SqlStorage) {}

  exists(): boolean {
    this.present ??= this.sql.exec("SELECT part FROM graph_snapshot WHERE part = 0").toArray().length > 0;
    return this.present;
  }

  /** Journal entries since the snapshot. */
  journalLength(): number {
    this.entries ??= this.sql.exec<{ n: number }>("SELECT count(DISTINCT seq) AS n FROM graph_journal").one().n;
    return this.entries;
  }

  /**
   * The graph the snapshot and its journal describe; undefined when there is none, or when it was
   * written by another layout or holds what this code cannot read (then it is dropped: the caller
   * rebuilds from D1).
   */
  load(): LoadedSnapshot | undefined {
    if (!this.exists()) return undefined;
    const parts = this.sql.exec<{ body: ArrayBuffer }>("SELECT body FROM graph_snapshot ORDER BY part").toArray();
    const [header, ...body] = parts.map((p) => new Uint8Array(p.body));
    let graph: MemoryGraph | undefined;
    try {
      graph = header ? unpackGraph({ header, body }) : undefined;
    } catch {
      graph = undefined;
    }
    if (!graph) return this.unreadable();
    let replayed = 0;
    for (const ops of this.journal()) {
      if (!ops) return this.unreadable();
      for (const op of ops) writeKind(op.type).graph?.(graph, op as never);
      replayed += 1;
    }
    this.entries = replayed;
    return { graph, replayed };
  }

  /** Appends one commit's network writes (inside its step 5 transaction); nothing without a snapshot. */
  append(ops: readonly NetworkOp[]): void {
    if (ops.length === 0 || !this.exists()) return;
    const seq = this.sql.exec<{ seq: number | null }>("SELECT max(seq) AS seq FROM graph_journal").one().seq ?? 0;
    split(new TextEncoder().encode(JSON.stringify(ops))).forEach((body, part) =>
      this.sql.exec("INSERT INTO graph_journal (seq, part, body) VALUES (?, ?, ?)", seq + 1, part, body.buffer),
    );
    this.entries = this.journalLength() + 1;
  }

  /** Replaces the snapshot with `graph` and empties the journal (the caller's transaction makes it one change). */
  write(graph: MemoryGraph): void {
    const packed = packGraph(graph);
    this.clear();
    this.sql.exec("INSERT INTO graph_snapshot (part, body) VALUES (0, ?)", packed.header.slice().buffer);
    packed.body
      .flatMap(split)
      .forEach((body, i) => this.sql.exec("INSERT INTO graph_snapshot (part, body) VALUES (?, ?)", i + 1, body.buffer));
    this.present = true;
    this.entries = 0;
  }

  /** No snapshot and no journal: the next wake rebuilds from D1 (a write to D1 outside the write path). */
  drop(): void {
    this.clear();
    this.present = false;
    this.entries = 0;
  }

  /** Forgets what it knows (a rolled-back transaction may have changed the tables under it). */
  forget(): void {
    this.present = undefined;
    this.entries = undefined;
  }

  private clear(): void {
    this.sql.exec("DELETE FROM graph_snapshot");
    this.sql.exec("DELETE FROM graph_journal");
  }

  /** The journal's entries in order, each its operations, or undefined where one cannot be read. */
  private *journal(): Generator<NetworkOp[] | undefined> {
    let seq: number | undefined;
    let parts: Uint8Array[] = [];
    const entry = (): NetworkOp[] | undefined => {
      try {
        const parsed = JournalEntrySchema.safeParse(JSON.parse(new ByteParts(parts).text()));
        return parsed.success ? (parsed.data as NetworkOp[]) : undefined;
      } catch {
        return undefined;
      }
    };
    for (const row of this.sql.exec<{ seq: number; body: ArrayBuffer }>("SELECT seq, body FROM graph_journal ORDER BY seq, part")) {
      if (seq !== undefined && row.seq !== seq) yield entry();
      if (row.seq !== seq) parts = [];
      seq = row.seq;
      parts.push(new Uint8Array(row.body));
    }
    if (seq !== undefined) yield entry();
  }

  private unreadable(): undefined {
    this.drop();
    return undefined;
  }
}

/** Copies of `bytes` in parts of at most PART_BYTES (at least one part), each its own buffer. */
function split(bytes: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += PART_BYTES) parts.push(bytes.slice(at, Math.min(bytes.length, at + PART_BYTES)));
  return parts.length > 0 ? parts : [new Uint8Array(0)];
}
