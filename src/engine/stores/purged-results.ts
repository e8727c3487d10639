/**
 * The object's side of a purge (docs/design.md, "Purge"): what finished tasks' results keep of
 * purged memories (src/engine/result-scrub.ts decides per result). A result taken whole becomes
 * `{"purged": true}` and its Idempotency-Keys are retired (a replay answers 409, never the old
 * answer); purged entity names leave the name lists of the others. Forgotten-node records of the
 * purged nodes go too: nothing is left to find.
 */
import { purgedContent, scrubResult, type ResultCarrier } from "../result-scrub";
import type { ForgottenNodes } from "./forgotten-nodes";
import type { IdempotencyKeys } from "./idempotency";

export const PURGED_RESULT = '{"purged":true}';

export function scrubPurged(
  sql: SqlStorage,
  stores: { keys: IdempotencyKeys; forgotten: ForgottenNodes },
  carriers: readonly ResultCarrier[],
  purged: { nodeIds: readonly number[]; taskIds: readonly string[]; names: readonly string[] },
): void {
  const content = purgedContent(purged.nodeIds, purged.taskIds, purged.names);
  // Name lists need reading only when the purge took names.
  const scanned = carriers.filter((c) => c.nodes.length > 0 || (c.names.length > 0 && content.nameKeys.size > 0));
  const byKind = new Map(scanned.map((c) => [c.kind, c]));
  const rows = sql
    .exec<{ id: string; kind: string; result: string }>(
      `SELECT id, kind, result FROM tasks WHERE status = 'done' AND result IS NOT NULL AND result <> ?
         AND (id IN (SELECT value FROM json_each(?)) OR kind IN (SELECT value FROM json_each(?)))`,
      PURGED_RESULT,
      JSON.stringify(purged.taskIds),
      JSON.stringify(scanned.map((c) => c.kind)),
    )
    .toArray();
  const taken: string[] = [];
  for (const row of rows) {
    const outcome = scrubResult(row.id, JSON.parse(row.result), byKind.get(row.kind), content);
    if (outcome.action === "take") {
      sql.exec("UPDATE tasks SET result = ? WHERE id = ?", PURGED_RESULT, row.id);
      taken.push(row.id);
    } else if (outcome.action === "rewrite") {
      sql.exec("UPDATE tasks SET result = ? WHERE id = ?", JSON.stringify(outcome.result), row.id);
    }
  }
  // A write whose result is gone answers 409 on a replay: also one whose result had been taken by
  // an earlier purge, and one whose task was pruned since (its key may still be kept).
  stores.keys.forgetTasks([...new Set([...taken, ...purged.taskIds])]);
  stores.forgotten.drop(purged.nodeIds);
}
