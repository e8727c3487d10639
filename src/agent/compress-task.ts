/**
 * One compression cycle, the unit of time (DESIGN §6, seed 001 §11.2):
 *
 * 1. decay: the agent's decay clock advances one step and every link that fell below
 *    link_break_threshold is removed, in one statement (src/memory/strength.ts);
 * 2. scan: nodes in ascending scan_count, focus nodes skipped, each protected, kept, compressed or
 *    deleted by its importance (src/memory/compression-plan.ts).
 *
 * The scan is time-sliced: between any two nodes it yields when a foreground task is waiting, and
 * it pauses after time_slice_ms. Its progress (cursor, counts) is checkpointed with the task after
 * every committed page, and nodes carry the cycle that last scanned them, so a cycle resumed after
 * a yield, a pause or an eviction continues where it stopped and scans no node twice.
 */
import { z } from "zod";
import { planScan } from "../memory/compression-plan";
import { importanceOf } from "../memory/importance";
import { advanceClock, breakLevel } from "../memory/strength";
import { runBatch, type Statement } from "../storage/batch";
import type { ContentUpdate, ScanNode } from "../storage/node-repo";
import { parseJsonOrUndefined } from "../storage/row-parsing";
import { codePointLength } from "../text/code-points";
import { ftsEntries, syncVectors, type IndexableNode } from "./indexing";
import { networkReader } from "./network-reader";
import type { AgentRepos, AgentRuntime } from "./runtime";
import type { TaskRecord } from "./task-queue";

/** Nodes read per scan page (one range read and one importance query per page). */
export const SCAN_PAGE = 100;

const CountsSchema = z.object({
  links_broken: z.number(),
  scanned: z.number(),
  protected: z.number(),
  compressed: z.number(),
  deleted: z.number(),
  model_failures: z.number(),
  decay_ms: z.number(),
  scan_ms: z.number(),
  slices: z.number(),
});
export type CycleCounts = z.infer<typeof CountsSchema>;

const CheckpointSchema = z.object({
  cycle: z.number().int(),
  /** Parameters are read once, when the cycle starts: a change takes effect on the next cycle. */
  params: z.object({
    decay_rate: z.number(),
    link_break_threshold: z.number(),
    delete_threshold: z.number(),
    time_slice_ms: z.number(),
  }),
  decayed: z.boolean(),
  cursor: z.object({ scanCount: z.number(), id: z.number() }).nullable(),
  counts: CountsSchema,
});
type Checkpoint = z.infer<typeof CheckpointSchema>;

export type CycleOutcome =
  | { status: "done"; result: CycleCounts & { cycle: number } }
  | { status: "yielded"; reason: "foreground" | "time_slice" };

export async function runCycle(rt: AgentRuntime, task: TaskRecord, foregroundWaiting: () => boolean): Promise<CycleOutcome> {
  const repos = await rt.repos();
  const checkpoint = resume(task) ?? start(rt);
  const save = () => rt.queue.saveCheckpoint(task.id, checkpoint);
  save();
  if (!checkpoint.decayed) await decay(rt, repos, checkpoint, save);

  const sliceStart = Date.now();
  checkpoint.counts.slices += 1;
  const reader = await networkReader(rt, repos);
  for (;;) {
    const page = await repos.nodes.scanPage(checkpoint.cycle, checkpoint.cursor, rt.focus.ids(), SCAN_PAGE);
    if (page.length === 0) break;
    const outgoing = await reader.outgoingStrengths(page.map((n) => n.id), rt.meta.clock());
    const writes = new PageWrites(repos, checkpoint.cycle);
    let interrupted: "foreground" | "time_slice" | undefined;
    for (const node of page) {
      const started = Date.now();
      await scanNode(rt, node, importanceOf(outgoing.get(node.id) ?? []), checkpoint, writes);
      checkpoint.cursor = { scanCount: node.scanCount, id: node.id };
      checkpoint.counts.scan_ms += Date.now() - started;
      if (foregroundWaiting()) interrupted = "foreground";
      else if (Date.now() - sliceStart >= checkpoint.params.time_slice_ms) interrupted = "time_slice";
      if (interrupted) break;
    }
    await writes.commit(rt);
    rt.storage.transactionSync(() => {
      rt.meta.bump({ nodes_scanned: writes.scanned, nodes_compressed: writes.compressed, nodes_deleted: writes.deleted });
      save();
    });
    if (interrupted) return { status: "yielded", reason: interrupted };
  }
  rt.meta.bump({ cycles: 1 });
  return { status: "done", result: { cycle: checkpoint.cycle, ...checkpoint.counts } };
}

function resume(task: TaskRecord): Checkpoint | undefined {
  if (!task.checkpoint) return undefined;
  const parsed = CheckpointSchema.safeParse(parseJsonOrUndefined(task.checkpoint));
  return parsed.success ? parsed.data : undefined;
}

function start(rt: AgentRuntime): Checkpoint {
  const params = rt.meta.params();
  const cycle = (rt.meta.get("cycle") ?? 0) + 1;
  rt.meta.set("cycle", cycle);
  return {
    cycle,
    params: {
      decay_rate: params.decay_rate,
      link_break_threshold: params.link_break_threshold,
      delete_threshold: params.delete_threshold,
      time_slice_ms: params.time_slice_ms,
    },
    decayed: false,
    cursor: null,
    counts: { links_broken: 0, scanned: 0, protected: 0, compressed: 0, deleted: 0, model_failures: 0, decay_ms: 0, scan_ms: 0, slices: 0 },
  };
}

/**
 * Step 1. Idempotent: the new clock is derived from the stored one, which only changes together
 * with the checkpoint's `decayed` flag, so a re-run deletes against the same level.
 */
async function decay(rt: AgentRuntime, repos: AgentRepos, checkpoint: Checkpoint, save: () => void): Promise<void> {
  const started = Date.now();
  const clock = advanceClock(rt.meta.clock(), checkpoint.params.decay_rate);
  const below = breakLevel(clock, checkpoint.params.link_break_threshold);
  const broken = await repos.links.breakWeak(below);
  rt.loadedGraph()?.breakBelow(below);
  rt.storage.transactionSync(() => {
    rt.meta.set("clock", clock);
    checkpoint.decayed = true;
    checkpoint.counts.links_broken = broken;
    checkpoint.counts.decay_ms = Date.now() - started;
    rt.meta.bump({ links_broken: broken });
    save();
  });
}

async function scanNode(rt: AgentRuntime, node: ScanNode, importance: number, checkpoint: Checkpoint, writes: PageWrites): Promise<void> {
  const counts = checkpoint.counts;
  counts.scanned += 1;
  const plan = planScan({
    importance,
    originalLength: node.originalLength,
    currentLength: codePointLength(node.content),
    deleteThreshold: checkpoint.params.delete_threshold,
  });
  switch (plan.action) {
    case "protect":
      counts.protected += 1;
      writes.mark(node.id);
      return;
    case "keep":
      writes.mark(node.id);
      return;
    case "delete":
      counts.deleted += 1;
      writes.delete(node.id);
      return;
    case "compress": {
      const update = await compress(rt, node, plan.target);
      if (update) {
        counts.compressed += 1;
        writes.update(update);
      } else {
        counts.model_failures += 1;
      }
      writes.mark(node.id);
      return;
    }
  }
}

/** The compressed content with re-extracted phrase and keywords, or undefined when the model failed. */
async function compress(rt: AgentRuntime, node: ScanNode, target: number): Promise<Compressed | undefined> {
  try {
    const model = rt.model;
    const content = await model.compress(node.content, target);
    if (codePointLength(content) > target || content.trim().length === 0) throw new Error("compression missed its target");
    if (node.kind === "entity") return { id: node.id, kind: node.kind, speaker: null, content, phrase: content, keywords: [content] };
    const [extraction] = await model.extract([content]);
    return { id: node.id, kind: node.kind, speaker: node.speaker, content, phrase: extraction?.phrase ?? "", keywords: extraction?.keywords ?? [] };
  } catch {
    // Retries are spent (counted as a model failure): keep the content, move on.
    return undefined;
  }
}

type Compressed = ContentUpdate & IndexableNode;

/**
 * The writes of one scan page, committed as one atomic D1 batch (nodes and their full-text rows
 * together); the vector index follows after the commit.
 */
class PageWrites {
  private readonly scannedIds: number[] = [];
  private readonly deletedIds: number[] = [];
  private readonly updates: Compressed[] = [];

  constructor(
    private readonly repos: AgentRepos,
    private readonly cycle: number,
  ) {}

  mark(id: number): void {
    this.scannedIds.push(id);
  }

  delete(id: number): void {
    this.deletedIds.push(id);
  }

  update(update: Compressed): void {
    this.updates.push(update);
  }

  get scanned(): number {
    return this.scannedIds.length + this.deletedIds.length;
  }

  get compressed(): number {
    return this.updates.length;
  }

  get deleted(): number {
    return this.deletedIds.length;
  }

  async commit(rt: AgentRuntime): Promise<void> {
    const statements: Statement[] = this.updates.map((u) => this.repos.nodes.updateContentStatement(u));
    statements.push(...this.repos.fts.upsertStatements(ftsEntries(this.updates)));
    if (this.scannedIds.length > 0) statements.push(this.repos.nodes.markScannedStatement(this.scannedIds, this.cycle));
    if (this.deletedIds.length > 0) {
      statements.push(this.repos.links.deleteOutgoingStatement(this.deletedIds));
      statements.push(this.repos.nodes.deleteStatement(this.deletedIds));
      statements.push(this.repos.fts.deleteStatement(this.deletedIds));
    }
    await runBatch(rt.d1, statements);
    const graph = rt.loadedGraph();
    if (graph) {
      for (const u of this.updates) graph.updateContent(u.id, u);
      graph.markScanned(this.scannedIds);
      graph.deleteNodes(this.deletedIds);
    }
    await syncVectors(rt, this.updates, this.deletedIds);
  }
}
