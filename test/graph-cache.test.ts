import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RecallQuerySchema } from "../src/operations/recall/schemas";
import { runRecall } from "../src/operations/recall/task";
import { SearchQuerySchema } from "../src/operations/search-memories/schemas";
import { runSearch } from "../src/operations/search-memories/task";
import type { MemoryGraph } from "../src/memory/graph";
import { CHINESE_DESIGN_REVIEW, ENGLISH_TEAM, EXCHANGE, messages } from "./fixtures";
import { agentRows, call, drainAlarms, freshAgent, json, rememberAndWait, stubOf } from "./helpers";
import { linksAsTheyStand, scanCounts, statementsDuring } from "./agent-access";
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

/** A graph in the same shape. */
function described(graph: MemoryGraph): Snapshot {
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
}

/** The in-memory graph as it stands (loading it if needed), in the same shape. */
async function fromGraph(agentId: string): Promise<Snapshot> {
  return runInDurableObject(stubOf(agentId), async (instance) => {
    const graph = await MemoryAgent.testAccess(instance).state.graph();
    if (!graph) throw new Error("no graph");
    return described(graph);
  });
}

/**
 * A graph loaded afresh from the object's own copy (its snapshot and the journal replayed), as a
 * wake loads it, with the number of journal entries replayed; the live graph is left alone.
 */
async function fromCopy(agentId: string): Promise<Snapshot & { replayed: number; records: unknown[] }> {
  return runInDurableObject(stubOf(agentId), (instance) => {
    const loaded = MemoryAgent.testAccess(instance).state.network.snapshots.load();
    if (!loaded) throw new Error("no snapshot");
    const records = loaded.graph
      .nodeIds()
      .sort((a, b) => a - b)
      .map((id) => loaded.graph.node(id));
    return { ...described(loaded.graph), replayed: loaded.replayed, records };
  });
}

/** The live graph's full node records, to compare with the copy's. */
async function liveRecords(agentId: string): Promise<unknown[]> {
  return runInDurableObject(stubOf(agentId), async (instance) => {
    const graph = await MemoryAgent.testAccess(instance).state.graph();
    return (graph?.nodeIds() ?? []).sort((a, b) => a - b).map((id) => graph?.node(id));
  });
}

/** Writes the snapshot now from the loaded graph (the quiet-second timer does it in service). */
async function writeSnapshot(agentId: string): Promise<void> {
  await runInDurableObject(stubOf(agentId), async (instance) => {
    const state = MemoryAgent.testAccess(instance).state;
    await state.graph();
    state.network.writeSnapshot();
  });
}

/** Drops the object's graph (as a wake or a failed task does) and counts the D1 statements its next load runs. */
async function statementsOfALoad(agentId: string): Promise<number> {
  return runInDurableObject(stubOf(agentId), async (instance) => {
    const state = MemoryAgent.testAccess(instance).state;
    state.dropGraph();
    const { result, statements } = await statementsDuring(state, () => state.graph());
    if (!result) throw new Error("no graph");
    return statements;
  });
}

async function expectInStep(agentId: string, when: string): Promise<void> {
  const [d1, graph] = [await fromD1(agentId), await fromGraph(agentId)];
  expect(graph.nodes, `${when}: nodes`).toEqual(d1.nodes);
  expect(graph.links, `${when}: links`).toEqual(d1.links);
  const copy = await fromCopy(agentId);
  expect(copy.nodes, `${when}: nodes of the object's copy`).toEqual(d1.nodes);
  expect(copy.links, `${when}: links of the object's copy`).toEqual(d1.links);
  expect(copy.records, `${when}: the copy's node records`).toEqual(await liveRecords(agentId));
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
    // Load the cache now, so every later write must be mirrored into it (not re-read from D1), and
    // write the object's copy from it, so every later write must reach its journal.
    await fromGraph(agent);
    await writeSnapshot(agent);
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

  it("is loaded on a wake from the object's snapshot and journal, the same as D1 after every kind of write", async () => {
    const agent = freshAgent("copy");
    const A = `/v1/agents/${agent}`;
    // The snapshot is written by hand below (never by the quiet-second timer), to see each journal.
    await runInDurableObject(stubOf(agent), (instance) => {
      MemoryAgent.testAccess(instance).state.network.snapshotPolicy = { journalEntries: Infinity, quietMs: Infinity };
    });
    await rememberAndWait(agent, messages(ENGLISH_TEAM, "e"));
    await rememberAndWait(agent, [
      { role: "user", content: "Bobby fixed the login page on Friday." },
      { role: "user", content: "Robert reviewed the login fix." },
    ]);
    await drainAlarms(agent);
    // The first load comes from D1 and writes the copy (no snapshot yet: nothing to read).
    await expect(fromCopy(agent)).rejects.toThrow("no snapshot");
    await writeSnapshot(agent);
    expect((await fromCopy(agent)).replayed).toBe(0);
    await expectInStep(agent, "after the first snapshot");
    const created = await json<{ node_id: number }>(await call(`${A}/memories`, { body: { content: "Bobby likes green tea." } }));
    await expectInStep(agent, "after a create");
    const updated = await json<{ node_id: number }>(
      await call(`${A}/memories/${created.node_id}`, { method: "PATCH", body: { content: "Bobby likes jasmine tea." } }),
    );
    await expectInStep(agent, "after a correction");
    const link = await call(`${A}/links`, { body: { source: updated.node_id, target: 1, relation: "causes" } });
    expect(link.status, await link.clone().text()).toBe(200);
    await expectInStep(agent, "after a link");
    const unlink = await call(`${A}/links?source=${updated.node_id}&target=1&relation=causes`, { method: "DELETE" });
    expect(unlink.status).toBe(200);
    await expectInStep(agent, "after an unlink");
    const focus = await json<{ focus: { node_id: number; key: string }[] }>(await call(`${A}/focus`));
    const bobby = focus.focus.find((f) => f.key === "bobby")?.node_id;
    const robert = focus.focus.find((f) => f.key === "robert")?.node_id;
    const merge = await call(`${A}/entities/${bobby}/merge`, { body: { into: robert } });
    expect(merge.status, await merge.clone().text()).toBe(200);
    await expectInStep(agent, "after an entity merge (aliases)");
    const forget = await call(`${A}/memories/${updated.node_id}`, { method: "DELETE" });
    expect(forget.status, await forget.clone().text()).toBe(200);
    await expectInStep(agent, "after a forget");
    // Journalled so far: nothing folded yet, every entry replayed on load.
    expect((await fromCopy(agent)).replayed).toBeGreaterThanOrEqual(6);
    await writeSnapshot(agent);
    expect((await fromCopy(agent)).replayed).toBe(0);
    await expectInStep(agent, "after the journal was folded into a new snapshot");
    const secret = await json<{ node_id: number }>(await call(`${A}/memories`, { body: { content: "Robert keeps a qzorbel key." } }));
    await expectInStep(agent, "after another create");
    const purge = await call(`${A}/memories/${secret.node_id}?purge=true`, { method: "DELETE" });
    expect(purge.status, await purge.clone().text()).toBe(200);
    // A purge writes the snapshot again in its own commit: no journal entry is left behind it.
    expect((await fromCopy(agent)).replayed).toBe(0);
    await expectInStep(agent, "after a purge");
    await call(`${A}/config`, { method: "PUT", body: { decay_rate: 0.3 } });
    await call(`${A}/compress`, { body: { cycles: 4 } });
    await drainAlarms(agent);
    await expectInStep(agent, "after compression cycles");
    // A fresh load takes the copy, not D1: the graph is dropped as after a failed task, and no D1
    // statement runs while it is loaded again.
    const statements = await statementsOfALoad(agent);
    expect(statements, "D1 statements while the graph loaded").toBe(0);
    await expectInStep(agent, "after a load from the copy");
    // An agent's deletion leaves no copy; the next load is from D1 (empty) and writes a new one.
    expect([200, 202]).toContain((await call(A, { method: "DELETE" })).status);
    await drainAlarms(agent);
    await expect(fromCopy(agent)).rejects.toThrow("no snapshot");
  });

  it("is built from D1 once an agent that only took writes is quiet (the background build), so its next wake reads no D1 statement", async () => {
    const agent = freshAgent("quiet");
    // A quiet "second" longer than the test: the timer never fires by itself, settle() runs it.
    await runInDurableObject(stubOf(agent), (instance) => {
      MemoryAgent.testAccess(instance).state.network.snapshotPolicy = { journalEntries: 64, quietMs: 10 * 60_000 };
    });
    await rememberAndWait(agent, messages(ENGLISH_TEAM, "q"));
    await rememberAndWait(agent, [{ role: "user", content: "Bobby fixed the login page on Friday." }]);
    await drainAlarms(agent);
    const copyBefore = await runInDurableObject(stubOf(agent), (instance) =>
      MemoryAgent.testAccess(instance).state.network.snapshots.exists(),
    );
    expect(copyBefore, "a copy before the agent was quiet").toBe(false);
    // What the quiet-second timer runs, now: the graph is loaded from D1 and written to the copy.
    await runInDurableObject(stubOf(agent), (instance) => MemoryAgent.testAccess(instance).state.network.settle());
    expect((await fromCopy(agent)).replayed).toBe(0);
    await expectInStep(agent, "after the background build");
    expect(await statementsOfALoad(agent), "D1 statements while the graph loaded after the build").toBe(0);
    // Writes after it are journalled and folded on the next quiet second, still without D1 reads.
    await rememberAndWait(agent, [{ role: "user", content: "Robert reviewed the login fix on Monday." }]);
    await drainAlarms(agent);
    expect((await fromCopy(agent)).replayed, "journal entries before the quiet work").toBeGreaterThan(0);
    await runInDurableObject(stubOf(agent), async (instance) => {
      const state = MemoryAgent.testAccess(instance).state;
      state.dropGraph();
      await state.network.settle();
    });
    expect((await fromCopy(agent)).replayed).toBe(0);
    await expectInStep(agent, "after the journal was folded while quiet");
    expect(await statementsOfALoad(agent)).toBe(0);
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
      // The graph as a wake loads it from the object's copy (its BM25 index read from the packed
      // arrays, its nodes' terms analysed on first need): the same answers again.
      state.network.writeSnapshot();
      state.dropGraph();
      expect(state.network.snapshots.load()?.replayed, "a copy with nothing to replay").toBe(0);
      const fromCopy = await state.graph();
      expect(fromCopy?.nodeCount).toBeGreaterThan(0);
      for (const [i, r] of requests.entries())
        expect(await runRecall(state, recallQuery(r)), `copy: ${JSON.stringify(r)}`).toEqual(cached[i]);
      for (const query of ["Phoenix budget", "登录模块 JWT", "Tokyo trip"]) {
        const found = await runSearch(state, SearchQuerySchema.parse({ query, mode: "keyword", top_k: 50, kinds: ["segment"] }));
        expect(found, `copy: ${query}`).toEqual(cachedSearch.get(query));
      }
      expect(await selected()).toEqual(cachedSelected);
    });
  });
});
