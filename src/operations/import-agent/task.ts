/**
 * importAgent (docs/design.md, "Memory operations"): an export (JSON Lines,
 * src/operations/shared/export-format.ts) into an empty agent, reproducing the same recall, search
 * and stats.
 *
 * A write. Its lines were validated at the edge and staged in the object
 *   (src/engine/stores/import-staging.ts) under the body's SHA-256; the task checks that the agent is empty
 *   (no nodes, links, aliases or message ids held), then commits the lines in pages of at most
 *   IMPORT_PAGE_CHARACTERS, each page with its checkpoint, so an interrupted import resumes where
 *   it stopped. Node ids, contents, provenance, levels (against the exported clock), the focus,
 *   aliases, message ids, scan counts, reinforcement marks, parameters and counters are restored
 *   as they were; links are written with the import's epoch, at the level they had.
 */
import { z } from "zod";
import { MAX_NODE_ID } from "../../config/limits";
import { AgentParamsSchema } from "../../config/params";
import type { WriteOp } from "../../memory/write-ops";
import type { EntityAlias, MemoryNode, NewLink } from "../../vocabulary/records";
import { ExportLineSchema } from "../shared/export-format";
import { nodeOfFields } from "../shared/node-fields";
import type { AgentNetwork, AgentStores, WritePath } from "../../engine/runtime";
import { PermanentTaskError } from "../../engine/task-errors";
import { commit } from "../../engine/write-path";
import { readCheckpoint } from "../../engine/checkpoint";
import { defineTask } from "../../engine/define-task";

/** Characters of staged lines per commit (as a remember's 200,000: the intent is one object row). */
export const IMPORT_PAGE_CHARACTERS = 200_000;
const IMPORT_PAGE_LINES = 2_000;

export const ImportAgentPayloadSchema = z
  .object({
    import_id: z.string().regex(/^[0-9a-f]{64}$/),
    /** Lines staged: the task refuses a staging that lost some (an agent deletion during the upload). */
    lines: z.number().int().min(1).optional(),
    /** The file's next_node_id: the ids it takes, reserved when it is queued (src/agent/node-id-room.ts). */
    next_node_id: z
      .number()
      .int()
      .min(1)
      .max(MAX_NODE_ID + 1)
      .optional(),
  })
  .strict();

export const ImportAgentResultSchema = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("imported"),
    nodes: z.number().int(),
    links: z.number().int(),
    aliases: z.number().int(),
    messages: z.number().int(),
  }),
  z.object({ outcome: z.literal("not_empty") }),
  /** Its staged lines are no longer all there (the agent was deleted during the upload): nothing was written. */
  z.object({ outcome: z.literal("not_staged") }),
]);
export type ImportAgentResult = z.infer<typeof ImportAgentResultSchema>;

const CountsSchema = z.object({ nodes: z.number().int(), links: z.number().int(), aliases: z.number().int(), messages: z.number().int() });
const ImportCheckpointSchema = z.object({ after: z.number().int(), clock: z.number(), counts: CountsSchema });

export const importAgentTask = defineTask({
  lane: "write",
  payload: ImportAgentPayloadSchema,
  result: ImportAgentResultSchema,
  setsNextNodeId: (payload) => payload.next_node_id,
  async run(rt: AgentStores & WritePath, task) {
    const id = task.payload.import_id;
    let cp = readCheckpoint(task, ImportCheckpointSchema);
    if (!cp) {
      const lines = task.payload.lines;
      if (lines !== undefined && rt.imports.count(id) !== lines) {
        rt.imports.drop(id);
        const refused: ImportAgentResult = { outcome: "not_staged" };
        return { status: "done", result: refused };
      }
      if (!(await isEmpty(rt))) {
        rt.imports.drop(id);
        const refused: ImportAgentResult = { outcome: "not_empty" };
        return { status: "done", result: refused };
      }
      const first = rt.imports.page(id, -1, 1)[0];
      const header = first ? ExportLineSchema.safeParse(JSON.parse(first.line)) : undefined;
      if (!first || !header?.success || header.data.type !== "header") throw new PermanentTaskError(`import ${id} is not staged`);
      const h = header.data;
      cp = { after: first.seq, clock: h.clock, counts: { nodes: 0, links: 0, aliases: 0, messages: 0 } };
      await commit(
        rt,
        task.id,
        [
          { type: "setClock", clock: h.clock },
          { type: "count", counters: h.counters },
        ],
        {
          // The object's own bookkeeping, before any row: parameters, node counter, cycle counts.
          prepare: () => {
            rt.meta.set("params", AgentParamsSchema.parse(h.config));
            rt.meta.setNextNodeId(h.next_node_id);
            rt.meta.set("cycle", h.cycle);
            rt.meta.set("scanCycles", h.scan_cycles);
          },
          checkpoint: cp,
        },
      );
    }
    for (;;) {
      const page = stagedPage(rt, id, cp.after);
      if (page.length === 0) break;
      const { ops, counts } = pageOps(
        page.map((p) => p.line),
        cp.clock,
        task.seq,
      );
      const lastSeq: number = page.at(-1)?.seq ?? cp.after;
      cp = {
        after: lastSeq,
        clock: cp.clock,
        counts: {
          nodes: cp.counts.nodes + counts.nodes,
          links: cp.counts.links + counts.links,
          aliases: cp.counts.aliases + counts.aliases,
          messages: cp.counts.messages + counts.messages,
        },
      };
      await commit(rt, task.id, ops, { checkpoint: cp });
    }
    rt.imports.drop(id);
    const result: ImportAgentResult = { outcome: "imported", ...cp.counts };
    return { status: "done", result };
  },
});

/** Nothing of a memory: no node, link, alias or message id held (parameters may have been set). */
async function isEmpty(rt: AgentStores & AgentNetwork): Promise<boolean> {
  if (rt.messages.count() > 0 || rt.focus.ids().length > 0) return false;
  const repos = rt.existingRepos();
  if (!repos) return true;
  const [nodes, links, aliases] = await Promise.all([repos.nodes.count(), repos.links.count(), repos.nodes.aliases()]);
  return nodes === 0 && links === 0 && aliases.length === 0;
}

/** Staged lines after `after`, up to the page's budget (at least one line). */
function stagedPage(rt: Pick<AgentStores, "imports">, id: string, after: number): { seq: number; line: string }[] {
  const candidates = rt.imports.page(id, after, IMPORT_PAGE_LINES);
  const out: { seq: number; line: string }[] = [];
  let characters = 0;
  for (const c of candidates) {
    if (out.length > 0 && characters + c.line.length > IMPORT_PAGE_CHARACTERS) break;
    out.push(c);
    characters += c.line.length;
  }
  return out;
}

function pageOps(lines: readonly string[], clock: number, epoch: number): { ops: WriteOp[]; counts: z.infer<typeof CountsSchema> } {
  const nodes: MemoryNode[] = [];
  const scans: { id: number; count: number }[] = [];
  const reinforced = new Map<number, number[]>();
  const links: NewLink[] = [];
  const aliases: EntityAlias[] = [];
  const messages: string[] = [];
  const focusOps: WriteOp[] = [];
  for (const raw of lines) {
    const parsed = ExportLineSchema.safeParse(JSON.parse(raw));
    // Validated before staging: a line that no longer parses means the staging was damaged.
    if (!parsed.success) throw new PermanentTaskError(`a staged import line does not parse: ${parsed.error.message}`);
    const line = parsed.data;
    switch (line.type) {
      case "node":
        nodes.push(nodeOfFields(line));
        scans.push({ id: line.id, count: line.scan_count });
        if (line.reinforced_cycle !== null)
          reinforced.set(line.reinforced_cycle, [...(reinforced.get(line.reinforced_cycle) ?? []), line.id]);
        break;
      case "link":
        links.push({
          source: line.source,
          target: line.target,
          relation: line.relation,
          level: line.pinned ? clock : line.level,
          epoch,
          createdAt: line.created_at,
        });
        break;
      case "alias":
        aliases.push({ key: line.key, name: line.name, nodeId: line.node_id });
        break;
      case "messages":
        messages.push(...line.ids);
        break;
      case "focus":
        focusOps.push({
          type: "setFocus",
          focus: line.entries.map((e) => ({ nodeId: e.node_id, key: e.key, name: e.name })),
          released: [],
          clock,
          epoch,
        });
        break;
      case "header":
      case "end":
        break;
    }
  }
  const ops: WriteOp[] = [...focusOps];
  if (nodes.length > 0) ops.push({ type: "createNodes", nodes }, { type: "setScanCounts", counts: scans });
  for (const [cycle, ids] of reinforced) ops.push({ type: "markReinforced", ids, cycle });
  if (links.length > 0) ops.push({ type: "setLinks", links });
  if (aliases.length > 0) ops.push({ type: "addAliases", aliases });
  if (messages.length > 0) ops.push({ type: "recordMessages", ids: messages });
  return { ops, counts: { nodes: nodes.length, links: links.length, aliases: aliases.length, messages: messages.length } };
}
