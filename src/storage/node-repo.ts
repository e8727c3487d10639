/**
 * Node rows of one agent. Every statement filters on the agent id given at construction: a repo
 * cannot read or write another agent's rows.
 */
import { and, asc, count, eq, lt, max, min, sql, type SQL } from "drizzle-orm";
import type { MemoryNode } from "../memory/node";
import type { PlannedNode } from "../memory/remember-plan";
import type { MessageRole } from "../models/types";
import { statement, type Statement } from "./batch";
import type { Db } from "./db";
import { chunk, jsonList } from "./json-list";
import { parseStringArray } from "./row-parsing";
import { nodes, type NodeRow } from "./schema";

const ROLES: readonly MessageRole[] = ["user", "assistant", "system"];

export interface NodeSummary {
  segments: number;
  entities: number;
  /** Code points of segment content held now (comparable with characters ever remembered). */
  charactersHeld: number;
}

/** A node as the compression scan needs it. */
export type ScanNode = Pick<MemoryNode, "id" | "kind" | "speaker" | "content" | "originalLength" | "scanCount">;

/** Position of a scan: the (scan_count, id) of the last node it visited, before its scan. */
export interface ScanCursor {
  scanCount: number;
  id: number;
}

export interface ContentUpdate {
  id: number;
  content: string;
  phrase: string;
  keywords: string[];
}

export class NodeRepo {
  constructor(
    private readonly db: Db,
    readonly agent: number,
  ) {}

  /** Idempotent bulk insert: re-applying a plan inserts nothing twice. */
  insertStatements(planned: readonly PlannedNode[], taskId: string, now: number): Statement[] {
    return chunk(planned).map((rows) => {
      const json = JSON.stringify(
        rows.map((n) => ({ ...n, keywords: JSON.stringify(n.keywords), sourceMessageIds: JSON.stringify(n.sourceMessageIds) })),
      );
      const field = (name: string): SQL => sql`json_extract(value, ${`$.${name}`})`;
      return statement(sql`
        INSERT INTO nodes (agent, id, kind, name, content, original_length, phrase, keywords, role, speaker,
                           source_message_ids, source_task_id, message_time, created_at)
        SELECT ${this.agent}, ${field("id")}, ${field("kind")}, ${field("name")}, ${field("content")},
               ${field("originalLength")}, ${field("phrase")}, ${field("keywords")}, ${field("role")},
               ${field("speaker")}, ${field("sourceMessageIds")}, ${taskId}, ${field("messageTime")}, ${now}
        FROM json_each(${json}) WHERE true
        ON CONFLICT DO NOTHING`);
    });
  }

  /** Existing entity nodes by normalised key. */
  async findEntities(keys: readonly string[]): Promise<Map<string, { nodeId: number; name: string }>> {
    const found = new Map<string, { nodeId: number; name: string }>();
    if (keys.length === 0) return found;
    const rows = await this.db
      .select({ id: nodes.id, name: nodes.name, content: nodes.content })
      .from(nodes)
      .where(and(eq(nodes.agent, this.agent), eq(nodes.kind, "entity"), sql`${nodes.name} IN ${jsonList(keys)}`));
    for (const row of rows) if (row.name !== null) found.set(row.name, { nodeId: row.id, name: row.content });
    return found;
  }

  /** The nodes among `ids` that exist (one query however many ids). */
  async load(ids: readonly number[]): Promise<Map<number, MemoryNode>> {
    const out = new Map<number, MemoryNode>();
    if (ids.length === 0) return out;
    const rows = await this.db
      .select()
      .from(nodes)
      .where(and(eq(nodes.agent, this.agent), sql`${nodes.id} IN ${jsonList(ids)}`));
    for (const row of rows) out.set(row.id, toMemoryNode(row));
    return out;
  }

  async get(id: number): Promise<MemoryNode | undefined> {
    const [row] = await this.db
      .select()
      .from(nodes)
      .where(and(eq(nodes.agent, this.agent), eq(nodes.id, id)))
      .limit(1);
    return row ? toMemoryNode(row) : undefined;
  }

  async summary(): Promise<NodeSummary> {
    const [row] = await this.db
      .select({
        segments: sql<number>`coalesce(sum(${nodes.kind} = 'segment'), 0)`,
        entities: sql<number>`coalesce(sum(${nodes.kind} = 'entity'), 0)`,
        // Segment text only: entity names are labels, not remembered conversation.
        charactersHeld: sql<number>`coalesce(sum(CASE WHEN ${nodes.kind} = 'segment' THEN length(${nodes.content}) ELSE 0 END), 0)`,
      })
      .from(nodes)
      .where(eq(nodes.agent, this.agent));
    return { segments: row?.segments ?? 0, entities: row?.entities ?? 0, charactersHeld: row?.charactersHeld ?? 0 };
  }

  /**
   * The next nodes a compression cycle scans: ascending (scan_count, id) after the cursor, not yet
   * scanned in this cycle, focus nodes excluded. One indexed range read per page.
   */
  async scanPage(cycle: number, cursor: ScanCursor | null, focus: readonly number[], limit: number): Promise<ScanNode[]> {
    return this.db
      .select({
        id: nodes.id,
        kind: nodes.kind,
        speaker: nodes.speaker,
        content: nodes.content,
        originalLength: nodes.originalLength,
        scanCount: nodes.scanCount,
      })
      .from(nodes)
      .where(
        and(
          eq(nodes.agent, this.agent),
          cursor ? sql`(${nodes.scanCount}, ${nodes.id}) > (${cursor.scanCount}, ${cursor.id})` : undefined,
          lt(nodes.scannedCycle, cycle),
          focus.length > 0 ? sql`${nodes.id} NOT IN ${jsonList(focus)}` : undefined,
        ),
      )
      .orderBy(asc(nodes.scanCount), asc(nodes.id))
      .limit(limit);
  }

  /** Marks nodes as scanned by a pass of `cycles` cycles ending at `cycle` (scan_count + cycles). */
  markScannedStatement(ids: readonly number[], cycles: number, cycle: number): Statement {
    return statement(
      this.db
        .update(nodes)
        .set({ scanCount: sql`${nodes.scanCount} + ${cycles}`, scannedCycle: cycle })
        .where(and(eq(nodes.agent, this.agent), sql`${nodes.id} IN ${jsonList(ids)}`)),
    );
  }

  /** Replaces a node's content with its compression (phrase and keywords re-extracted). */
  updateContentStatement(update: ContentUpdate): Statement {
    return statement(
      this.db
        .update(nodes)
        .set({ content: update.content, phrase: update.phrase, keywords: JSON.stringify(update.keywords) })
        .where(and(eq(nodes.agent, this.agent), eq(nodes.id, update.id))),
    );
  }

  /** Deletes nodes (their outgoing links are deleted by LinkRepo.deleteOutgoingStatement). */
  deleteStatement(ids: readonly number[]): Statement {
    return statement(this.db.delete(nodes).where(and(eq(nodes.agent, this.agent), sql`${nodes.id} IN ${jsonList(ids)}`)));
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(nodes).where(eq(nodes.agent, this.agent));
    return row?.n ?? 0;
  }

  async idRange(): Promise<{ min: number; max: number } | undefined> {
    const [row] = await this.db
      .select({ min: min(nodes.id), max: max(nodes.id) })
      .from(nodes)
      .where(eq(nodes.agent, this.agent));
    return row?.min != null && row.max != null ? { min: row.min, max: row.max } : undefined;
  }

  /** Every node id (the fallback when sampling finds too few nodes). */
  async allIds(): Promise<number[]> {
    const rows = await this.db.select({ id: nodes.id }).from(nodes).where(eq(nodes.agent, this.agent));
    return rows.map((r) => r.id);
  }

  /** Nodes after `afterId` in id order (loading the agent's graph into memory). */
  async page(afterId: number, limit: number): Promise<MemoryNode[]> {
    const rows = await this.db
      .select()
      .from(nodes)
      .where(and(eq(nodes.agent, this.agent), sql`${nodes.id} > ${afterId}`))
      .orderBy(asc(nodes.id))
      .limit(limit);
    return rows.map(toMemoryNode);
  }

  /** Removes every node of the agent (agent deletion). */
  deleteAllStatement(): Statement {
    return statement(this.db.delete(nodes).where(eq(nodes.agent, this.agent)));
  }
}

export function toMemoryNode(row: NodeRow): MemoryNode {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    content: row.content,
    originalLength: row.originalLength,
    phrase: row.phrase,
    keywords: parseStringArray(row.keywords),
    role: ROLES.find((r) => r === row.role) ?? null,
    speaker: row.speaker,
    sourceMessageIds: parseStringArray(row.sourceMessageIds),
    sourceTaskId: row.sourceTaskId,
    messageTime: row.messageTime,
    createdAt: row.createdAt,
    scanCount: row.scanCount,
    scannedCycle: row.scannedCycle,
  };
}
