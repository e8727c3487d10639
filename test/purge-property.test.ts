/**
 * The purge contract as a property (docs/design.md, "Purge"; issue 34): agents remember random
 * texts carrying unique marker words (through remember, with and without a speaker's name, and
 * through create_memory, plain or structured, over REST and tools/call), some with
 * Idempotency-Keys; some are corrected (PATCH or update_memory), some forgotten, and most purged
 * (over REST, tools/call or MCP), forgotten first or not, superseded or not, in two rounds with new
 * writes between them. Then every surface (test/purge-surfaces.ts) is searched: no marker of a
 * purged memory may be readable anywhere, every Idempotency-Key of a purged write answers 409, and
 * every kept memory's markers are still in the export (the search is not blind). The object's own
 * tables are searched too, its copy of the network (snapshot and journal) among them, written
 * before the corrections and purges so that they reach its journal. Seeded; at least 200 purges
 * in all.
 */
import { runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryAgent } from "../src/agent/memory-agent";
import { call, freshAgent, json, stubOf } from "./helpers";
import { everySurface, memoriesOf, occurrences, type Replay } from "./purge-surfaces";

type Via = "remember" | "remember-named" | "create" | "create-structured" | "create-tool";
type Fate = "keep" | "forget" | "purge" | "forget-then-purge";
type PurgeVia = "rest" | "tools" | "mcp";

interface Plan {
  via: Via;
  keyed: boolean;
  update: "none" | "rest" | "tool";
  fate: Fate;
  purgeVia: PurgeVia;
  /** Three markers for the text, three more for its correction. */
  markers: string[];
  shared: number;
}

const SHARED = ["Alice", "Berlin", "the library", "Marco", "the harbour"];
const TEMPLATES = [
  (m: string[], s: string) => `${cap(m[0])} and ${s} talked about the ${m[1]} near ${cap(m[2])}.`,
  (m: string[], s: string) => `At ${cap(m[0])} I bought a ${m[1]} for ${s}, wrapped in ${m[2]} paper.`,
  (m: string[], s: string) => `${s} recommended ${cap(m[0])}, a ${m[1]} shop run by ${cap(m[2])}.`,
];

function cap(word: string | undefined): string {
  return word ? word[0]?.toUpperCase() + word.slice(1) : "";
}

const SYLLABLES = ["ba", "ke", "ri", "do", "mu", "fa", "lo", "ne", "vi", "tu", "sa", "po", "gi", "re", "zo", "ku"];
const marker = fc.array(fc.constantFrom(...SYLLABLES), { minLength: 4, maxLength: 4 }).map((s) => `q${s.join("")}`);

const FATES: readonly Fate[] = [
  ...Array<Fate>(14).fill("purge"),
  ...Array<Fate>(8).fill("forget-then-purge"),
  ...Array<Fate>(3).fill("forget"),
  ...Array<Fate>(3).fill("keep"),
];
const PLANS_PER_AGENT = FATES.length;
/** 22 purges each: 220 in all. */
const AGENTS = 10;

const scenario = fc
  .record({
    fates: fc.shuffledSubarray([...FATES], { minLength: FATES.length, maxLength: FATES.length }),
    details: fc.array(
      fc.record({
        via: fc.constantFrom<Via>("remember", "remember-named", "create", "create-structured", "create-tool"),
        keyed: fc.boolean(),
        update: fc.constantFrom<Plan["update"]>("none", "none", "rest", "tool"),
        purgeVia: fc.constantFrom<PurgeVia>("rest", "rest", "tools", "mcp"),
        shared: fc.nat({ max: SHARED.length - 1 }),
      }),
      { minLength: PLANS_PER_AGENT, maxLength: PLANS_PER_AGENT },
    ),
    markers: fc.uniqueArray(marker, { minLength: PLANS_PER_AGENT * 7, maxLength: PLANS_PER_AGENT * 7 }),
  })
  .map(({ fates, details, markers }): Plan[] =>
    details.map((d, i) => ({ ...d, fate: fates[i] ?? "keep", markers: markers.slice(i * 7, i * 7 + 7) })),
  );

let purges = 0;
let agents = 0;

afterAll(() => {
  console.log(`purge property: ${agents} agents, ${purges} purges`);
});

interface Written {
  plan: Plan;
  /** The node the plan's write (then its correction) made: the memory to forget or purge. */
  nodeId: number;
  taskIds: string[];
  replays: Replay[];
}

function textOf(plan: Plan, corrected: boolean): string {
  const m = plan.markers.slice(corrected ? 3 : 0, corrected ? 6 : 3);
  const template = TEMPLATES[(plan.shared + (corrected ? 1 : 0)) % TEMPLATES.length] ?? TEMPLATES[0];
  return template?.(m, SHARED[plan.shared] ?? "Alice") ?? "";
}

async function toolCall(agent: string, name: string, args: Record<string, unknown>, key?: string): Promise<Response> {
  return call(`/v1/agents/${agent}/tools/call`, {
    body: { name, arguments: args },
    ...(key ? { headers: { "Idempotency-Key": key } } : {}),
  });
}

/** Writes the plan's memory; returns its task ids and the keyed requests to replay. */
async function write(agent: string, plan: Plan, index: number): Promise<{ taskIds: string[]; replays: Replay[]; nodeId?: number }> {
  const key = plan.keyed ? `write-${index}` : undefined;
  const headers = key ? { "Idempotency-Key": key } : undefined;
  const content = textOf(plan, false);
  const base = `/v1/agents/${agent}`;
  if (plan.via === "remember" || plan.via === "remember-named") {
    const message = { role: "user", content, ...(plan.via === "remember-named" ? { name: cap(plan.markers[6]) } : {}) };
    const body = { messages: [message] };
    const res = await call(`${base}/remember`, { body, ...(headers ? { headers } : {}) });
    expect(res.status).toBe(202);
    const { task_id } = await json<{ task_id: string }>(res);
    return { taskIds: [task_id], replays: key ? [{ path: `${base}/remember`, method: "POST", key, body }] : [] };
  }
  if (plan.via === "create-tool") {
    const res = await toolCall(agent, "create_memory", { content }, key);
    expect(res.status).toBe(200);
    const { result } = await json<{ result: { node_id: number; task_id: string } }>(res);
    return { taskIds: [result.task_id], replays: [], nodeId: result.node_id };
  }
  const body =
    plan.via === "create-structured"
      ? { subject: cap(plan.markers[0]), memory_type: "fact", topic: `${plan.markers[1]} ${plan.markers[2]}`, object: SHARED[plan.shared] }
      : { content };
  const res = await call(`${base}/memories`, { body, ...(headers ? { headers } : {}) });
  expect(res.status).toBe(201);
  const created = await json<{ node_id: number; task_id: string }>(res);
  return {
    taskIds: [created.task_id],
    replays: key ? [{ path: `${base}/memories`, method: "POST", key, body }] : [],
    nodeId: created.node_id,
  };
}

/** Corrects the memory; returns the new version's id. */
async function correct(agent: string, written: Written, index: number): Promise<void> {
  const content = textOf(written.plan, true);
  const key = written.plan.keyed ? `update-${index}` : undefined;
  if (written.plan.update === "tool") {
    const res = await toolCall(agent, "update_memory", { node_id: written.nodeId, content }, key);
    expect(res.status, await res.clone().text()).toBe(200);
    written.nodeId = (await json<{ result: { node_id: number } }>(res)).result.node_id;
    return;
  }
  const path = `/v1/agents/${agent}/memories/${written.nodeId}`;
  const res = await call(path, { method: "PATCH", body: { content }, ...(key ? { headers: { "Idempotency-Key": key } } : {}) });
  expect(res.status, await res.clone().text()).toBe(200);
  written.nodeId = (await json<{ node_id: number }>(res)).node_id;
  if (key) written.replays.push({ path, method: "PATCH", key, body: { content } });
}

/** Forgets or purges the memory; returns the nodes a purge deleted. */
async function settle(agent: string, written: Written): Promise<number[]> {
  const { fate, purgeVia } = written.plan;
  const path = `/v1/agents/${agent}/memories/${written.nodeId}`;
  if (fate === "keep") return [];
  if (fate === "forget" || fate === "forget-then-purge") {
    const res = await call(path, { method: "DELETE" });
    expect(res.status, await res.clone().text()).toBe(200);
    if (fate === "forget") return [];
  }
  let deleted: number[];
  if (purgeVia === "rest") {
    const res = await call(`${path}?purge=true`, { method: "DELETE" });
    expect(res.status, await res.clone().text()).toBe(200);
    deleted = (await json<{ nodes_deleted: number[] }>(res)).nodes_deleted;
  } else if (purgeVia === "tools") {
    const res = await toolCall(agent, "delete_memory", { node_id: written.nodeId, purge: true });
    expect(res.status, await res.clone().text()).toBe(200);
    deleted = (await json<{ result: { nodes_deleted: number[] } }>(res)).result.nodes_deleted;
  } else {
    const res = await call(`/v1/agents/${agent}/mcp`, {
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "delete_memory", arguments: { node_id: written.nodeId, purge: true } },
      },
    });
    const answer = await json<{ result: { isError?: boolean; structuredContent: { nodes_deleted: number[] } } }>(res);
    expect(answer.result.isError ?? false, JSON.stringify(answer)).toBe(false);
    deleted = answer.result.structuredContent.nodes_deleted;
  }
  purges += 1;
  return deleted;
}

/** Every row of the object's own tables as text (blobs decoded as UTF-8), by table, through the test interface. */
async function objectTables(agent: string): Promise<Map<string, string>> {
  return runInDurableObject(stubOf(agent), (instance) => {
    const sql = MemoryAgent.testAccess(instance).state.storage.sql;
    const tables = sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
      .toArray();
    const decoder = new TextDecoder();
    return new Map(
      tables.map(({ name }) => {
        const rows = sql.exec(`SELECT * FROM "${name}"`).toArray();
        const text = rows
          .map((row) =>
            Object.values(row)
              .map((v) => (v instanceof ArrayBuffer ? decoder.decode(v) : String(v)))
              .join(" "),
          )
          .join("\n");
        return [name, text];
      }),
    );
  });
}

/** Writes the object's copy of the network now (the quiet-second timer does it in service). */
async function writeCopy(agent: string): Promise<void> {
  await runInDurableObject(stubOf(agent), async (instance) => {
    const state = MemoryAgent.testAccess(instance).state;
    // Never folded by time or length here: what the purges leave in the journal stays to be searched.
    state.network.snapshotPolicy = { journalEntries: Infinity, quietMs: Infinity };
    await state.graph();
    state.network.writeSnapshot();
    if (!state.network.snapshots.exists()) throw new Error("no snapshot written");
  });
}

/** The node ids holding each marker now (segments, memories, episodes, every version). */
async function holders(agent: string, markers: readonly string[]): Promise<Map<string, Set<number>>> {
  const out = new Map<string, Set<number>>();
  const items = await memoriesOf(agent);
  for (const m of markers) {
    const ids = new Set(items.filter((i) => occurrences(i.content, [m]).length > 0).map((i) => i.node_id));
    if (ids.size > 0) out.set(m, ids);
  }
  return out;
}

/** The head of each written memory's chain now (a conflict check may have superseded it). */
async function followHeads(agent: string, written: readonly Written[]): Promise<void> {
  const next = new Map((await memoriesOf(agent)).map((i) => [i.node_id, i.superseded_by]));
  for (const w of written) {
    for (let by = next.get(w.nodeId); by !== undefined && by !== null; by = next.get(w.nodeId)) w.nodeId = by;
  }
}

async function runAgent(plans: Plan[]): Promise<void> {
  agents += 1;
  const agent = freshAgent("purge-property");
  // No compression: a kept memory's markers must stay readable (the search's own check).
  expect((await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } })).status).toBe(200);
  const allMarkers = plans.flatMap((p) => p.markers);
  const markerHolders = new Map<string, Set<number>>();
  const deleted = new Set<number>();
  const written: Written[] = [];
  const half = Math.ceil(plans.length / 2);
  for (const round of [plans.slice(0, half), plans.slice(half)]) {
    const start = written.length;
    for (const plan of round) {
      const out = await write(agent, plan, written.length);
      written.push({ plan, nodeId: out.nodeId ?? 0, taskIds: out.taskIds, replays: out.replays });
    }
    const fresh = written.slice(start);
    // A remembered memory's node: the first (its segment; its episode comes after) holding its marker.
    const found = await holders(agent, allMarkers);
    for (const w of fresh) {
      if (w.nodeId === 0) w.nodeId = Math.min(...(found.get(w.plan.markers[0] ?? "") ?? [0]));
      expect(w.nodeId, `no node holds ${w.plan.markers[0]}`).toBeGreaterThan(0);
    }
    // The copy exists from here: corrections, forgets and purges reach its journal.
    await writeCopy(agent);
    for (const [i, w] of fresh.entries()) if (w.plan.update !== "none") await correct(agent, w, start + i);
    await followHeads(agent, fresh);
    for (const [m, ids] of await holders(agent, allMarkers)) markerHolders.set(m, new Set([...(markerHolders.get(m) ?? []), ...ids]));
    for (const w of fresh) {
      if (deleted.has(w.nodeId)) continue;
      for (const id of await settle(agent, w)) deleted.add(id);
    }
  }
  // A marker is purged when every node that held it was purged.
  const purged = [...markerHolders].filter(([, ids]) => [...ids].every((id) => deleted.has(id))).map(([m]) => m);
  const kept = written
    .filter((w) => w.plan.fate === "keep")
    .flatMap((w) => [...markerHolders].filter(([, ids]) => ids.has(w.nodeId)).map(([m]) => m));
  expect(purged.length).toBeGreaterThan(0);
  const said = await everySurface(agent, {
    words: [...purged, ...kept.slice(0, 8), ...SHARED.map((s) => s.split(" ").at(-1) ?? s)],
    taskIds: written.flatMap((w) => w.taskIds),
    replays: written.flatMap((w) => w.replays),
    nodeIds: written.filter((w) => w.plan.fate !== "keep").map((w) => w.nodeId),
  });
  expect(occurrences(said, purged), "a purged memory's marker is readable").toEqual([]);
  const tables = await objectTables(agent);
  expect(tables.get("graph_snapshot")?.length ?? 0, "the object's copy was searched").toBeGreaterThan(0);
  const copy = `${tables.get("graph_snapshot") ?? ""}\n${tables.get("graph_journal") ?? ""}`;
  expect(occurrences(copy, kept).length, "the copy holds the kept markers").toBe(kept.length);
  for (const [table, text] of tables) expect(occurrences(text, purged), `a purged marker in the object's table ${table}`).toEqual([]);
  // Every replay of a purged write's key is refused; the search sees what was kept.
  for (const w of written.filter((x) => x.plan.fate === "purge" || x.plan.fate === "forget-then-purge")) {
    for (const replay of w.replays) {
      const res = await call(replay.path, { method: replay.method, headers: { "Idempotency-Key": replay.key }, body: replay.body });
      expect(res.status, `${replay.method} ${replay.path} replayed`).toBe(409);
    }
  }
  const exported = await (await call(`/v1/agents/${agent}/export`)).text();
  expect(occurrences(exported, kept).length, "every kept marker is in the export").toBe(kept.length);
}

describe("issue 34: the purge contract as a property", () => {
  it("after purges of memories (forgotten before or not, corrected or not, with keys or not, remembered or created), no surface shows a byte of their markers", async () => {
    await fc.assert(fc.asyncProperty(scenario, runAgent), { seed: 3434, numRuns: AGENTS, endOnFailure: true });
    expect(purges).toBeGreaterThanOrEqual(200);
  }, 600_000);
});
