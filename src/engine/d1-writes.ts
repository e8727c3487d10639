/**
 * Write operations as D1 statements (one atomic batch per commit, src/engine/write-path.ts). Every
 * statement is idempotent, so a batch that may or may not have committed before a crash is simply
 * sent again. Full-text rows travel in the same batch as the nodes they index.
 */
import type { NetworkOp } from "../memory/write-ops";
import { indexTokens } from "../search/bm25-index";
import { ftsDocument } from "../search/fts-text";
import type { Statement } from "../storage/batch";
import { unreachable } from "../vocabulary/records";
import type { AgentRepos } from "./runtime";

/**
 * Whether applying `op` writes the agent's rows (and so registers the agent on its first write):
 * every network write does, but a focus change that releases nothing, and a purge (it only ever
 * removes what an earlier write registered).
 */
export function writesRows(op: NetworkOp): boolean {
  if (op.type === "setFocus") return op.released.length > 0;
  return op.type !== "purgeAgent";
}

/** The statements of `ops`; `repos` is undefined for an agent never registered (nothing to purge). */
export function d1Statements(repos: AgentRepos | undefined, ops: readonly NetworkOp[]): Statement[] {
  const out: Statement[] = [];
  if (!repos) return out;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (op === undefined) continue;
    switch (op.type) {
      case "createNodes": {
        const documents = op.nodes.map((n) => ({ node: n, terms: ftsDocument(n) }));
        out.push(...repos.nodes.insertStatements(documents.map((d) => ({ ...d.node, ftsTokens: indexTokens(d.terms).length }))));
        out.push(...repos.fts.upsertStatements(documents.map((d) => ({ nodeId: d.node.id, terms: d.terms }))));
        break;
      }
      case "createLinks":
        out.push(...repos.links.insertStatements(op.links));
        break;
      case "setLinks":
        out.push(...repos.links.upsertStatements(op.links));
        break;
      case "supersede":
        out.push(repos.nodes.supersedeStatement(op.id, op.by));
        break;
      case "addAliases":
        out.push(...repos.nodes.aliasStatements(op.aliases, Date.now()));
        break;
      case "setFocus":
        if (op.released.length > 0) out.push(repos.nodes.releaseStatement(op.released, { clock: op.clock, epoch: op.epoch }));
        break;
      case "deleteLinks":
        out.push(...repos.links.deleteKeysStatements(op.keys));
        break;
      case "updateText": {
        // A run of text updates (a scan page's compressions) goes as one statement per table:
        // only consecutive ones, so every other operation keeps its place in the order.
        const run = [op.update];
        for (let next = ops[i + 1]; next?.type === "updateText"; next = ops[i + 1]) {
          run.push(next.update);
          i += 1;
        }
        const documents = run.map((update) => ({ update, terms: ftsDocument(update) }));
        out.push(...repos.nodes.updateTextStatements(documents.map((d) => ({ update: d.update, ftsTokens: indexTokens(d.terms).length }))));
        out.push(...repos.fts.upsertStatements(documents.map((d) => ({ nodeId: d.update.id, terms: d.terms }))));
        break;
      }
      case "deleteNodes":
        if (op.ids.length === 0) break;
        out.push(
          repos.links.settleReleasesStatement(op.ids),
          repos.links.deleteOutgoingStatement(op.ids),
          repos.nodes.deleteStatement(op.ids),
          repos.fts.deleteStatement(op.ids),
        );
        break;
      case "purgeAgent":
        // What chunks of the deletion left, if anything (src/operations/delete-agent/task.ts). The
        // registry row is in the primary database: the deletion removes it before this commit.
        out.push(
          repos.links.deleteAllStatement(),
          repos.nodes.deleteAllStatement(),
          repos.fts.deleteAllStatement(),
          repos.nodes.deleteAllAliasesStatement(),
        );
        break;
      default:
        unreachable(op);
    }
  }
  return out;
}
