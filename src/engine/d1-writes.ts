/**
 * Write operations as D1 statements (one atomic batch per commit, src/engine/write-path.ts), from
 * the D1 column of the write table (write-table.ts). Every statement is idempotent, so a batch
 * that may or may not have committed before a crash is simply sent again. Full-text rows travel in
 * the same batch as the nodes they index.
 */
import type { NetworkOp } from "../memory/write-ops";
import type { Statement } from "../storage/batch";
import type { AgentRepos } from "./runtime";
import { writeKind } from "./write-table";

/**
 * Whether applying `op` writes the agent's rows (and so registers the agent on its first write):
 * every network write does, unless its row says otherwise (a focus change that releases nothing, a purge).
 */
export function writesRows(op: NetworkOp): boolean {
  return writeKind(op.type).registers?.(op) ?? true;
}

/**
 * The statements of `ops`, in order; each run of consecutive operations of one type goes to its
 * row at once. `repos` is undefined for an agent never registered (nothing to purge).
 */
export function d1Statements(repos: AgentRepos | undefined, ops: readonly NetworkOp[]): Statement[] {
  const out: Statement[] = [];
  if (!repos) return out;
  for (let start = 0, end = 1; start < ops.length; start = end, end = start + 1) {
    const first = ops[start];
    if (first === undefined) break;
    while (ops[end]?.type === first.type) end += 1;
    const statements = writeKind(first.type).d1;
    if (statements) out.push(...statements(repos, ops.slice(start, end)));
  }
  return out;
}
