import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RecallQuerySchema } from "../src/operations/recall/schemas";
import { runRecall } from "../src/operations/recall/task";
import { SearchQuerySchema } from "../src/operations/search-memories/schemas";
import { runSearch } from "../src/operations/search-memories/task";
import { CHINESE_DESIGN_REVIEW, ENGLISH_TEAM, EXCHANGE, messages } from "./fixtures";
import { agentRows, call, drainAlarms, freshAgent, rememberAndWait, stubOf } from "./helpers";
import { linksAsTheyStand, scanCounts } from "./agent-access";
import { MemoryAgent } from "../src/agent/memory-agent";
import { networkReader } from "../src/engine/network-reader";

const recallQuery = (r: Record<string, unknown>) => RecallQuerySchema.parse({ keywords: [], relations: [], locale: "zh", ...r });

interface Snapshot {
  nodes: {
    id: number;
    kind: string;
    name: string | null;
    content: string;
    phrase: string;
    keywords: string;
    superseded_by: number | null;
    meta: string | null;
    pinned: number;
  }[];
  links: { source: number; target: number; relation: string; level: number }[];
}

const byKey = (a: Snapshot["links"][number], b: Snapshot["links"][number]) =>
  a.source - b.source || a.target - b.target || (a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : 0);

/** The rows in D1, every link at its level as it stands (computed independently of the agent's SQL). */
async function fromD1(agentId: string): Promise<Snapshot> {
  const { db, key } = await agentRows(agentId);
  const nodes = await db
    .prepare("SELECT id, kind, name, content, phrase, keywords, superseded_by, meta, pinned FROM nodes WHERE agent = ? ORDER BY id")
    .bind(key)
    .all<Snapshot["nodes"][number]>();
  const links = await linksAsTheyStand(agentId);
  return { nodes: nodes.results, links: links.sort(byKey) };
}

/** The in-memory graph as it stands (loading it if needed), in the same shape. */
async function fromGraph(agentId: string): Promise<Snapshot> {
  return runInDurableObject(stubOf(agentId), async (instance) => {
    const graph = await MemoryAgent.testAccess(instance).state.graph();
    if (!graph) throw new Error("no graph");
    const nodes = graph
      .nodeIds()
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const n = graph.node(id);
        return n
          ? [
              {
                id: n.id,
                kind: n.kind,
                name: n.name,
                content: n.content,
                phrase: n.phrase,
                keywords: JSON.stringify(n.keywords),
                superseded_by: n.supersededBy,
                meta: n.meta === null ? null : JSON.stringify(n.meta),
                pinned: n.pinned ? 1 : 0,
              },
            ]
          : [];
      });
    const links = graph
      .allLinks()
      .map((l) => ({ source: l.source, target: l.target, relation: l.relation, level: l.level }))
      .sort(byKey);
    return { nodes, links };
  });
}

async function expectInStep(agentId: string, when: string): Promise<void> {
  const [d1, graph] = [await fromD1(agentId), await fromGraph(agentId)];
  expect(graph.nodes, `${when}: nodes`).toEqual(d1.nodes);
  expect(graph.links, `${when}: links`).toEqual(d1.links);
  // The object's scan bookkeeping covers exactly the nodes that exist.
  expect(
    [...(await scanCounts(agentId)).keys()].sort((a, b) => a - b),
    `${when}: scan rows`,
  ).toEqual(d1.nodes.map((n) => n.id));
}

describe("the in-memory graph", () => {
  it("stays identical to the D1 rows through every kind of write", async () => {
    const agent = freshAgent("cache");
    await rememberAndWait(agent, messages(ENGLISH_TEAM, "e"));
    await drainAlarms(agent);
    // Load the cache now, so every later write must be mirrored into it (not re-read from D1).
    await fromGraph(agent);
    await rememberAndWait(agent, messages(CHINESE_DESIGN_REVIEW, "z"));
    await rememberAndWait(agent, [{ role: "user", content: "alice presented the Phoenix roadmap to Grace." }]);
    await drainAlarms(agent);
    await expectInStep(agent, "after remembers (new and re-entered focus, unpinned links)");

    // Corrections and a merge move links (src/memory/link-moves.ts): to the new version (a PATCH,
    // and the conflict check's update), to the surviving entity; a link the receiving node already
    // holds as strong is left as it stands.
    await rememberAndWait(agent, [{ role: "user", content: "Alice: I live in Paris." }]);
    await rememberAndWait(agent, [{ role: "user", content: "Alice: I moved to Berlin." }]);
    await drainAlarms(agent);
    const before = await fromD1(agent);
    const phoenix = before.nodes.find((n) => n.kind === "segment" && n.content.includes("Phoenix"));
    const [alice, grace] = ["alice", "grace"].map((name) => before.nodes.find((n) => n.kind === "entity" && n.name === name));
    if (!phoenix || !alice || !grace) throw new Error("fixture: no Phoenix segment, alice or grace");
    const patched = await call(`/v1/agents/${agent}/memories/${phoenix.id}`, {
      method: "PATCH",
      body: { content: "alice presented the Phoenix roadmap to Grace and Bob." },
    });
    expect(patched.status).toBe(200);
    const merged = await call(`/v1/agents/${agent}/entities/${grace.id}/merge`, { body: { into: alice.id } });
    expect(merged.status).toBe(200);
    await drainAlarms(agent);
    const counters = ((await (await call(`/v1/agents/${agent}/stats`)).json()) as { counters: Record<string, number> }).counters;
    expect(counters.memories_updated).toBe(1);
    expect(counters.conflicts_updates).toBeGreaterThan(0);
    await expectInStep(agent, "after corrections and a merge");

    // Pins (patchNodes), then a correction of a pinned memory (the old version patched as
    // superseded and unpinned, the new one pinned, links moved), a deletion and an unpin.
    const listed = (await (await call(`/v1/agents/${agent}/memories?limit=4`)).json()) as { items: { node_id: number }[] };
    const [corrected, deleted, pinned, unpinned] = listed.items.map((m) => m.node_id);
    const pin = (id: number | undefined, method: "POST" | "DELETE") => call(`/v1/agents/${agent}/memories/${id}/pin`, { method });
    for (const id of [corrected, pinned, unpinned]) expect((await pin(id, "POST")).status).toBe(200);
    await expectInStep(agent, "after pins");
    expect(
      (
        await call(`/v1/agents/${agent}/memories/${corrected}`, {
          method: "PATCH",
          body: { content: "alice moved the Phoenix launch to May." },
        })
      ).status,
    ).toBe(200);
    expect((await call(`/v1/agents/${agent}/memories/${deleted}`, { method: "DELETE" })).status).toBe(200);
    expect((await pin(unpinned, "DELETE")).status).toBe(200);
    await expectInStep(agent, "after a correction of a pinned memory, a deletion and an unpin");

    // Strong decay: links break, nodes are compressed and deleted, dangling links appear.
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { decay_rate: 0.3 } });
    await call(`/v1/agents/${agent}/compress`, { body: { cycles: 4 } });
    await drainAlarms(agent);
    const stats = (await (await call(`/v1/agents/${agent}/stats`)).json()) as {
      counters: Record<string, number>;
      links: { dangling: number };
    };
    expect(stats.counters.links_broken).toBeGreaterThan(0);
    expect(stats.counters.nodes_deleted).toBeGreaterThan(0);
    await expectInStep(agent, "after compression cycles");

    // Capacity eviction.
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { capacity: 10, decay_rate: 0.97 } });
    await rememberAndWait(agent, messages(ENGLISH_TEAM, "f"));
    await drainAlarms(agent);
    await expectInStep(agent, "after capacity eviction");
  });

  // Both paths score full-text hits with the agent's own BM25 statistics, so search scores and the
  // hybrid start's entry points are identical too.
  it("answers recall and search exactly as the database path does", async () => {
    // A question and its answer by two speakers: the answer is scored with the question's words.
    const agent = freshAgent("same");
    await rememberAndWait(agent, messages(ENGLISH_TEAM, "e"));
    await rememberAndWait(agent, messages(CHINESE_DESIGN_REVIEW, "z"));
    await rememberAndWait(agent, EXCHANGE);
    await drainAlarms(agent);
    const requests = [
      { query: "Who made the plate in pottery class?", start: "hybrid" },
      { keywords: ["Phoenix", "budget"], depth: 3, start: "focus" },
      { keywords: [], depth: 2, limit: 50, start: "focus" },
      { keywords: ["登录"], relations: ["关于", "下文"], start: "focus" },
      { query: "Who planned the Tokyo trip?", start: "focus" },
      { query: "Who planned the Tokyo trip?", start: "hybrid" },
      { keywords: ["登录", "budget"], start: "hybrid", limit: 20 },
    ];
    await runInDurableObject(stubOf(agent), async (instance) => {
      const state = MemoryAgent.testAccess(instance).state;
      const cached = [];
      for (const r of requests) cached.push(await runRecall(state, recallQuery(r)));
      const cachedSearch = new Map<string, unknown>();
      for (const query of ["Phoenix budget", "登录模块 JWT", "Tokyo trip"]) {
        const found = await runSearch(state, SearchQuerySchema.parse({ query, mode: "keyword", top_k: 50, kinds: ["segment"] }));
        expect(found.items.length, query).toBeGreaterThan(0);
        cachedSearch.set(query, found);
      }
      const selections = [{ kind: "segment", supersededBy: null }, { kind: "entity" }, { speaker: "Nobody" }] as const;
      const selected = async () => {
        const reader = await networkReader(state, await state.repos());
        return Promise.all(selections.map((filter) => reader.find(filter, 7)));
      };
      const cachedSelected = await selected();
      expect(cachedSelected.map((found) => found.length)).toEqual([7, 7, 0]);
      // The same state without its graph: every read goes to D1.
      const graph = state.graph.bind(state);
      state.graph = async () => undefined;
      try {
        for (const [i, r] of requests.entries()) expect(await runRecall(state, recallQuery(r)), JSON.stringify(r)).toEqual(cached[i]);
        // Full-text search from D1 (FTS5 finds, the agent's own statistics score): the same items and scores.
        for (const query of ["Phoenix budget", "登录模块 JWT", "Tokyo trip"]) {
          const fromD1 = await runSearch(state, SearchQuerySchema.parse({ query, mode: "keyword", top_k: 50, kinds: ["segment"] }));
          expect(fromD1, query).toEqual(cachedSearch.get(query));
        }
        // Nodes selected by their fields: the same nodes, newest first, in full.
        expect(await selected()).toEqual(cachedSelected);
      } finally {
        state.graph = graph;
      }
    });
  });
});
