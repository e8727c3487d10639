/**
 * Compression cycles, the unit of time (DESIGN §6, seed 001 §11.2). One cycle:
 *
 * 1. decay: the agent's decay clock advances one step and every link that fell below
 *    link_break_threshold is removed, in one statement (src/memory/strength.ts);
 * 2. scan: nodes in ascending scan_count, focus nodes skipped, each protected, kept, compressed or
 *    deleted by its importance (src/memory/compression-plan.ts), scan_count + 1.
 *
 * Cycles queued back to back (remembers arriving faster than cycles finish) run as one pass of k
 * cycles: k decay steps (the clock advanced k times, one break at the final clock), then one scan
 * that advances scan_count by k. With no remember in between, the focus is fixed and every node's
 * importance only falls, so the pass protects, compresses, deletes and breaks exactly what k
 * single cycles would; a compressed text is extracted once from the fuller text instead of k times.
 *
 * The scan is time-sliced: between any two nodes it yields when a foreground task is waiting, and
 * it pauses after time_slice_ms. Its progress (cursor, counts) is checkpointed with the task after
 * every committed page, and nodes carry the cycle that last scanned them, so a pass resumed after
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
import { yieldToEventLoop } from "./event-loop";
import { ftsEntries, syncVectors, type IndexableNode } from "./indexing";
import { networkReader } from "./network-reader";
import type { AgentRepos, AgentRuntime } from "./runtime";
import type { TaskRecord } from "./task-queue";

/** Nodes per scan page: one atomic write batch each (and a range read without the graph cache). */
export const SCAN_PAGE = 250;

/** The most queued cycles one pass absorbs. */
export const MAX_CYCLES_PER_PASS = 1_000;

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
  /** The pass's last cycle: what scanned nodes are stamped with. */
  cycle: z.number().int(),
  /** Cycles in this pass (k). */
  cycles: z.number().int().min(1),
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
  { status: "done"; result: CycleCounts & { cycle: number; cycles: number } } | { status: "yielded"; reason: "foreground" | "time_slice" };

export async function runCycle(rt: AgentRuntime, task: TaskRecord, foregroundWaiting: () => boolean): Promise<CycleOutcome> {
  const repos = await rt.repos();
  const save = (checkpoint: Checkpoint) => rt.queue.saveCheckpoint(task.id, checkpoint);
  const checkpoint = resume(task) ?? rt.storage.transactionSync(() => start(rt, task, save));
  if (!checkpoint.decayed) await decay(rt, repos, checkpoint, () => save(checkpoint));

  const sliceStart = Date.now();
  checkpoint.counts.slices += 1;
  const reader = await networkReader(rt, repos);
  const graph = rt.loadedGraph();
  for (;;) {
    const focus = rt.focus.ids();
    const page = graph
      ? graph.scanPage(checkpoint.cycle, checkpoint.cursor, new Set(focus), SCAN_PAGE)
      : await repos.nodes.scanPage(checkpoint.cycle, checkpoint.cursor, focus, SCAN_PAGE);
    if (page.length === 0) break;
    const outgoing = await reader.outgoingStrengths(
      page.map((n) => n.id),
      rt.meta.clock(),
    );
    const writes = new PageWrites(repos, checkpoint.cycles, checkpoint.cycle);
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
      save(checkpoint);
    });
    if (interrupted) return { status: "yielded", reason: interrupted };
    await yieldToEventLoop();
  }
  rt.meta.bump({ cycles: checkpoint.cycles });
  return { status: "done", result: { cycle: checkpoint.cycle, cycles: checkpoint.cycles, ...checkpoint.counts } };
}

function resume(task: TaskRecord): Checkpoint | undefined {
  if (!task.checkpoint) return undefined;
  const parsed = CheckpointSchema.safeParse(parseJsonOrUndefined(task.checkpoint));
  return parsed.success ? parsed.data : undefined;
}

/**
 * A fresh pass: this task's cycle plus every compression cycle queued right behind it, which are
 * marked done (merged into this one). Runs in one storage transaction with the first checkpoint.
 */
function start(rt: AgentRuntime, task: TaskRecord, save: (checkpoint: Checkpoint) => void): Checkpoint {
  const params = rt.meta.params();
  const merged = rt.queue.absorbQueuedCompressions(task, MAX_CYCLES_PER_PASS - 1, rt.now());
  const cycles = 1 + merged;
  const cycle = (rt.meta.get("cycle") ?? 0) + cycles;
  rt.meta.set("cycle", cycle);
  const checkpoint: Checkpoint = {
    cycle,
    cycles,
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
  save(checkpoint);
  return checkpoint;
}

/**
 * Step 1, for the pass's k cycles. Idempotent: the new clock is derived from the stored one, which
 * only changes together with the checkpoint's `decayed` flag, so a re-run deletes against the same
 * level. Breaking once at the final clock removes exactly the links k breaks would: strengths only fall.
 */
async function decay(rt: AgentRuntime, repos: AgentRepos, checkpoint: Checkpoint, save: () => void): Promise<void> {
  const started = Date.now();
  let clock = rt.meta.clock();
  for (let i = 0; i < checkpoint.cycles; i++) clock = advanceClock(clock, checkpoint.params.decay_rate);
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
    return {
      id: node.id,
      kind: node.kind,
      speaker: node.speaker,
      content,
      phrase: extraction?.phrase ?? "",
      keywords: extraction?.keywords ?? [],
    };
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
    private readonly cycles: number,
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
    if (this.scannedIds.length > 0) statements.push(this.repos.nodes.markScannedStatement(this.scannedIds, this.cycles, this.cycle));
    if (this.deletedIds.length > 0) {
      statements.push(this.repos.links.deleteOutgoingStatement(this.deletedIds));
      statements.push(this.repos.nodes.deleteStatement(this.deletedIds));
      statements.push(this.repos.fts.deleteStatement(this.deletedIds));
    }
    await runBatch(rt.d1, statements);
    const graph = rt.loadedGraph();
    if (graph) {
      for (const u of this.updates) graph.updateContent(u.id, u);
      graph.markScanned(this.scannedIds, this.cycles, this.cycle);
      graph.deleteNodes(this.deletedIds);
    }
    await syncVectors(rt, this.updates, this.deletedIds);
  }
}
