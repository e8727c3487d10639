/**
 * getMemory (docs/design.md, "Memory operations"): one memory with its links, provenance, facts,
 * conflicts, aliases and history. A read-lane task, so a read sees every write accepted before it
 * (a memory posted a moment ago, an update, a deletion).
 */
import { z } from "zod";
import { conflictMarks } from "../shared/conflict-marks";
import { historyPage } from "../shared/memory-history";
import { HISTORY_IN_VIEW, MemoryViewSchema, type MemoryView } from "../shared/memory-view";
import { networkReader } from "../../engine/network-reader";
import type { AgentNetwork, AgentRepos, AgentStores } from "../../engine/runtime";
import { buildNodeView, FIRST_LINKS_PAGE, LinksPageSchema, type LinksPage } from "../shared/node-view";
import { defineTask } from "../../engine/define-task";

export const GetMemoryPayloadSchema = z.object({ node_id: z.number().int().min(1), links: LinksPageSchema.optional() }).strict();

export const GetMemoryResultSchema = z.object({ memory: MemoryViewSchema.nullable() });

export const getMemoryTask = defineTask({
  lane: "read",
  payload: GetMemoryPayloadSchema,
  result: GetMemoryResultSchema,
  async run(rt: AgentStores & AgentNetwork, task) {
    const repos = rt.existingRepos();
    const { node_id: nodeId, links } = task.payload;
    return { status: "done", result: { memory: repos ? await readMemory(rt, repos, nodeId, links ?? FIRST_LINKS_PAGE) : null } };
  },
});

async function readMemory(rt: AgentStores & AgentNetwork, repos: AgentRepos, nodeId: number, links: LinksPage): Promise<MemoryView | null> {
  const reader = await networkReader(rt, repos);
  const view = await buildNodeView(
    reader,
    nodeId,
    {
      clock: rt.meta.clock(),
      focus: new Set(rt.focus.ids()),
      scanCount: rt.scans.counts([nodeId], rt.meta.scanCycles()).get(nodeId) ?? 0,
      now: rt.now(),
    },
    links,
  );
  if (!view) return null;
  const [conflicts, aliases, history] = await Promise.all([
    conflictMarks(reader, [nodeId]),
    view.kind === "entity" ? repos.nodes.aliasesOf(nodeId) : Promise.resolve([]),
    historyPage(repos, nodeId, 0, HISTORY_IN_VIEW, rt.now()),
  ]);
  return {
    ...view,
    conflicts_with: conflicts.get(nodeId) ?? [],
    aliases: aliases.map((a) => ({ key: a.key, name: a.name })),
    history: history.history,
    history_next_cursor: history.next_cursor,
  };
}
