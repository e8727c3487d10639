/**
 * Node rows of one agent. Every statement filters on the agent id given at construction: a repo
 * cannot read or write another agent's rows.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
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
  /** Code points held in node content now. */
  charactersHeld: number;
}

export class NodeRepo {
  constructor(
    private readonly db: Db,
    readonly agent: number,
  ) {}

  /** Idempotent bulk insert: re-applying a plan inserts nothing twice. */
  insertStatements(planned: readonly PlannedNode[], taskId: string, now: number): Statement[] {
    return chunk(planned).map((rows) => {
      const json = JSON.stringify(rows.map((n) => ({ ...n, keywords: JSON.stringify(n.keywords), sourceMessageIds: JSON.stringify(n.sourceMessageIds) })));
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
        charactersHeld: sql<number>`coalesce(sum(length(${nodes.content})), 0)`,
      })
      .from(nodes)
      .where(eq(nodes.agent, this.agent));
    return { segments: row?.segments ?? 0, entities: row?.entities ?? 0, charactersHeld: row?.charactersHeld ?? 0 };
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
  };
}
