/**
 * A read's filter as SQL over the `nodes` table (docs/design.md, "Scoping: sessions, speakers, tags
 * and expiry"): the same conditions as the predicate (src/memory/memory-filter.ts), for the D1
 * paths (full-text candidates of an agent too large to cache, listings), so the filter is applied
 * where the candidates are found. Tags are read with `json_each` over the metadata column, so a key
 * is compared as a value and never needs quoting inside a JSON path; a value matches by its JSON
 * type as well as its value ("2" is not 2, true is not 1).
 */
import { sql, type SQL } from "drizzle-orm";
import type { FilterClause, MemoryFilter, MetadataCondition, MetadataValue } from "../vocabulary/memory-filter";
import { jsonList } from "./json-list";

/** The columns of the node table as a statement names them (`n.session_id` or `nodes.session_id`). */
function columns(alias: string) {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  return {
    session: col("session_id"),
    speaker: col("speaker"),
    metadata: col("metadata"),
    expires: col("expires_at"),
    time: sql`coalesce(${col("message_time")}, ${col("created_at")})`,
  };
}
type Columns = ReturnType<typeof columns>;

/**
 * `AND …` conditions for a read at `now` under `filter` (expiry always; the rest as the filter
 * names it), over the node table as `alias` names it.
 */
export function filterConditions(filter: MemoryFilter, now: number, alias = "nodes"): SQL {
  const c = columns(alias);
  const parts: SQL[] = [sql`(${c.expires} IS NULL OR ${c.expires} > ${now})`, ...clauseParts(filter, c)];
  if (filter.any)
    parts.push(
      sql`(${sql.join(
        filter.any.map((clause) => conjunction(clauseParts(clause, c))),
        sql` OR `,
      )})`,
    );
  const range = filter.time_range;
  if (range?.from !== undefined) parts.push(sql`${c.time} >= ${range.from}`);
  if (range?.to !== undefined) parts.push(sql`${c.time} <= ${range.to}`);
  return sql`AND ${conjunction(parts)}`;
}

function conjunction(parts: readonly SQL[]): SQL {
  return parts.length === 0 ? sql`1` : sql`(${sql.join([...parts], sql` AND `)})`;
}

function clauseParts(clause: FilterClause, c: Columns): SQL[] {
  const parts: SQL[] = [];
  if (clause.session_ids) parts.push(sql`${c.session} IN ${jsonList(clause.session_ids)}`);
  if (clause.speakers) parts.push(sql`${c.speaker} IN ${jsonList(clause.speakers)}`);
  for (const [key, condition] of Object.entries(clause.metadata ?? {})) parts.push(metadataCondition(c, key, condition));
  return parts;
}

/** A tag of `key` exists and satisfies `test` (a condition on json_each's `m.type` and `m.value`). */
function tag(c: Columns, key: string, test?: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM json_each(${c.metadata}) m WHERE m.key = ${key}${test ? sql` AND ${test}` : sql``})`;
}

/** json_each's type and value of a tag equal to `value`. */
function equals(value: MetadataValue): SQL {
  if (typeof value === "boolean") return value ? sql`m.type = 'true'` : sql`m.type = 'false'`;
  if (typeof value === "number") return sql`(m.type IN ('integer', 'real') AND m.value = ${value})`;
  return sql`(m.type = 'text' AND m.value = ${value})`;
}

const NUMBER = sql`m.type IN ('integer', 'real')`;

function metadataCondition(c: Columns, key: string, condition: MetadataCondition): SQL {
  if (typeof condition !== "object") return tag(c, key, equals(condition));
  const parts: SQL[] = [];
  if (condition.exists === true) parts.push(tag(c, key));
  if (condition.exists === false) parts.push(sql`NOT ${tag(c, key)}`);
  if (condition.eq !== undefined) parts.push(tag(c, key, equals(condition.eq)));
  if (condition.in !== undefined) parts.push(tag(c, key, sql`(${sql.join(condition.in.map(equals), sql` OR `)})`));
  if (condition.ne !== undefined) parts.push(sql`NOT ${tag(c, key, equals(condition.ne))}`);
  const bounds: [number | undefined, SQL][] = [
    [condition.gt, sql`>`],
    [condition.gte, sql`>=`],
    [condition.lt, sql`<`],
    [condition.lte, sql`<=`],
  ];
  const compared = bounds.flatMap(([bound, op]) => (bound === undefined ? [] : [sql`m.value ${op} ${bound}`]));
  if (compared.length > 0) parts.push(tag(c, key, conjunction([NUMBER, ...compared])));
  return conjunction(parts);
}
