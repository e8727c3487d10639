/**
 * Nodes of one agent read by id (NodeRepo.load): what a breadth-first layer of an agent read from D1
 * asks for, thousands at a time. The chunks of ids go in one batch (one round trip), and each node
 * comes with its full-text document as D1 indexed it, so recall reads the node's terms from it
 * (keepDocument) instead of analysing its text again, as a wake from the object's copy does.
 */
import { and, eq, sql } from "drizzle-orm";
import { keepDocument } from "../search/fts-text";
import type { MemoryNode } from "../vocabulary/records";
import type { Db } from "./db";
import { FTS_AGENT_STRIDE } from "./fts-repo";
import { chunk, jsonList } from "./json-list";
import { toMemoryNode } from "./node-columns";
import { nodes } from "./schema";

/** Ids per statement (one JSON list parameter each). */
const IDS_PER_STATEMENT = 2_000;

export async function loadNodes(db: Db, agentUid: number, ids: readonly number[]): Promise<Map<number, MemoryNode>> {
  const out = new Map<number, MemoryNode>();
  const document = sql<string | null>`(SELECT terms FROM nodes_fts WHERE rowid = ${agentUid * FTS_AGENT_STRIDE} + ${nodes.id})`;
  const [first, ...rest] = chunk(ids, IDS_PER_STATEMENT).map((part) =>
    db
      .select({ row: nodes, document })
      .from(nodes)
      .where(and(eq(nodes.agentUid, agentUid), sql`${nodes.id} IN ${jsonList(part)}`)),
  );
  if (!first) return out;
  const pages = rest.length === 0 ? [await first] : await db.batch([first, ...rest]);
  const speakers = new Map<string, string[]>();
  for (const page of pages) {
    for (const { row, document } of page) {
      const node = toMemoryNode(row);
      if (document !== null) keepDocument(node, document, speakers);
      out.set(row.id, node);
    }
  }
  return out;
}
