/**
 * The agent's whole network at one moment, read from its export (GET export: versioned JSON Lines,
 * format agent-memory-export version 1; README, "Memory operations"), and the node views the page
 * would have read one by one, built from it (pure, unit-tested; web/test/browser/first-session.test.ts
 * compares them with GET nodes/:id). After compression cycles the page re-reads what it shows from
 * one snapshot instead of one request per node: a node missing from it was forgotten, and is known
 * to be gone without asking for it (which would answer 404).
 *
 * A view is built as the API builds it (src/operations/shared/node-view.ts): every link of the node with the
 * strength for reading, dangling when its far end is not in the network, importance the sum of the
 * outgoing strengths (smallest first), in_focus from the focus line.
 */
import * as z from "zod/mini";
import { NodeViewSchema, type LinkView, type NodeView } from "./schemas";

export const EXPORT_FORMAT = "agent-memory-export";
export const EXPORT_VERSION = 1;

const HeaderLineSchema = z.object({ type: z.literal("header"), format: z.string(), version: z.number() });
const FocusLineSchema = z.object({ type: z.literal("focus"), entries: z.array(z.object({ node_id: z.number() })) });
/**
 * A node line: the node's fields as GET nodes/:id shows them (NodeViewSchema), under `id`, with its
 * scan count; a field the page reads from a node view is read from the export too.
 */
const NodeLineSchema = z.extend(z.omit(NodeViewSchema, { node_id: true, in_focus: true, importance: true, links: true }), {
  type: z.literal("node"),
  id: z.number(),
});
const LinkLineSchema = z.object({
  type: z.literal("link"),
  source: z.number(),
  target: z.number(),
  relation: z.string(),
  strength: z.number(),
  pinned: z.boolean(),
  created_at: z.number(),
});
const EndLineSchema = z.object({ type: z.literal("end"), nodes: z.number(), links: z.number() });

type NodeLine = z.infer<typeof NodeLineSchema>;
type LinkLine = z.infer<typeof LinkLineSchema>;

/** An export the page cannot read: another format or version, a malformed line, a truncated file. */
export class SnapshotError extends Error {
  override name = "SnapshotError";
}

export class NetworkSnapshot {
  private readonly nodes = new Map<number, NodeLine>();
  private readonly outgoing = new Map<number, LinkLine[]>();
  private readonly incoming = new Map<number, LinkLine[]>();
  private readonly focus = new Set<number>();

  /** Parses an export (JSON Lines); refuses one that is not this format and version, or is cut short. */
  static parse(text: string): NetworkSnapshot {
    const snapshot = new NetworkSnapshot();
    let header = false;
    let end: z.infer<typeof EndLineSchema> | null = null;
    let links = 0;
    for (const [i, raw] of text.split("\n").entries()) {
      if (raw.trim() === "") continue;
      const line = parseLine(raw, i + 1);
      if (!header) {
        const parsed = HeaderLineSchema.safeParse(line);
        if (!parsed.success || parsed.data.format !== EXPORT_FORMAT || parsed.data.version !== EXPORT_VERSION) {
          throw new SnapshotError(`the export is not ${EXPORT_FORMAT} version ${EXPORT_VERSION}`);
        }
        header = true;
        continue;
      }
      const type = typeof line === "object" && line !== null && "type" in line ? line.type : undefined;
      if (type === "node") snapshot.addNode(expect(NodeLineSchema, line, i + 1));
      else if (type === "link") {
        snapshot.addLink(expect(LinkLineSchema, line, i + 1));
        links += 1;
      } else if (type === "focus") for (const e of expect(FocusLineSchema, line, i + 1).entries) snapshot.focus.add(e.node_id);
      else if (type === "end") end = expect(EndLineSchema, line, i + 1);
      // aliases and message ids: not shown by the page
    }
    if (!end || end.nodes !== snapshot.nodes.size || end.links !== links) throw new SnapshotError("the export is incomplete");
    return snapshot;
  }

  get size(): number {
    return this.nodes.size;
  }

  has(id: number): boolean {
    return this.nodes.has(id);
  }

  /** The node as GET nodes/:id would show it now, or null when it no longer exists. */
  view(id: number): NodeView | null {
    const node = this.nodes.get(id);
    if (!node) return null;
    const link = (l: LinkLine): LinkView => ({
      source: l.source,
      target: l.target,
      relation: l.relation,
      strength: l.strength,
      pinned: l.pinned,
      dangling: !this.nodes.has(l.source === id ? l.target : l.source),
      created_at: l.created_at,
    });
    const outgoing = (this.outgoing.get(id) ?? []).map(link);
    const incoming = (this.incoming.get(id) ?? []).map(link);
    const { type: _line, id: _id, ...fields } = node;
    return {
      node_id: node.id,
      ...fields,
      in_focus: this.focus.has(id),
      importance: sumSmallestFirst(outgoing.map((l) => l.strength)),
      // The whole list: an export holds every link, so there is no further page.
      links: { outgoing, incoming, total: { outgoing: outgoing.length, incoming: incoming.length }, next_cursor: null },
    };
  }

  private addNode(node: NodeLine): void {
    this.nodes.set(node.id, node);
  }

  private addLink(l: LinkLine): void {
    push(this.outgoing, l.source, l);
    push(this.incoming, l.target, l);
  }
}

/** The sum as the API forms it (smallest first), so the page shows the same importance to the last digit. */
function sumSmallestFirst(values: readonly number[]): number {
  let sum = 0;
  for (const v of [...values].sort((a, b) => a - b)) sum += v;
  return sum;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function parseLine(raw: string, line: number): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new SnapshotError(`line ${line} of the export is not JSON`);
  }
}

function expect<S extends z.ZodMiniType>(schema: S, value: unknown, line: number): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SnapshotError(`line ${line} of the export has an unexpected shape`);
  return parsed.data;
}
