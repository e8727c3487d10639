/**
 * Keeps the vector index in step with committed writes (docs/design.md, "remember(messages)" step 6): created and compressed
 * nodes are embedded and upserted, deleted ones removed (the vector column of the write table,
 * write-table.ts). This runs after the D1 batch commits and before the commit's intent is
 * cleared, so an interrupted commit redoes it (upserts and removals are idempotent). If the
 * embedder or the index fails, the commit queues an `index` task whose retries (with backoff)
 * bring the index back in step.
 */
import type { NetworkOp } from "../memory/write-ops";
import type { Embedder } from "../models/types";
import type { VectorIndex } from "../vectors/types";
import type { IndexableNode } from "./write-kind";
import { writeKind } from "./write-table";

export interface VectorChanges {
  upsert: IndexableNode[];
  remove: number[];
}

/** What `ops` change in the vector index (a node deleted later in the list is only removed). */
export function vectorChanges(ops: readonly NetworkOp[]): VectorChanges {
  const upsert = new Map<number, IndexableNode>();
  const remove = new Set<number>();
  const changes = {
    upsert: (node: IndexableNode) => void upsert.set(node.id, node),
    remove: (id: number) => {
      upsert.delete(id);
      remove.add(id);
    },
  };
  for (const op of ops) writeKind(op.type).vectors?.(changes, op);
  return { upsert: [...upsert.values()], remove: [...remove] };
}

/** What is embedded for a node: who said it and what was said (an entity: its name). */
export function embeddingText(node: Pick<IndexableNode, "kind" | "content" | "speaker">): string {
  return node.kind === "segment" && node.speaker ? `${node.speaker}: ${node.content}` : node.content;
}

/** What writing vectors needs: the agent's index (none before its first write) and the embedder. */
export interface VectorWriter {
  vectors(): VectorIndex | undefined;
  readonly embedder: Embedder;
}

export async function writeVectors(rt: VectorWriter, changes: VectorChanges): Promise<void> {
  const index = rt.vectors();
  if (!index) return;
  if (changes.remove.length > 0) await index.remove(changes.remove);
  if (changes.upsert.length === 0) return;
  const vectors = await rt.embedder.embed(changes.upsert.map(embeddingText));
  await index.upsert(
    changes.upsert.flatMap((n, i) => {
      const vector = vectors[i];
      return vector ? [{ nodeId: n.id, kind: n.kind, session: n.sessionId ?? null, speaker: n.speaker, vector }] : [];
    }),
  );
}
