/**
 * Reads whose size a request can name stay bounded (issue 28, findings 3 and 12): a memory's
 * history is one statement and comes in pages, however long the chain; a node's links come in
 * pages with their totals, on REST, tools/call and MCP alike.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { agentRows, call, freshAgent, json, stubOf } from "./helpers";
import { fileOf, importInto, linkLine, nodeLine, type Line } from "./transfer-helpers";
import { MemoryAgent } from "../src/agent/memory-agent";

/** Counts the statements the agent sends to its D1 shard from now on. */
async function countStatements(agent: string): Promise<() => number> {
  const { shard } = await agentRows(agent);
  let statements = 0;
  await runInDurableObject(stubOf(agent), (instance) => {
    const state = MemoryAgent.testAccess(instance).state;
    const real = state.network.d1Shards.get(shard);
    const counting = new Proxy(real, {
      get(target, prop) {
        if (prop === "prepare") return (query: string) => ((statements += 1), target.prepare(query));
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    state.network.d1Shards = state.network.d1Shards.with({ [shard]: counting });
  });
  return () => statements;
}

interface History {
  history: { node_id: number; content: string; superseded_by: number | null }[];
  total: number;
  next_cursor: string | null;
}

describe("issue 28 finding 3: history reads are one query per version", () => {
  it("a 4,000-version chain: GET history is one statement per page, pages through every version in order; GET memories/:id lists 50 with a cursor", async () => {
    const agent = freshAgent("chain");
    const n = 4000;
    const chain: Line[] = Array.from({ length: n }, (_, i) =>
      nodeLine(i + 1, { kind: "memory", role: null, content: `Version ${i + 1} of the note.`, superseded_by: i + 1 < n ? i + 2 : null }),
    );
    const res = await importInto(agent, await fileOf(chain, { next_node_id: n + 1 }));
    expect(res.status, await res.clone().text()).toBe(200);
    await call(`/v1/agents/${agent}/memories/1`); // the graph is loaded: what follows reads the chain itself
    const statements = await countStatements(agent);
    const first = await json<History>(await call(`/v1/agents/${agent}/memories/${n}/history?limit=200`));
    expect(statements()).toBe(1);
    expect(first.total).toBe(n);
    expect(first.history.map((v) => v.node_id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const seen = [...first.history];
    for (let cursor = first.next_cursor; cursor !== null;) {
      const page = await json<History>(await call(`/v1/agents/${agent}/memories/1/history?limit=200&cursor=${cursor}`));
      seen.push(...page.history);
      cursor = page.next_cursor;
    }
    expect(seen.map((v) => v.node_id)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(seen.at(-1)).toMatchObject({ content: `Version ${n} of the note.`, superseded_by: null });
    expect(statements()).toBe(n / 200);
    const view = await json<{ history: unknown[]; history_next_cursor: string | null }>(await call(`/v1/agents/${agent}/memories/1`));
    expect(view.history).toHaveLength(50);
    const next = await json<History>(await call(`/v1/agents/${agent}/memories/1/history?cursor=${view.history_next_cursor}`));
    expect(next.history[0]?.node_id).toBe(51);
    // A purge of the current version takes the whole chain in one commit.
    const purged = await json<{ nodes_deleted: number[] }>(
      await call(`/v1/agents/${agent}/memories/${n}?purge=true`, { method: "DELETE" }),
    );
    expect(purged.nodes_deleted).toHaveLength(n);
    expect((await call(`/v1/agents/${agent}/memories/1/history`)).status).toBe(404);
  });

  it("refuses a cursor it did not give and a limit out of range (400)", async () => {
    const agent = freshAgent("history-query");
    const res = await importInto(agent, await fileOf([nodeLine(1, { kind: "memory", role: null })], { next_node_id: 2 }));
    expect(res.status).toBe(200);
    for (const query of ["cursor=abc", "limit=0", "limit=201", "limit=1e2", "verbose=1"]) {
      expect((await call(`/v1/agents/${agent}/memories/1/history?${query}`)).status, query).toBe(400);
    }
  });
});

interface NodeView {
  importance: number;
  links: {
    outgoing: { source: number; target: number; relation: string }[];
    incoming: { source: number; target: number; relation: string }[];
    total: { outgoing: number; incoming: number };
    next_cursor: string | null;
  };
}

describe("issue 28 finding 12: node views and tool results are unbounded", () => {
  it("an entity with 1,500 links: each view lists a page per direction with totals and a cursor, on REST, tools/call and MCP; paging reaches every link once", async () => {
    const agent = freshAgent("hub");
    const n = 1500;
    const lines: Line[] = [nodeLine(1, { kind: "entity", name: "hub", content: "Hub", role: null })];
    for (let i = 2; i <= n + 1; i++) lines.push(nodeLine(i));
    for (let i = 1; i <= 3; i++) lines.push(linkLine(1, i + 1, { relation: "相关" }));
    for (let i = 2; i <= n + 1; i++) lines.push(linkLine(i, 1, { relation: "相关" }));
    const res = await importInto(agent, await fileOf(lines, { next_node_id: n + 2 }));
    expect(res.status, await res.clone().text()).toBe(200);

    for (const path of [`/v1/agents/${agent}/nodes/1`, `/v1/agents/${agent}/memories/1`]) {
      const view = await json<NodeView>(await call(path));
      expect(view.links.total).toEqual({ outgoing: 3, incoming: n });
      expect(view.links.outgoing).toHaveLength(3);
      expect(view.links.incoming).toHaveLength(200);
      expect(view.importance).toBeGreaterThan(0);
      const sources = view.links.incoming.map((l) => l.source);
      for (let cursor = view.links.next_cursor; cursor !== null;) {
        const page = await json<NodeView>(await call(`${path}?links_limit=500&links_cursor=${cursor}`));
        expect(page.links.outgoing).toEqual([]);
        expect(page.links.incoming.length).toBeLessThanOrEqual(500);
        sources.push(...page.links.incoming.map((l) => l.source));
        cursor = page.links.next_cursor;
      }
      expect(sources).toEqual(Array.from({ length: n }, (_, i) => i + 2));
      const all = await json<NodeView>(await call(`${path}?links_limit=1000`));
      expect(all.links.incoming).toHaveLength(1000);
      for (const query of ["links_limit=1001", "links_limit=0", "links_cursor=xyz", "limit=5"]) {
        expect((await call(`${path}?${query}`)).status, query).toBe(400);
      }
    }
    // The tools page the same way: the result stays small, and the cursor is an argument.
    const tool = await json<{ content: string; result: NodeView }>(
      await call(`/v1/agents/${agent}/tools/call`, { body: { name: "get_memory_node", arguments: { node_id: 1, links_limit: 50 } } }),
    );
    expect(tool.result.links.incoming).toHaveLength(50);
    expect(tool.content.length).toBeLessThan(20_000);
    const cursor = tool.result.links.next_cursor;
    const mcp = await call(`/v1/agents/${agent}/mcp`, {
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "get_memory", arguments: { node_id: 1, links_cursor: cursor } },
      },
    });
    const answer = await json<{ result: { structuredContent: NodeView; content: { text: string }[] } }>(mcp);
    expect(answer.result.structuredContent.links.incoming[0]?.source).toBe(52);
    expect(answer.result.content[0]?.text.length).toBeLessThan(100_000);
  });
});
