/**
 * Node ids never pass MAX_NODE_ID (src/config/limits.ts; docs/design.md, "Node ids"): a write
 * that takes ids is accepted only while the agent's next id, raised by any import queued, leaves
 * NODE_IDS_PER_WRITE ids for it and for every such write already queued. The ids an agent took are
 * never reused, so an agent refused here stays refused (409); only a crafted import gets near the
 * limit (2^30 − 1 ids).
 */
import { MAX_NODE_ID, NODE_IDS_PER_WRITE } from "../config/limits";
import type { MetaStore } from "../engine/stores/meta-store";
import type { TaskQueue } from "../engine/task-queue";

/** Why a write of this kind cannot be accepted now, or undefined when there is room. */
export function nodeIdShortage(
  state: { meta: MetaStore; queue: TaskQueue },
  allocatingKinds: readonly string[],
  write: { allocates: boolean; setsNextNodeId?: number | undefined },
): string | undefined {
  if (!write.allocates && write.setsNextNodeId === undefined) return undefined;
  const pending = state.queue.pendingAllocations(allocatingKinds);
  const next = Math.max(state.meta.nextNodeId(), pending.importNext ?? 1, write.setsNextNodeId ?? 1);
  const writes = pending.writes + (write.allocates ? 1 : 0);
  if (next - 1 + writes * NODE_IDS_PER_WRITE <= MAX_NODE_ID) return undefined;
  return `the agent's node ids could run past ${MAX_NODE_ID} (2^30 − 1), the last id an agent has: ids up to ${next - 1} are taken and each queued write may take up to ${NODE_IDS_PER_WRITE}`;
}
