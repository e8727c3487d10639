/**
 * Keeps the search indexes in step with node writes (DESIGN §4 step 6). Full-text rows are
 * written in the same atomic D1 batch as the nodes they index (see the callers). Embeddings are
 * written after the D1 rows commit; if the embedder or the vector index fails, an `index` task is
 * queued so the queue's retries (with backoff) bring the vector index back in step.
 */
import { z } from "zod";
import type { MemoryNode, NodeKind } from "../memory/node";
import { ftsDocument } from "../search/fts-text";
import type { FtsEntry } from "../storage/fts-repo";
import { parseJsonOrUndefined } from "../storage/row-parsing";
import type { AgentRepos, AgentRuntime } from "./runtime";
import { randomId } from "./runtime";
import { PermanentTaskError } from "./task-errors";
import type { TaskRecord } from "./task-queue";

export interface IndexableNode {
  id: number;
  kind: NodeKind;
  content: string;
  phrase: string;
  keywords: readonly string[];
  speaker: string | null;
}

export function ftsEntries(nodes: readonly IndexableNode[]): FtsEntry[] {
  return nodes.map((n) => ({ nodeId: n.id, terms: ftsDocument(n) }));
}

/** What is embedded for a node: who said it and what was said (an entity: its name). */
export function embeddingText(node: Pick<IndexableNode, "kind" | "content" | "speaker">): string {
  return node.kind === "segment" && node.speaker ? `${node.speaker}: ${node.content}` : node.content;
}

/** Embeds and stores vectors for `nodes` and removes `removed`; on failure queues an index task. */
export async function syncVectors(rt: AgentRuntime, nodes: readonly IndexableNode[], removed: readonly number[]): Promise<void> {
  if (nodes.length === 0 && removed.length === 0) return;
  try {
    await writeVectors(rt, nodes, removed);
  } catch (err) {
    console.warn("vector index write failed; queued for retry", err);
    rt.meta.bump({ index_retries: 1 });
    rt.queue.enqueue({
      id: randomId("tsk_"),
      kind: "index",
      payload: { upsert: nodes.map((n) => n.id), remove: [...removed] },
      background: true,
      now: rt.now(),
    });
  }
}

async function writeVectors(rt: AgentRuntime, nodes: readonly IndexableNode[], removed: readonly number[]): Promise<void> {
  const index = rt.vectors();
  if (!index) return;
  if (removed.length > 0) await index.remove(removed);
  if (nodes.length === 0) return;
  const vectors = await rt.embedder.embed(nodes.map(embeddingText));
  await index.upsert(
    nodes.flatMap((n, i) => {
      const vector = vectors[i];
      return vector ? [{ nodeId: n.id, kind: n.kind, vector }] : [];
    }),
  );
}

const IndexPayload = z.object({ upsert: z.array(z.number().int()), remove: z.array(z.number().int()) });

/** The retry path: re-reads the nodes from D1 (some may be gone by now) and writes their vectors. */
export async function runIndexTask(rt: AgentRuntime, repos: AgentRepos, task: TaskRecord): Promise<{ indexed: number; removed: number }> {
  const payload = IndexPayload.safeParse(parseJsonOrUndefined(task.payload));
  if (!payload.success) throw new PermanentTaskError(`corrupt index payload: ${payload.error.message}`);
  const existing = await repos.nodes.load(payload.data.upsert);
  const gone = payload.data.upsert.filter((id) => !existing.has(id));
  const nodes: MemoryNode[] = [...existing.values()];
  await writeVectors(rt, nodes, [...payload.data.remove, ...gone]);
  return { indexed: nodes.length, removed: payload.data.remove.length + gone.length };
}
