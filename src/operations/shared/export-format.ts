/**
 * The export format (docs/design.md, "Memory operations", export and import): an agent's whole memory as versioned
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
import { AgentParamsSchema } from "../../config/params";
import { MAX_MESSAGE_CODE_POINTS, MAX_NODE_ID, MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS } from "../../config/limits";
import { codePointLength } from "../../text/code-points";
import { memoryTextProblem } from "../../text/memory-text";
import { malformedPath } from "../../text/well-formed";
import { STORED_NODE_FIELDS } from "./node-fields";

export const EXPORT_FORMAT = "agent-memory-export" as const;
export const EXPORT_VERSION = 1 as const;
/** Message ids per `messages` line as export writes them (a line stays far below MAX_IMPORT_LINE_BYTES). */
export const MESSAGES_PER_LINE = 250;
/** Message ids a `messages` line may hold on import (files of earlier versions held 1,000). */
const MAX_MESSAGES_PER_LINE = 1000;

const NodeId = z.number().int().min(1).max(MAX_NODE_ID, `node ids are at most ${MAX_NODE_ID} (2^30 − 1)`);
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
    /** The id the agent allocates next: MAX_NODE_ID + 1 when every id is taken. */
    next_node_id: z
      .number()
      .int()
      .min(1)
      .max(MAX_NODE_ID + 1, `node ids end at ${MAX_NODE_ID} (2^30 − 1): next_node_id is at most ${MAX_NODE_ID + 1}`),
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
    /** Every field of the record (node-fields.ts); one added since a file was written takes its default. */
    ...STORED_NODE_FIELDS,
    id: NodeId,
    name: z.string().min(1).nullable(),
    original_length: Count,
    message_time: Time.nullable(),
    created_at: Time,
    superseded_by: NodeId.nullable(),
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
  .object({ type: z.literal("messages"), ids: z.array(z.string().min(1)).min(1).max(MAX_MESSAGES_PER_LINE) })
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

/**
 * The export's lines as a byte stream, in chunks of about 64 KiB: the caller's pace sets how fast
 * they are serialised, so a large agent's export is never held whole.
 */
export function exportStream(snapshot: ExportSnapshot): ReadableStream<Uint8Array> {
  const lines = exportLines(snapshot);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk = "";
      for (let next = lines.next(); ; next = lines.next()) {
        if (next.done) {
          if (chunk !== "") controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += `${next.value}\n`;
        if (chunk.length >= 65_536) break;
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}

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

/** The sections of a file, in the order export writes them (and import requires). */
const SECTION_ORDER: readonly ExportLine["type"][] = ["header", "focus", "node", "link", "alias", "messages", "end"];

/** Nesting levels of a node's meta, and its size as JSON (UTF-8 bytes): far above what the API writes. */
export const META_MAX_DEPTH = 16;
export const META_MAX_BYTES = 384 * 1024;

/**
 * Checks an import file line by line, then as a whole (docs/design.md, "Memory operations", export and import):
 * well-formed Unicode in every string; a header first (this format and version); the sections in
 * export order; node ids unique and below the header's next_node_id, entity names unique,
 * `superseded_by` naming another memory of the file, with no cycle (a version chain ends in the
 * current version); content as a write takes it (src/text/memory-text.ts, at most
 * MAX_MESSAGE_CODE_POINTS); every link from a node of the file to an id below
 * next_node_id (a dangling one to a forgotten node is fine), in (source, target) order, none twice,
 * its level at most the header's clock; every alias naming an entity of the file, each key once;
 * meta at most META_MAX_DEPTH deep and META_MAX_BYTES long; the focus naming entities of the file;
 * an end line last whose counts match. What the storage would silently drop or misplace (a second
 * entity of one name, a link from nothing, a link to an id the agent will allocate later) is
 * refused here, naming the line. `accept` answers the line as it will be stored (re-serialised
 * after parsing) or the problem; `line` is its number in the file (blank lines count).
 */
export class ImportValidator {
  private header: HeaderLine | undefined;
  private ended = false;
  private section = -1;
  private focusIds: number[] = [];
  private focusLine = 0;
  private readonly kinds = new Map<number, string>();
  private readonly entities = new Map<string, number>();
  private readonly aliasKeys = new Set<string>();
  private lastPair: { source: number; target: number } | undefined;
  private readonly pairRelations = new Set<string>();
  private readonly counts = { nodes: 0, links: 0, aliases: 0, messages: 0 };
  /** Each superseded node's successor, and the line that says so (checked once every node is known). */
  private readonly successors = new Map<number, { by: number; line: number }>();
  private accepted = 0;

  accept(raw: string, line: number): { ok: true; line: string } | { ok: false; problem: LineProblem } {
    const fail = (message: string) => ({ ok: false as const, problem: { line, message } });
    if (this.ended) return fail("nothing may follow the end line");
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return fail("not a JSON object");
    }
    const malformed = malformedPath(value);
    if (malformed !== undefined) return fail(`${malformed || "line"}: malformed Unicode (a lone surrogate)`);
    const parsed = ExportLineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(`${issue?.path.join(".") || "line"}: ${issue?.message ?? "invalid"}`);
    }
    const data = parsed.data;
    if (this.accepted === 0 && data.type !== "header")
      return fail(`the first line must be the header (format ${EXPORT_FORMAT}, version ${EXPORT_VERSION})`);
    if (this.accepted > 0 && data.type === "header") return fail("a second header");
    const rank = SECTION_ORDER.indexOf(data.type);
    if (rank < this.section) {
      return fail(
        `a ${data.type} line after ${SECTION_ORDER[this.section] ?? ""} lines: the sections come in export order (${SECTION_ORDER.join(", ")})`,
      );
    }
    this.section = rank;
    const problem = this.check(data, line);
    if (problem !== undefined) return fail(problem);
    this.accepted += 1;
    return { ok: true, line: JSON.stringify(data) };
  }

  /** The line's place in the file as a whole: the problem, or undefined when it fits. */
  private check(data: ExportLine, line: number): string | undefined {
    const next = this.header?.next_node_id ?? 1;
    switch (data.type) {
      case "header":
        this.header = data;
        return undefined;
      case "focus":
        if (this.focusLine > 0) return "a second focus line";
        this.focusLine = line;
        this.focusIds = data.entries.map((e) => e.node_id);
        return undefined;
      case "node": {
        if (this.kinds.has(data.id)) return `node ${data.id} appears twice`;
        if (data.id >= next) return `node ${data.id} is not below the header's next_node_id (${next})`;
        if (data.superseded_by !== null && (data.superseded_by >= next || data.superseded_by === data.id)) {
          return `superseded_by: node ${data.id} cannot be superseded by ${data.superseded_by} (itself, or not below next_node_id ${next})`;
        }
        if (data.superseded_by !== null) {
          if (data.kind === "entity") return "superseded_by: an entity is never superseded (merge entities instead)";
          this.successors.set(data.id, { by: data.superseded_by, line });
        }
        const text = contentProblem(data);
        if (text !== undefined) return text;
        if (data.name !== null) {
          const other = this.entities.get(data.name);
          if (other !== undefined) return `entity name ${JSON.stringify(data.name)} is already node ${other}'s: an entity name is unique`;
          this.entities.set(data.name, data.id);
        }
        const meta = data.meta === null ? undefined : metaProblem(data.meta);
        if (meta !== undefined) return `meta: ${meta}`;
        this.kinds.set(data.id, data.kind);
        this.counts.nodes += 1;
        return undefined;
      }
      case "link": {
        if (!this.kinds.has(data.source))
          return `a link from node ${data.source}, which no node line of the file holds (a link leaves from a node)`;
        if (data.target >= next) return `a link to node ${data.target}, not below the header's next_node_id (${next})`;
        const last = this.lastPair;
        if (last && (data.source < last.source || (data.source === last.source && data.target < last.target))) {
          return "links come in (source, target) order, as export writes them";
        }
        if (!last || last.source !== data.source || last.target !== data.target) this.pairRelations.clear();
        if (this.pairRelations.has(data.relation)) return `the link ${data.source} → ${data.target} (${data.relation}) appears twice`;
        this.pairRelations.add(data.relation);
        this.lastPair = { source: data.source, target: data.target };
        if (this.header && data.level > this.header.clock + 1e-9) return "a link level above the header's clock (a strength above 1)";
        this.counts.links += 1;
        return undefined;
      }
      case "alias":
        if (this.kinds.get(data.node_id) !== "entity")
          return `alias ${JSON.stringify(data.key)} names node ${data.node_id}, not an entity of the file`;
        if (this.aliasKeys.has(data.key)) return `alias ${JSON.stringify(data.key)} appears twice`;
        this.aliasKeys.add(data.key);
        this.counts.aliases += 1;
        return undefined;
      case "messages":
        this.counts.messages += data.ids.length;
        return undefined;
      case "end":
        this.ended = true;
        for (const key of ["nodes", "links", "aliases", "messages"] as const) {
          if (data[key] !== this.counts[key]) return `the end line counts ${data[key]} ${key}, the file has ${this.counts[key]}`;
        }
        return undefined;
    }
  }

  /** The whole-file checks, after the last line (`lines`: lines read, blank ones included). */
  finish(lines: number): LineProblem | undefined {
    const line = lines + 1;
    if (!this.header) return { line, message: "the file is empty" };
    if (!this.ended) return { line, message: "the end line is missing (a truncated file?)" };
    const notEntity = this.focusIds.find((id) => this.kinds.get(id) !== "entity");
    if (notEntity !== undefined) return { line: this.focusLine, message: `the focus names node ${notEntity}, not an entity of the file` };
    return this.versionProblem();
  }

  /**
   * Version chains as a write leaves them: each superseded memory names a memory of the file that
   * supersedes it, and every chain ends in a current version (no cycle: two nodes naming each other
   * could be neither deleted, purged nor recalled).
   */
  private versionProblem(): LineProblem | undefined {
    for (const [id, { by, line }] of this.successors) {
      const kind = this.kinds.get(by);
      if (kind === undefined) return { line, message: `superseded_by: node ${id} names node ${by}, which no node line of the file holds` };
      if (kind === "entity") return { line, message: `superseded_by: node ${id} names node ${by}, an entity` };
    }
    const settled = new Set<number>();
    for (const start of this.successors.keys()) {
      const path = new Set<number>();
      for (let id: number | undefined = start; id !== undefined && !settled.has(id); id = this.successors.get(id)?.by) {
        if (path.has(id)) {
          return { line: this.successors.get(id)?.line ?? 0, message: `superseded_by: node ${id}'s versions form a cycle` };
        }
        path.add(id);
      }
      for (const id of path) settled.add(id);
    }
    return undefined;
  }

  /** The header's next_node_id, once the header was read. */
  get nextNodeId(): number | undefined {
    return this.header?.next_node_id;
  }
}

/** Why a node's text is refused as a write would refuse it, or undefined. */
function contentProblem(node: Pick<z.infer<typeof NodeLineSchema>, "content">): string | undefined {
  const problem = memoryTextProblem(node.content);
  if (problem !== undefined) return `content ${problem}`;
  if (codePointLength(node.content) > MAX_MESSAGE_CODE_POINTS) return `content exceeds ${MAX_MESSAGE_CODE_POINTS} characters`;
  return undefined;
}

/** Why a node's meta is refused (too deep or too long), or undefined. Walks no deeper than the cap. */
function metaProblem(meta: Record<string, unknown>): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value: meta, depth: 1 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== "object" || item.value === null) continue;
    if (item.depth > META_MAX_DEPTH) return `nested more than ${META_MAX_DEPTH} levels deep`;
    for (const v of Object.values(item.value)) stack.push({ value: v, depth: item.depth + 1 });
  }
  if (new TextEncoder().encode(JSON.stringify(meta)).byteLength > META_MAX_BYTES) return `longer than ${META_MAX_BYTES} bytes as JSON`;
  return undefined;
}
