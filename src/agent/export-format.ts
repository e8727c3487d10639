/**
 * The export format (docs/design.md §11, export and import): an agent's whole memory as versioned
 * JSON Lines. One JSON object per line, in this order:
 *
 *   header     format, version, the agent's parameters, decay clock, cycle counts, node counter, counters
 *   focus      the focus LRU, most recent first
 *   node …     every node: kind, content, lengths, phrase, keywords, provenance, meta, superseded_by
 *              (the history chain), scan count, the cycle it was last reinforced in
 *   link …     every link, dangling ones included: its level against the header's clock (the exact
 *              strength: strength = min(1, exp(level − clock))), the strength for reading, pinned
 *   alias …    every entity alias
 *   messages … the client message ids the agent holds, in chunks
 *   end        the counts of each, so a truncated file is refused
 *
 * An import validates every line with these schemas (strict: unknown fields refused) and the file
 * as a whole (ImportValidator) before anything is written.
 */
import { z } from "zod";
import { AgentParamsSchema } from "../config/params";
import { MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS } from "../config/limits";
import { NODE_KINDS } from "../vocabulary/node-kinds";
import { MESSAGE_ROLES } from "../vocabulary/roles";

export const EXPORT_FORMAT = "agent-memory-export" as const;
export const EXPORT_VERSION = 1 as const;
/** Node ids are below 2^30 per agent (the full-text rowid space, docs/design.md §10). */
const MAX_NODE_ID = 2 ** 30 - 1;
/** Message ids per `messages` line. */
export const MESSAGES_PER_LINE = 1000;

const NodeId = z.number().int().min(1).max(MAX_NODE_ID);
const Time = z.number().int().min(MIN_TIMESTAMP_MS).max(MAX_TIMESTAMP_MS);
const Count = z.number().int().min(0);

export const HeaderLineSchema = z
  .object({
    type: z.literal("header"),
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exported_at: Time,
    agent_id: z.string(),
    config: AgentParamsSchema,
    clock: z.number().finite().min(0),
    cycle: Count,
    scan_cycles: Count,
    next_node_id: NodeId,
    counters: z.record(z.string(), z.number().finite()),
  })
  .strict();

export const FocusLineSchema = z
  .object({
    type: z.literal("focus"),
    entries: z.array(z.object({ node_id: NodeId, key: z.string().min(1), name: z.string().min(1) }).strict()).max(50),
  })
  .strict();

export const NodeLineSchema = z
  .object({
    type: z.literal("node"),
    id: NodeId,
    kind: z.enum(NODE_KINDS),
    name: z.string().min(1).nullable(),
    content: z.string(),
    original_length: Count,
    phrase: z.string(),
    keywords: z.array(z.string()),
    role: z.enum(MESSAGE_ROLES).nullable(),
    speaker: z.string().nullable(),
    source_message_ids: z.array(z.string()),
    source_task_id: z.string().nullable(),
    message_time: Time.nullable(),
    created_at: Time,
    superseded_by: NodeId.nullable(),
    meta: z.record(z.string(), z.unknown()).nullable(),
    scan_count: Count,
    reinforced_cycle: Count.nullable(),
  })
  .strict()
  .refine((n) => (n.kind === "entity") === (n.name !== null), "an entity has a name (its key), other nodes none");

export const LinkLineSchema = z
  .object({
    type: z.literal("link"),
    source: NodeId,
    target: NodeId,
    relation: z.string().min(1).max(50),
    /** The link's level against the header's clock (strength = min(1, exp(level − clock))). */
    level: z.number().finite(),
    strength: z.number().gt(0).max(1),
    /** An end is in the focus: strength 1 while it stays there. */
    pinned: z.boolean(),
    created_at: Time,
  })
  .strict();

export const AliasLineSchema = z
  .object({ type: z.literal("alias"), key: z.string().min(1), name: z.string().min(1), node_id: NodeId })
  .strict();

export const MessagesLineSchema = z
  .object({ type: z.literal("messages"), ids: z.array(z.string().min(1)).min(1).max(MESSAGES_PER_LINE) })
  .strict();

export const EndLineSchema = z.object({ type: z.literal("end"), nodes: Count, links: Count, aliases: Count, messages: Count }).strict();

export const ExportLineSchema = z.union([
  HeaderLineSchema,
  FocusLineSchema,
  NodeLineSchema,
  LinkLineSchema,
  AliasLineSchema,
  MessagesLineSchema,
  EndLineSchema,
]);
export type ExportLine = z.infer<typeof ExportLineSchema>;
export type HeaderLine = z.infer<typeof HeaderLineSchema>;
export type NodeLine = z.infer<typeof NodeLineSchema>;
export type LinkLine = z.infer<typeof LinkLineSchema>;

/** Everything of one agent, as the export task reads it in one go (one consistent moment). */
export const ExportSnapshotSchema = z.object({
  header: HeaderLineSchema,
  focus: FocusLineSchema,
  nodes: z.array(NodeLineSchema),
  links: z.array(LinkLineSchema),
  aliases: z.array(AliasLineSchema),
  messages: z.array(z.string()),
});
export type ExportSnapshot = z.infer<typeof ExportSnapshotSchema>;

/** The snapshot as its lines, in file order (each without its newline). */
export function* exportLines(snapshot: ExportSnapshot): Generator<string> {
  yield JSON.stringify(snapshot.header);
  yield JSON.stringify(snapshot.focus);
  for (const node of snapshot.nodes) yield JSON.stringify(node);
  for (const link of snapshot.links) yield JSON.stringify(link);
  for (const alias of snapshot.aliases) yield JSON.stringify(alias);
  for (let i = 0; i < snapshot.messages.length; i += MESSAGES_PER_LINE) {
    yield JSON.stringify({ type: "messages", ids: snapshot.messages.slice(i, i + MESSAGES_PER_LINE) });
  }
  const { nodes, links, aliases, messages } = snapshot;
  yield JSON.stringify({ type: "end", nodes: nodes.length, links: links.length, aliases: aliases.length, messages: messages.length });
}

export interface LineProblem {
  line: number;
  message: string;
}

/**
 * Checks an import file line by line, then as a whole: a header first (this format and version),
 * at most one focus line, node ids unique, every link's level at most the header's clock, the focus
 * naming entity nodes of the file, an end line last whose counts match. `accept` answers the line
 * as it will be stored (re-serialised after parsing) or the problem.
 */
export class ImportValidator {
  private header: HeaderLine | undefined;
  private ended = false;
  private focusSeen = false;
  private focusIds: number[] = [];
  private readonly kinds = new Map<number, string>();
  private readonly counts = { nodes: 0, links: 0, aliases: 0, messages: 0 };
  private lines = 0;

  accept(raw: string): { ok: true; line: string } | { ok: false; problem: LineProblem } {
    this.lines += 1;
    const line = this.lines;
    const fail = (message: string) => ({ ok: false as const, problem: { line, message } });
    if (this.ended) return fail("nothing may follow the end line");
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return fail("not a JSON object");
    }
    const parsed = ExportLineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(`${issue?.path.join(".") || "line"}: ${issue?.message ?? "invalid"}`);
    }
    const data = parsed.data;
    if (line === 1 && data.type !== "header")
      return fail(`the first line must be the header (format ${EXPORT_FORMAT}, version ${EXPORT_VERSION})`);
    if (line > 1 && data.type === "header") return fail("a second header");
    switch (data.type) {
      case "header":
        this.header = data;
        break;
      case "focus":
        if (this.focusSeen) return fail("a second focus line");
        this.focusSeen = true;
        this.focusIds = data.entries.map((e) => e.node_id);
        break;
      case "node":
        if (this.kinds.has(data.id)) return fail(`node ${data.id} appears twice`);
        if (this.header && data.id >= this.header.next_node_id) return fail(`node ${data.id} is not below the header's next_node_id`);
        this.kinds.set(data.id, data.kind);
        this.counts.nodes += 1;
        break;
      case "link":
        if (this.header && data.level > this.header.clock + 1e-9) return fail("a link level above the header's clock (a strength above 1)");
        this.counts.links += 1;
        break;
      case "alias":
        this.counts.aliases += 1;
        break;
      case "messages":
        this.counts.messages += data.ids.length;
        break;
      case "end":
        this.ended = true;
        for (const key of ["nodes", "links", "aliases", "messages"] as const) {
          if (data[key] !== this.counts[key]) return fail(`the end line counts ${data[key]} ${key}, the file has ${this.counts[key]}`);
        }
        break;
    }
    return { ok: true, line: JSON.stringify(data) };
  }

  /** The whole-file checks, after the last line. */
  finish(): LineProblem | undefined {
    const line = this.lines + 1;
    if (!this.header) return { line, message: "the file is empty" };
    if (!this.ended) return { line, message: "the end line is missing (a truncated file?)" };
    const notEntity = this.focusIds.find((id) => this.kinds.get(id) !== "entity");
    if (notEntity !== undefined) return { line, message: `the focus names node ${notEntity}, not an entity of the file` };
    return undefined;
  }

  get lineCount(): number {
    return this.lines;
  }
}
