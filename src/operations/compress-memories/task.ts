/**
 * Compression cycles, the unit of time (docs/design.md, "Compression"). One cycle:
 *
 * 1. decay: the agent's decay clock advances one step and every link that fell below
 *    link_break_threshold is removed (src/memory/strength.ts);
 * 2. scan: nodes in ascending scan count, focus nodes and pinned memories skipped, each protected,
 *    kept, compressed or deleted by its importance (src/memory/compression-plan.ts).
 *
 * Cycles that come right after one another in the queue (POST /compress with cycles > 1) run as
 * one pass of k cycles: k clock steps and one break at the final clock, then one scan. With no
 * remember in between, the focus is fixed and every node's importance only falls, so the pass
 * protects, compresses, deletes and breaks exactly what k single cycles would; a compressed text is
 * extracted once from the fuller text instead of k times.
 *
 * Writes go through the write path in commits: the decay's clock and broken links travel with the
 * first commit (importance is computed at the pass's clock without the links it breaks, so every
 * node is judged after the decay, whether or not that commit has happened yet).
 * Changes are carried from page to page and committed when a page's worth of rows has gathered
 * (COMMIT_ROWS), at every yield, and at the end with the scan bookkeeping: a pass over an agent of
 * a few thousand nodes is then one D1 batch instead of one per page (a batch costs milliseconds
 * however small it is, measured). A page judges its nodes only by their own text and outgoing
 * links, which no earlier page's changes touch, so carrying them changes no decision. The
 * checkpoint committed with each carries the cursor and the running counts, so a pass resumed
 * after a yield, a pause or an eviction continues from its last commit and counts nothing twice.
 *
 * The scan is time-sliced: between any two nodes it yields when a read is waiting, and it pauses
 * after time_slice_ms (the alarm resumes it).
 */
import { z } from "zod";
import { MAX_NODE_ID } from "../../config/limits";
import { planScan } from "../../memory/compression-plan";
import { advanceClock, breakLevel } from "../../memory/strength";
import { forgottenNodes, type WriteOp } from "../../memory/write-ops";
import { codePointLength } from "../../text/code-points";
import type { MemoryNode, TextUpdate } from "../../vocabulary/records";
import { yieldToEventLoop } from "../../engine/event-loop";
import { networkReader } from "../../engine/network-reader";
import type { AgentModels, AgentStores, TaskProgress, WritePath } from "../../engine/runtime";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask, type RunningTask } from "../../engine/define-task";

/** What a compression pass uses of the agent's runtime. */
type Runtime = AgentStores & TaskProgress & WritePath & Pick<AgentModels, "model">;

/** Nodes read per scan page (one read of the scan order, one of the nodes and their links). */
export const SCAN_PAGE = 250;

/** Rows changed (texts, deleted nodes, broken links) that make the pending changes a commit of their own. */
const COMMIT_ROWS = SCAN_PAGE;

/** Nodes scanned between two real turns of the event loop, when no page had to be written. */
const SCANNED_PER_TURN = 2_000;

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

const CheckpointSchema = z.object({
  /** The pass's last cycle number. */
  cycle: z.number().int(),
  /** Cycles in this pass (k). */
  cycles: z.number().int().min(1),
  /** Parameters are read once, when the pass starts: a change takes effect on the next cycle. */
  params: z.object({ delete_threshold: z.number(), time_slice_ms: z.number() }),
  /** The decay clock after the pass's k steps, and the level below which links break at it. */
  clock: z.number(),
  breakLevel: z.number(),
  /** The focus is fixed for the pass (only a remember changes it, and none runs before the pass ends). */
  focus: z.array(z.number().int()),
  /**
   * The pinned memories, fixed for the pass too (no pin or unpin runs before it ends): outside
   * forgetting, skipped as the focus is (docs/design.md, "Pins"). Absent from a pass an earlier
   * version started.
   */
  pinned: z.array(z.number().int()).default([]),
  decayed: z.boolean(),
  cursor: z.object({ base: z.number(), id: z.number() }).nullable(),
  counts: CountsSchema,
  /** The counts already added to the agent's lifetime counters. */
  counted: z.object({ links_broken: z.number(), scanned: z.number(), compressed: z.number(), deleted: z.number() }),
  finished: z.boolean(),
});
type Checkpoint = z.infer<typeof CheckpointSchema>;

/** A pass's counts; a cycle merged into another's pass names the task that ran it. */
export const CompressMemoriesResultSchema = z.union([
  CountsSchema.extend({ cycle: z.number().int(), cycles: z.number().int() }),
  z.object({ merged_into: z.string() }),
]);

export const compressMemoriesTask = defineTask({
  lane: "cycle",
  payload: z.null(),
  result: CompressMemoriesResultSchema,
  async run(rt: Runtime, task) {
    const cp = readCheckpoint(task, CheckpointSchema) ?? start(rt, task, await pinnedNow(rt));
    if (!cp.finished) {
      const yielded = await scan(rt, task, cp);
      if (yielded) return { status: "yielded", reason: yielded };
    }
    return { status: "done", result: { cycle: cp.cycle, cycles: cp.cycles, ...cp.counts } };
  },
});

/** The memories pinned when a pass starts (every one: forgetting skips them all). */
async function pinnedNow(rt: Runtime): Promise<number[]> {
  const repos = rt.existingRepos();
  return repos ? (await (await networkReader(rt, repos)).find({ pinned: true }, MAX_NODE_ID)).map((n) => n.id) : [];
}

/**
 * A fresh pass: this cycle plus the cycles queued right behind it, which are marked done (merged
 * into this one). One object transaction with the first checkpoint; nothing touches D1 yet.
 */
function start(rt: Runtime, task: RunningTask<null>, pinned: number[]): Checkpoint {
  return rt.storage.transactionSync(() => {
    const params = rt.meta.params();
    const merged = rt.queue.absorbFollowingCycles({ ...task, kind: "compressMemories" }, MAX_CYCLES_PER_PASS - 1, rt.now());
    const cycles = 1 + merged;
    const cycle = (rt.meta.get("cycle") ?? 0) + cycles;
    let clock = rt.meta.clock();
    for (let i = 0; i < cycles; i++) clock = advanceClock(clock, params.decay_rate);
    rt.meta.set("cycle", cycle);
    const cp: Checkpoint = {
      cycle,
      cycles,
      params: { delete_threshold: params.delete_threshold, time_slice_ms: params.time_slice_ms },
      clock,
      breakLevel: breakLevel(clock, params.link_break_threshold),
      focus: rt.focus.ids(),
      pinned,
      decayed: false,
      cursor: null,
      counts: {
        links_broken: 0,
        scanned: 0,
        protected: 0,
        compressed: 0,
        deleted: 0,
        model_failures: 0,
        decay_ms: 0,
        scan_ms: 0,
        slices: 0,
      },
      counted: { links_broken: 0, scanned: 0, compressed: 0, deleted: 0 },
      finished: false,
    };
    rt.queue.saveCheckpoint(task.id, cp);
    return cp;
  });
}

/** Scans from the checkpoint's cursor to the end; returns why it stopped early, if it did. */
async function scan(rt: Runtime, task: RunningTask<null>, cp: Checkpoint): Promise<"read" | "time_slice" | undefined> {
  const reader = await networkReader(rt, await rt.repos());
  const sliceStart = Date.now();
  cp.counts.slices += 1;
  const pending: WriteOp[] = [];
  if (!cp.decayed) {
    const started = Date.now();
    // Step 1: the clock moves and the links below the break level go, with the first commit.
    const broken = await reader.breaking(cp.breakLevel);
    pending.push({ type: "setClock", clock: cp.clock });
    if (broken.length > 0) pending.push({ type: "deleteLinks", keys: broken });
    cp.counts.links_broken = broken.length;
    cp.counts.decay_ms = Date.now() - started;
    cp.decayed = true;
  }
  let sinceTurn = 0;
  for (;;) {
    const page = rt.scans.page(cp.cursor, [...cp.focus, ...cp.pinned], SCAN_PAGE);
    if (page.length === 0) break;
    const ids = page.map((p) => p.id);
    const [nodes, importance] = await Promise.all([reader.load(ids), reader.scanImportance(ids, cp.clock, cp.breakLevel)]);
    const started = Date.now();
    let stop: "read" | "time_slice" | undefined;
    for (const position of page) {
      const node = nodes.get(position.id);
      // A scan row whose node is gone: drop the row (a node deleted by an older version of the code).
      if (!node) pending.push({ type: "deleteNodes", ids: [position.id] });
      else await scanNode(rt, node, importance.get(node.id) ?? 0, cp, pending);
      cp.cursor = position;
      if (rt.queue.readWaiting()) stop = "read";
      else if (Date.now() - sliceStart >= cp.params.time_slice_ms) stop = "time_slice";
      if (stop) break;
    }
    cp.counts.scan_ms += Date.now() - started;
    if (stop || rowsChanged(pending) >= COMMIT_ROWS) {
      await commitPage(rt, task.id, cp, pending.splice(0));
      if (stop) return stop;
    }
    sinceTurn += page.length;
    if (sinceTurn >= SCANNED_PER_TURN) {
      // Let requests in (a read waits for the current page only): awaiting D1 is not enough locally.
      await yieldToEventLoop();
      sinceTurn = 0;
    }
  }
  cp.finished = true;
  pending.push({ type: "finishScan", cycles: cp.cycles, skipped: [...cp.focus, ...cp.pinned] });
  await commitPage(rt, task.id, cp, pending, { cycles: cp.cycles });
  return undefined;
}

/** Commits the pending operations with the counters moved since the last commit and the checkpoint. */
async function commitPage(rt: Runtime, taskId: string, cp: Checkpoint, ops: WriteOp[], extra: Record<string, number> = {}) {
  const c = cp.counts;
  const counters = {
    links_broken: c.links_broken - cp.counted.links_broken,
    nodes_scanned: c.scanned - cp.counted.scanned,
    nodes_compressed: c.compressed - cp.counted.compressed,
    nodes_deleted: c.deleted - cp.counted.deleted,
    ...extra,
  };
  cp.counted = { links_broken: c.links_broken, scanned: c.scanned, compressed: c.compressed, deleted: c.deleted };
  // One deletion for the page's nodes: three statements instead of three per node.
  const deleted = ops.flatMap((op) => (op.type === "deleteNodes" ? op.ids : []));
  const forgotten = ops.flatMap((op) => (op.type === "recordForgotten" ? op.nodes : []));
  const rest = ops.filter((op) => op.type !== "deleteNodes" && op.type !== "recordForgotten");
  const batch: WriteOp[] = deleted.length > 0 ? [...rest, { type: "deleteNodes", ids: deleted }] : rest;
  if (forgotten.length > 0) batch.push({ type: "recordForgotten", nodes: forgotten });
  await commit(rt, taskId, [...batch, { type: "count", counters }], { checkpoint: cp });
}

function rowsChanged(ops: readonly WriteOp[]): number {
  let rows = 0;
  for (const op of ops) {
    if (op.type === "deleteLinks") rows += op.keys.length;
    else if (op.type === "deleteNodes") rows += op.ids.length;
    else if (op.type === "updateText") rows += 1;
  }
  return rows;
}

async function scanNode(rt: Runtime, node: MemoryNode, importance: number, cp: Checkpoint, pending: WriteOp[]): Promise<void> {
  const counts = cp.counts;
  counts.scanned += 1;
  const plan = planScan({
    importance,
    originalLength: node.originalLength,
    currentLength: codePointLength(node.content),
    deleteThreshold: cp.params.delete_threshold,
  });
  switch (plan.action) {
    case "protect":
      counts.protected += 1;
      return;
    case "keep":
      return;
    case "delete":
      counts.deleted += 1;
      pending.push({ type: "deleteNodes", ids: [node.id] });
      pending.push({ type: "recordForgotten", nodes: forgottenNodes([node]) });
      return;
    case "compress": {
      const update = await compress(rt, node, plan.target);
      if (update) {
        counts.compressed += 1;
        pending.push({ type: "updateText", update });
      } else {
        counts.model_failures += 1;
      }
      return;
    }
  }
}

/** The compressed content with re-extracted phrase and keywords, or undefined when the model failed. */
async function compress(rt: Runtime, node: MemoryNode, target: number): Promise<TextUpdate | undefined> {
  try {
    const model = rt.model;
    // An episode is read, not searched: it keeps whole clauses of its summary (docs/design.md,
    // "Summaries"), never the dense word list a segment may be compressed to.
    const content =
      node.kind === "episode"
        ? await (model.summarizeCompressed ? model.summarizeCompressed([node.content], target) : model.summarize([node.content], target))
        : await model.compress(node.content, target);
    if (codePointLength(content) > target || content.trim().length === 0) throw new Error("compression missed its target");
    if (node.kind === "entity")
      return { id: node.id, kind: node.kind, speaker: null, messageTime: node.messageTime, content, phrase: content, keywords: [content] };
    // The shortened text's phrase and keywords come from whoever compresses (model_policy).
    const [extraction] = await (model.extractCompressed ? model.extractCompressed([content]) : model.extract([content]));
    return {
      id: node.id,
      kind: node.kind,
      speaker: node.speaker,
      messageTime: node.messageTime,
      content,
      phrase: extraction?.phrase ?? "",
      keywords: extraction?.keywords ?? [],
    };
  } catch {
    // Retries are spent (counted as a model failure): keep the content, move on.
    return undefined;
  }
}
