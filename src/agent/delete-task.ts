/**
 * Deleting an agent (DESIGN §7): every row in D1 (nodes, links, full-text rows, the registry
 * entry), every vector, and the object's own state (meta, focus, local vectors, queued work that
 * arrived before the deletion). It runs as a queued task, so whatever was accepted before it is
 * applied first and a deletion interrupted by eviction is resumed; every step is idempotent.
 * Tasks that arrive after the deletion start a fresh agent.
 */
import { AgentRegistry } from "../storage/agent-registry";
import { runBatch } from "../storage/batch";
import type { AgentRuntime } from "./runtime";
import type { TaskRecord } from "./task-queue";

export async function runDeleteAgent(rt: AgentRuntime, task: TaskRecord): Promise<{ nodes: number }> {
  const repos = rt.existingRepos();
  let nodes = 0;
  if (repos) {
    const ids = await repos.nodes.allIds();
    nodes = ids.length;
    await rt.vectors()?.remove(ids);
    await runBatch(rt.d1, [repos.links.deleteAllStatement(), repos.nodes.deleteAllStatement(), repos.fts.deleteAllStatement()]);
    await new AgentRegistry(rt.db).remove(repos.uid);
  }
  rt.storage.transactionSync(() => {
    for (const table of ["meta", "focus", "vectors", "recent_vectors"]) rt.storage.sql.exec(`DELETE FROM ${table}`);
    rt.queue.removeUpTo(task.seq);
  });
  return { nodes };
}
