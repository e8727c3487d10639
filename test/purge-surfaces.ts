/**
 * Everything an agent's surfaces answer, as text, for the purge tests (docs/design.md, "Purge"):
 * REST reads (the listing, each memory, its history, nodes, focus, profile, stats), recall (text
 * and JSON, with its traces), search (keyword, vector, hybrid, every kind, entities included), the
 * context block (with the profile), the export, task results, Idempotency-Key replays,
 * tools/call, MCP and the SDK. The web view reads the same API.
 */
import { SELF } from "cloudflare:test";
import { MemoryClient } from "../sdk/src/index";
import { call, DEV_KEY, json } from "./helpers";

export interface Replay {
  path: string;
  method: string;
  key: string;
  body?: unknown;
}

export interface SurfaceQuery {
  /** Words to recall, search and build the context for. */
  words: readonly string[];
  taskIds?: readonly string[];
  replays?: readonly Replay[];
  /** Node ids to read one by one (memories, and nodes of any kind). */
  nodeIds?: readonly number[];
}

const text = async (res: Response) => `${res.status} ${await res.text()}`;

/** Every surface's answer about `agent`, joined (one string to search for markers). */
export async function everySurface(agent: string, query: SurfaceQuery): Promise<string> {
  const base = `/v1/agents/${agent}`;
  const parts: string[] = [];
  const words = [...query.words];
  const batches: string[][] = [];
  // Recall takes at most 32 keywords: the words in as few requests as that allows.
  for (let i = 0; i < words.length; i += 32) batches.push(words.slice(i, i + 32));
  if (batches.length === 0) batches.push(["memory"]);
  parts.push(await text(await call(`${base}/memories?include_superseded=true&limit=200`)));
  parts.push(await text(await call(`${base}/focus`)));
  parts.push(await text(await call(`${base}/profile`)));
  parts.push(await text(await call(`${base}/stats`)));
  parts.push(await text(await call(`${base}/export`)));
  for (const batch of batches) {
    const q = batch.join(" ");
    parts.push(await text(await call(`${base}/recall`, { body: { keywords: batch, limit: 100, depth: 6 } })));
    parts.push(await text(await call(`${base}/recall`, { body: { query: q, limit: 100, format: "json" } })));
    for (const mode of ["keyword", "vector", "hybrid"]) {
      parts.push(
        await text(
          await call(`${base}/search`, { body: { query: q, mode, top_k: 100, kinds: ["segment", "memory", "episode", "entity"] } }),
        ),
      );
    }
    parts.push(
      await text(
        await call(`${base}/context`, { body: { query: q, budget_tokens: 32000, include: ["memories", "episodes", "traces", "profile"] } }),
      ),
    );
    parts.push(await text(await call(`${base}/tools/call`, { body: { name: "search_memories", arguments: { query: q, top_k: 100 } } })));
    parts.push(
      await text(
        await call(`${base}/mcp`, {
          body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "recall", arguments: { keywords: batch, limit: 100 } } },
          headers: { Accept: "application/json, text/event-stream" },
        }),
      ),
    );
  }
  const sdk = new MemoryClient({ baseUrl: "http://localhost", apiKey: DEV_KEY, fetch: (request) => SELF.fetch(request) }).agent(agent);
  parts.push(JSON.stringify(await sdk.recall({ keywords: words.slice(0, 32), limit: 100 })));
  for (const id of query.nodeIds ?? []) {
    parts.push(await text(await call(`${base}/memories/${id}`)));
    parts.push(await text(await call(`${base}/memories/${id}/history`)));
    parts.push(await text(await call(`${base}/nodes/${id}`)));
  }
  for (const id of query.taskIds ?? []) parts.push(await text(await call(`${base}/tasks/${id}`)));
  for (const replay of query.replays ?? []) {
    parts.push(
      await text(
        await call(replay.path, {
          method: replay.method,
          headers: { "Idempotency-Key": replay.key },
          ...(replay.body === undefined ? {} : { body: replay.body }),
        }),
      ),
    );
  }
  return parts.join("\n");
}

/** The node ids of the agent's memories now (superseded ones included), with their text. */
export async function memoriesOf(
  agent: string,
): Promise<{ node_id: number; content: string; superseded_by: number | null; source_task_id: string | null }[]> {
  const res = await call(`/v1/agents/${agent}/memories?include_superseded=true&limit=200`);
  return (await json<{ items: { node_id: number; content: string; superseded_by: number | null; source_task_id: string | null }[] }>(res))
    .items;
}

/** Where in `said` any of `words` occurs as a word (case-insensitive), with some context: empty when none does. */
export function occurrences(said: string, words: readonly string[]): string[] {
  const found: string[] = [];
  for (const word of words) {
    const at = said.search(new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "iu"));
    if (at >= 0) found.push(`${word}: …${said.slice(Math.max(0, at - 120), at + word.length + 60)}…`);
  }
  return found;
}
