/**
 * exportAgent (docs/design.md, "Memory operations"): the agent's whole memory as JSON Lines
 * (src/operations/shared/export-format.ts). A read: it runs once every write accepted before it is
 * applied, and reads everything in that one turn of the queue (a consistent moment); the object
 * streams the lines from it.
 */
import { z } from "zod";
import { strengthAt } from "../../memory/strength";
import type { AgentNetwork, AgentStores } from "../../engine/runtime";
import { defineTask } from "../../engine/define-task";
import { ExportSnapshotSchema, EXPORT_FORMAT, EXPORT_VERSION, type ExportSnapshot } from "../shared/export-format";
import { nodeFields } from "../shared/node-fields";
import { expired } from "../../memory/memory-filter";

export const exportAgentTask = defineTask({
  lane: "read",
  payload: z.null(),
  result: ExportSnapshotSchema,
  async run(rt: AgentStores & AgentNetwork) {
    return { status: "done", result: await snapshot(rt) };
  },
});

async function snapshot(rt: AgentStores & AgentNetwork): Promise<ExportSnapshot> {
  const repos = rt.existingRepos();
  const clock = rt.meta.clock();
  const focus = rt.focus.list();
  const scanCycles = rt.meta.scanCycles();
  const identity = rt.meta.get("identity");
  const header = {
    type: "header" as const,
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: rt.now(),
    agent_id: identity?.agentId ?? "",
    config: rt.meta.params(),
    clock,
    cycle: rt.meta.get("cycle") ?? 0,
    scan_cycles: scanCycles,
    next_node_id: rt.meta.nextNodeId(),
    counters: rt.meta.counters(),
  };
  const out: ExportSnapshot = {
    header,
    focus: { type: "focus", entries: focus.map((f) => ({ node_id: f.nodeId, key: f.key, name: f.name })) },
    nodes: [],
    links: [],
    aliases: [],
    messages: rt.messages.all(),
  };
  if (!repos) return out;
  const reinforced = new Map(rt.feedback.all().map((r) => [r.id, r.cycle]));
  // An expired memory is gone (docs/design.md, "Expiry is a purge at a time set in advance"): not
  // exported, nor any link from or to it (an import would show it as a trace).
  const now = rt.now();
  const gone = new Set<number>();
  for (let after = 0; ;) {
    const page = await repos.nodes.page(after, 2_000);
    for (const n of page) if (expired(n, now)) gone.add(n.id);
    const scans = rt.scans.counts(
      page.map((n) => n.id),
      scanCycles,
    );
    for (const n of page) {
      if (gone.has(n.id)) continue;
      out.nodes.push({
        type: "node",
        ...nodeFields(n),
        scan_count: scans.get(n.id) ?? 0,
        reinforced_cycle: reinforced.get(n.id) ?? null,
      });
    }
    const last = page.at(-1);
    if (!last || page.length < 2_000) break;
    after = last.id;
  }
  const focusIds = focus.map((f) => f.nodeId);
  for (let from: number | null = 0; from !== null;) {
    const page = await repos.links.page(from, focusIds);
    for (const l of page.links) {
      if (gone.has(l.source) || gone.has(l.target)) continue;
      const level = l.pinned ? clock : Math.min(l.level, clock);
      out.links.push({
        type: "link",
        source: l.source,
        target: l.target,
        relation: l.relation,
        level,
        strength: l.pinned ? 1 : strengthAt(level, clock),
        pinned: l.pinned,
        created_at: l.createdAt,
      });
    }
    from = page.next;
  }
  out.aliases = (await repos.nodes.aliases())
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((a) => ({ type: "alias", key: a.key, name: a.name, node_id: a.nodeId }));
  return out;
}
