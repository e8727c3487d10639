/**
 * A node's record and its D1 row, field by field (docs/design.md, "The model"). The record
 * (src/vocabulary/records.ts) names its fields as the `nodes` table names its columns
 * (schema.ts), so a new field of the record is a new column and nothing here changes: an insert
 * writes every field, a patch any of them, a read maps every column back. The compiler refuses a
 * record field without its column, and a column that is neither a field nor storage bookkeeping.
 * Lists and objects are JSON text columns, parsed on the way back (a trust boundary: no casts).
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { NodeSchema, type MemoryNode, type NodeFilter } from "../vocabulary/records";
import { isMessageRole } from "../vocabulary/roles";
import { parseJsonObject, parseMetadata, parseStringArray } from "./row-parsing";
import { nodes, type NodeRow } from "./schema";

const COLUMNS = getTableColumns(nodes);

/** What an insert writes: every field of the record, and the full-text length. */
const INSERTED = [...NodeSchema.keyof().options, "ftsTokens"] as const;
type Inserted = (typeof INSERTED)[number];

/** A field's value as its column stores it: lists and objects as JSON text, the rest as drizzle maps it. */
function stored<K extends Inserted>(key: K, value: unknown): unknown {
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return value === null || value === undefined ? null : COLUMNS[key].mapToDriverValue(value);
}

/** `INSERT INTO nodes (agent, …every field…) SELECT … FROM json_each(rows) ON CONFLICT DO NOTHING`. */
export function insertNodesSql(agentUid: number, rows: readonly (MemoryNode & { ftsTokens: number })[]): SQL {
  const json = JSON.stringify(rows.map((row) => Object.fromEntries(INSERTED.map((key) => [key, stored(key, row[key])]))));
  const names = sql.join(
    INSERTED.map((key) => sql.identifier(COLUMNS[key].name)),
    sql`, `,
  );
  const values = sql.join(
    INSERTED.map((key) => sql`json_extract(value, ${`$.${key}`})`),
    sql`, `,
  );
  return sql`INSERT INTO nodes (agent, ${names}) SELECT ${agentUid}, ${values} FROM json_each(${json}) WHERE true ON CONFLICT DO NOTHING`;
}

/** `col = value, …` for the given fields of the record (an UPDATE's SET list); undefined when there are none. */
export function setFieldsSql(fields: Partial<MemoryNode>): SQL | undefined {
  const keys = NodeSchema.keyof().options.filter((key) => fields[key] !== undefined);
  if (keys.length === 0) return undefined;
  return sql.join(
    keys.map((key) => sql`${sql.identifier(COLUMNS[key].name)} = ${stored(key, fields[key])}`),
    sql`, `,
  );
}

/** The conditions of a filter on the record's plain fields (every one given must hold). */
export function filterSql(filter: NodeFilter): SQL[] {
  const given: Partial<MemoryNode> = filter;
  return NodeSchema.keyof()
    .options.filter((key) => given[key] !== undefined)
    .map((key) => {
      const column = sql.identifier(COLUMNS[key].name);
      if (given[key] === null) return sql`${column} IS NULL`;
      // A flag as a literal: a partial index on it (nodes_pinned) serves only a condition it can read.
      if (typeof given[key] === "boolean") return sql`${column} = ${sql.raw(given[key] ? "1" : "0")}`;
      return sql`${column} = ${stored(key, given[key])}`;
    });
}

/**
 * A row read back as the record: every column but storage bookkeeping (the agent's key, the focus
 * release, the full-text length). A column that is neither would be a field the record lacks: the
 * type of `node` refuses it.
 */
export function toMemoryNode(row: NodeRow): MemoryNode {
  const { agentUid: _agent, releasedClock: _clock, releasedEpoch: _epoch, ftsTokens: _tokens, ...fields } = row;
  const node: MemoryNode & { [K in Exclude<keyof typeof fields, keyof MemoryNode>]: never } = {
    ...fields,
    keywords: parseStringArray(row.keywords),
    role: isMessageRole(row.role) ? row.role : null,
    sourceMessageIds: parseStringArray(row.sourceMessageIds),
    meta: parseJsonObject(row.meta),
    metadata: parseMetadata(row.metadata),
  };
  return node;
}
