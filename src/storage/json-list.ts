/**
 * Lists travel into D1 as one JSON parameter read back with `json_each`, so a statement needs a
 * constant number of bound parameters however many ids or rows it carries (D1 allows 100 per
 * statement). Row batches are still chunked to keep each statement small.
 */
import { sql, type SQL } from "drizzle-orm";
import { ROWS_PER_JSON_STATEMENT } from "../config/limits";

/** `(SELECT value FROM json_each(?))`: the members of a list, for `x IN …`. */
export function jsonList(values: readonly (number | string)[]): SQL {
  return sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

export function chunk<T>(items: readonly T[], size: number = ROWS_PER_JSON_STATEMENT): T[][] {
  if (size < 1) throw new RangeError("chunk size must be positive");
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
