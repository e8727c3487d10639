/**
 * What a purge leaves of a finished task's result (docs/design.md, "Purge"). A kind declares where
 * its results carry memory (define-task.ts): `nodes`, paths to node ids whose content the result
 * holds or names (`$.node_id`, `$.candidates[*].node_id`); `names`, paths to lists of entity
 * names (`$.focus`). A result is taken whole when its task wrote a purged node or it names one at
 * a node path; otherwise purged names leave its name lists. Pure: the store applies it.
 */
import { entityKey } from "../language/entities/entity-key";

/** Where one kind's results carry node ids and entity names (JSON paths: `$.a.b`, `$.a[*].b`). */
export interface ResultCarrier {
  kind: string;
  nodes: readonly string[];
  names: readonly string[];
}

/** What a purge took: the nodes, the tasks that wrote them, the names of its entities and aliases. */
export interface PurgedContent {
  nodeIds: ReadonlySet<number>;
  taskIds: ReadonlySet<string>;
  /** Entity keys (src/language/entities/entity-key.ts) of the purged names. */
  nameKeys: ReadonlySet<string>;
}

export function purgedContent(nodeIds: readonly number[], taskIds: readonly string[], names: readonly string[]): PurgedContent {
  return {
    nodeIds: new Set(nodeIds),
    taskIds: new Set(taskIds),
    nameKeys: new Set(names.map(entityKey).filter((k) => k !== "")),
  };
}

export type ScrubOutcome = { action: "keep" } | { action: "take" } | { action: "rewrite"; result: unknown };

export function scrubResult(taskId: string, result: unknown, carrier: ResultCarrier | undefined, purged: PurgedContent): ScrubOutcome {
  if (purged.taskIds.has(taskId)) return { action: "take" };
  if (!carrier) return { action: "keep" };
  for (const path of carrier.nodes) {
    if (valuesAt(result, path).some((v) => typeof v === "number" && purged.nodeIds.has(v))) return { action: "take" };
  }
  if (purged.nameKeys.size === 0 || carrier.names.length === 0) return { action: "keep" };
  const copy: unknown = structuredClone(result);
  let changed = false;
  for (const path of carrier.names) {
    for (const list of valuesAt(copy, path)) {
      if (!Array.isArray(list)) continue;
      const kept = list.filter((name) => typeof name !== "string" || !purged.nameKeys.has(entityKey(name)));
      if (kept.length === list.length) continue;
      list.splice(0, list.length, ...kept);
      changed = true;
    }
  }
  return changed ? { action: "rewrite", result: copy } : { action: "keep" };
}

/** The values at a JSON path (`$`, `.key`, `[*]` for every element of an array). */
export function valuesAt(value: unknown, path: string): unknown[] {
  if (!path.startsWith("$")) throw new Error(`not a JSON path: ${path}`);
  const steps = path
    .slice(1)
    .split(/(?=\.)|(?=\[\*\])/)
    .filter((s) => s !== "");
  let current: unknown[] = [value];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step === "[*]") {
        if (Array.isArray(v)) next.push(...(v as unknown[]));
      } else if (typeof v === "object" && v !== null && !Array.isArray(v)) {
        const key = step.slice(1);
        if (Object.hasOwn(v, key)) next.push((v as Record<string, unknown>)[key]);
      }
    }
    current = next;
  }
  return current;
}
