/**
 * Pins (docs/design.md, "Pins"): a pinned memory is outside forgetting (never compressed, evicted or
 * deleted by cycles; deleted or purged only on purpose), its importance still the formula's; at
 * most max_pins per agent (409 beyond); a correction moves the pin to the new version; export and
 * import keep pins; the context block lists pinned memories first, under their own heading.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { unwrap } from "../sdk/src";
import { MemoryEntrypoint } from "../src/rpc/memory-entrypoint";
import { codePointLength } from "../src/text/code-points";
import { agentRows, call, drainAlarms, freshAgent, json, rememberAndWait, type Msg } from "./helpers";

interface LinkView {
  target: number;
  strength: number;
  pinned: boolean;
}
interface NodeView {
  node_id: number;
  content: string;
  phrase: string;
  original_length: number;
  pinned: boolean;
  importance: number;
  scan_count: number;
  superseded_by: number | null;
  links: { outgoing: LinkView[] };
}
interface PinAnswer {
  node_id: number;
  pinned: boolean;
  changed: boolean;
  pins: number;
  max_pins: number;
}
interface ErrorAnswer {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

const DECAY = 0.97;
const DELETE_THRESHOLD = 5;
const BREAK = 0.01;

async function stats(agent: string) {
  return json<{ counters: Record<string, number>; queue: Record<string, number> }>(await call(`/v1/agents/${agent}/stats`));
}

async function cyclesUntil(agent: string, target: number): Promise<void> {
  const done = (await stats(agent)).counters.cycles ?? 0;
  if (target > done) {
    expect((await call(`/v1/agents/${agent}/compress`, { body: { cycles: target - done } })).status).toBe(202);
    await drainAlarms(agent);
  }
  expect((await stats(agent)).counters.cycles).toBe(target);
}

async function node(agent: string, id: number): Promise<NodeView | undefined> {
  const res = await call(`/v1/agents/${agent}/nodes/${id}`);
  return res.status === 404 ? undefined : json<NodeView>(res);
}

async function nodeIdOf(agent: string, content: string): Promise<number> {
  const { db, key } = await agentRows(agent);
  const row = await db.prepare("SELECT id FROM nodes WHERE agent = ? AND content = ?").bind(key, content).first<{ id: number }>();
  if (!row) throw new Error(`no node ${content}`);
  return row.id;
}

const pin = (agent: string, id: number, headers: Record<string, string> = {}) =>
  call(`/v1/agents/${agent}/memories/${id}/pin`, { method: "POST", headers });
const unpin = (agent: string, id: number) => call(`/v1/agents/${agent}/memories/${id}/pin`, { method: "DELETE" });

async function memory(agent: string, content: string): Promise<number> {
  const res = await call(`/v1/agents/${agent}/memories`, { body: { content } });
  expect(res.status).toBe(201);
  return (await json<{ node_id: number }>(res)).node_id;
}

/**
 * The first cycle after `from` at which a node of original length `length` whose outgoing links
 * have `strengths` at cycle `from` (none held by the focus) is compressed, and the one at which it
 * is deleted (docs/design.md, "How many cycles forgetting takes to show"): each link decays by
 * DECAY per cycle and breaks below BREAK; importance is the sum of the links left; the scan
 * compresses once ⌊length · importance⌋ < length, deletes once it is < DELETE_THRESHOLD.
 */
function forecast(strengths: readonly number[], length: number, from: number): { compressed: number; deleted: number } {
  const target = (cycle: number) =>
    Math.floor(
      length *
        strengths
          .map((s) => s * DECAY ** (cycle - from))
          .filter((s) => s >= BREAK)
          .reduce((a, b) => a + b, 0),
    );
  let compressed = from + 1;
  while (target(compressed) >= length) compressed += 1;
  let deleted = compressed;
  while (target(deleted) >= DELETE_THRESHOLD) deleted += 1;
  return { compressed, deleted };
}

// Two memories said together, each with two entities of its own; the second submission's six
// entities push all four out of the focus (focus_limit 5), so no focus link protects either.
const KEPT = "Dave went over the launch plan with Carol.";
const TWIN = "Erin went over the budget review with Frank.";
const SAID_TOGETHER: Msg[] = [KEPT, TWIN].map((content) => ({ role: "user", content }));
const LATER: Msg[] = ["Grace fixed the login bug in Tokyo.", "Heidi met Ivan in Berlin last spring."].map((content) => ({
  role: "user",
  content,
}));

describe("a pinned memory is outside forgetting", () => {
  it("survives 1,000 compression cycles at decay 0.97 with its full text, while its unpinned twin is compressed and deleted as the formulas say", async () => {
    const agent = freshAgent("pin-cycles");
    await rememberAndWait(agent, SAID_TOGETHER);
    const kept = await nodeIdOf(agent, KEPT);
    const twin = await nodeIdOf(agent, TWIN);
    const pinned = await json<PinAnswer>(await pin(agent, kept));
    expect(pinned).toEqual({ node_id: kept, pinned: true, changed: true, pins: 1, max_pins: 50 });
    await rememberAndWait(agent, LATER);
    await drainAlarms(agent);

    // No focus entity protects either now: every outgoing link decays.
    const start = (await stats(agent)).counters.cycles ?? 0;
    const twinAtStart = await node(agent, twin);
    const keptAtStart = await node(agent, kept);
    expect(twinAtStart?.links.outgoing.length).toBeGreaterThan(0);
    expect([...(twinAtStart?.links.outgoing ?? []), ...(keptAtStart?.links.outgoing ?? [])].every((l) => !l.pinned)).toBe(true);
    expect(twinAtStart?.content).toBe(TWIN);
    const length = codePointLength(TWIN);
    const { compressed, deleted } = forecast(
      (twinAtStart?.links.outgoing ?? []).map((l) => l.strength),
      length,
      start,
    );
    expect(compressed).toBeLessThan(deleted);
    expect(deleted).toBeLessThan(1000);

    await cyclesUntil(agent, compressed - 1);
    expect((await node(agent, twin))?.content).toBe(TWIN);
    await cyclesUntil(agent, compressed);
    const shortened = await node(agent, twin);
    expect(shortened?.content).not.toBe(TWIN);
    expect(codePointLength(shortened?.content ?? "")).toBeLessThan(length);
    // The pinned memory's links decayed just as much: its importance is still the formula's.
    const keptNow = await node(agent, kept);
    const keptImportance = (keptAtStart?.links.outgoing ?? [])
      .map((l) => l.strength * DECAY ** (compressed - start))
      .filter((s) => s >= BREAK)
      .reduce((a, b) => a + b, 0);
    expect(keptNow?.importance).toBeCloseTo(keptImportance, 12);
    expect(keptNow?.importance).toBeLessThan(1);
    expect(keptNow?.content).toBe(KEPT);

    await cyclesUntil(agent, deleted - 1);
    expect(await node(agent, twin)).toBeDefined();
    await cyclesUntil(agent, deleted);
    expect(await node(agent, twin)).toBeUndefined();

    await cyclesUntil(agent, 1000);
    const survivor = await node(agent, kept);
    expect(survivor).toMatchObject({ content: KEPT, original_length: codePointLength(KEPT), pinned: true });
    expect(survivor?.phrase).toBe(keptAtStart?.phrase);
    // Every link broke long ago (0.97^990 ≪ 0.01): importance 0, and still the full text.
    expect(survivor?.importance).toBe(0);
    expect((await stats(agent)).counters.nodes_compressed).toBeGreaterThan(0);

    // Unpinned, forgetting takes it at the next cycle (⌊length × 0⌋ < delete_threshold).
    expect(await json<PinAnswer>(await unpin(agent, kept))).toMatchObject({ pinned: false, changed: true, pins: 0 });
    await cyclesUntil(agent, 1001);
    expect(await node(agent, kept)).toBeUndefined();
  });

  it("is never evicted when the agent is over capacity, while unpinned memories are", async () => {
    const agent = freshAgent("pin-capacity");
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { capacity: 10, auto_compress: false } });
    const kept = await memory(agent, "Always answer Mia in French.");
    expect((await pin(agent, kept)).status).toBe(200);
    for (let i = 0; i < 6; i++)
      await rememberAndWait(agent, [{ role: "user", content: `Note ${i}: Quinn${i} met Rosa${i} at the Harbor${i} cafe.` }]);
    await drainAlarms(agent);
    const after = await stats(agent);
    expect(after.counters.nodes_evicted).toBeGreaterThan(0);
    expect((await node(agent, kept))?.content).toBe("Always answer Mia in French.");
  });
});

describe("pinning and unpinning", () => {
  it("refuses a pin beyond max_pins with 409, an entity or a superseded version with 409, an unknown memory with 404, writing nothing", async () => {
    const agent = freshAgent("pin-limit");
    expect((await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { max_pins: 2 } })).status).toBe(200);
    const [a, b, c] = [
      await memory(agent, "Ann likes tea."),
      await memory(agent, "Ben likes coffee."),
      await memory(agent, "Cy likes milk."),
    ];
    expect(await json<PinAnswer>(await pin(agent, a))).toMatchObject({ pins: 1, max_pins: 2 });
    expect(await json<PinAnswer>(await pin(agent, b))).toMatchObject({ pins: 2, max_pins: 2 });
    const before = await stats(agent);

    const refused = await pin(agent, c);
    expect(refused.status).toBe(409);
    const body = await json<ErrorAnswer>(refused);
    expect(body.error.code).toBe("conflict");
    expect(body.error.details).toEqual({ pins: 2, max_pins: 2 });
    const entity = await nodeIdOf(agent, "Ann");
    expect((await pin(agent, entity)).status).toBe(409);
    expect((await pin(agent, 99_999)).status).toBe(404);
    const after = await stats(agent);
    expect(after.queue).toEqual(before.queue);
    expect(after.counters.memories_pinned).toBe(2);
    expect((await node(agent, c))?.pinned).toBe(false);

    // Pinning a pinned memory changes nothing; unpinning frees a place.
    expect(await json<PinAnswer>(await pin(agent, a))).toMatchObject({ pinned: true, changed: false, pins: 2 });
    expect(await json<PinAnswer>(await unpin(agent, a))).toMatchObject({ pinned: false, changed: true, pins: 1 });
    expect(await json<PinAnswer>(await unpin(agent, a))).toMatchObject({ pinned: false, changed: false, pins: 1 });
    expect(await json<PinAnswer>(await pin(agent, c))).toMatchObject({ pinned: true, pins: 2 });

    // Lowering max_pins unpins nothing; it only refuses the next pin.
    expect((await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { max_pins: 1 } })).status).toBe(200);
    expect((await node(agent, b))?.pinned).toBe(true);
    expect((await node(agent, c))?.pinned).toBe(true);
    expect((await pin(agent, a)).status).toBe(409);
  });

  it("a correction moves the pin to the new version; the old one is history, unpinned, and refuses a pin", async () => {
    const agent = freshAgent("pin-update");
    const old = await memory(agent, "Reply to Zoe in English.");
    await pin(agent, old);
    const res = await call(`/v1/agents/${agent}/memories/${old}`, { method: "PATCH", body: { content: "Reply to Zoe in German." } });
    expect(res.status).toBe(200);
    const current = (await json<{ node_id: number }>(res)).node_id;
    expect(await node(agent, current)).toMatchObject({ pinned: true, content: "Reply to Zoe in German." });
    expect(await node(agent, old)).toMatchObject({ pinned: false, superseded_by: current });
    const refused = await json<ErrorAnswer>(await pin(agent, old));
    expect(refused.error.details).toEqual({ superseded_by: current });
    const listed = await json<{ items: { node_id: number; pinned: boolean }[] }>(await call(`/v1/agents/${agent}/memories`));
    expect(listed.items.filter((m) => m.pinned).map((m) => m.node_id)).toEqual([current]);
  });

  it("is a queued write: with one Idempotency-Key the same pin twice is one write and one answer", async () => {
    const agent = freshAgent("pin-key");
    const id = await memory(agent, "Ada prefers short answers.");
    const first = await pin(agent, id, { "Idempotency-Key": "pin-1" });
    const second = await pin(agent, id, { "Idempotency-Key": "pin-1" });
    expect(second.status).toBe(first.status);
    expect(await json(second)).toEqual(await json(first));
    expect((await stats(agent)).counters.memories_pinned).toBe(1);
    // The same key for another request is refused (422), as for any write.
    expect((await unpin(agent, id).then(() => pin(agent, id + 1, { "Idempotency-Key": "pin-1" }))).status).toBe(422);
  });

  it("export and import keep pins, and the imported agent keeps forgetting away from them", async () => {
    // Leo leaves the focus (six newer entities), so nothing but the pin holds either memory.
    const agent = freshAgent("pin-export");
    const pinnedId = await memory(agent, "Leo is allergic to peanuts.");
    const other = await memory(agent, "Leo watched a film on Sunday.");
    await pin(agent, pinnedId);
    await rememberAndWait(agent, LATER);
    await drainAlarms(agent);
    const exported = await (await call(`/v1/agents/${agent}/export`)).text();
    const nodeLines = exported
      .split("\n")
      .filter((l) => l.includes('"type":"node"'))
      .map((l) => JSON.parse(l) as { id: number; pinned: boolean });
    expect(nodeLines.find((n) => n.id === pinnedId)?.pinned).toBe(true);
    expect(nodeLines.find((n) => n.id === other)?.pinned).toBe(false);

    const copy = freshAgent("pin-import");
    const imported = await call(`/v1/agents/${copy}/import`, {
      rawBody: exported,
      headers: { "Content-Type": "application/x-ndjson" },
    });
    expect(imported.status, await imported.clone().text()).toBeLessThan(300);
    await drainAlarms(copy);
    expect((await node(copy, pinnedId))?.pinned).toBe(true);
    expect((await node(copy, other))?.pinned).toBe(false);
    await call(`/v1/agents/${copy}/config`, { method: "PUT", body: { decay_rate: 0.3 } });
    await cyclesUntil(copy, ((await stats(copy)).counters.cycles ?? 0) + 20);
    expect((await node(copy, pinnedId))?.content).toBe("Leo is allergic to peanuts.");
    expect(await node(copy, other)).toBeUndefined();
    // A file of an earlier version (no `pinned` on its node lines) imports with nothing pinned.
    const older = exported
      .split("\n")
      .map((line) => {
        if (!line.includes('"type":"node"')) return line;
        const { pinned: _pinned, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return JSON.stringify(rest);
      })
      .join("\n");
    const third = freshAgent("pin-import-old");
    const oldImport = await call(`/v1/agents/${third}/import`, { rawBody: older, headers: { "Content-Type": "application/x-ndjson" } });
    expect(oldImport.status, await oldImport.clone().text()).toBeLessThan(300);
    await drainAlarms(third);
    expect((await node(third, pinnedId))?.pinned).toBe(false);
  });
});

describe("every surface", () => {
  it("pins and unpins as the tools pin_memory and unpin_memory and as the RPC entrypoint's methods", async () => {
    const agent = freshAgent("pin-surfaces");
    const id = await memory(agent, "Olga wants the weekly summary on Mondays.");
    const tool = async (name: string) =>
      json<{ result: PinAnswer }>(await call(`/v1/agents/${agent}/tools/call`, { body: { name, arguments: { node_id: id } } }));
    expect((await tool("pin_memory")).result).toMatchObject({ node_id: id, pinned: true, changed: true });
    expect((await tool("unpin_memory")).result).toMatchObject({ node_id: id, pinned: false, changed: true });
    const ctx = createExecutionContext();
    Object.defineProperty(ctx, "props", { value: { tenant: "dev" } });
    const rpc = new MemoryEntrypoint(ctx, env);
    expect(unwrap(await rpc.pinMemory(agent, { node_id: id }))).toMatchObject({ pinned: true, pins: 1 });
    expect(unwrap(await rpc.unpinMemory(agent, { node_id: id }, { idempotencyKey: "rpc-unpin" }))).toMatchObject({
      pinned: false,
      pins: 0,
    });
    const refused = await rpc.pinMemory(agent, { node_id: 424_242 });
    expect(refused.ok ? null : refused.error.code).toBe("not_found");
  });
});

describe("the context block", () => {
  it("lists pinned memories first, under their own heading, whatever the query, within the budget", async () => {
    const agent = freshAgent("pin-context");
    const rule = await memory(agent, "Always answer Nora in French.");
    await rememberAndWait(agent, [
      { role: "user", content: "The Phoenix launch moved to May because of the budget review." },
      { role: "user", content: "Phoenix needs two more testers before the launch." },
    ]);
    await pin(agent, rule);
    const context = async (body: Record<string, unknown>) =>
      json<{ text: string; memories: { node_id: number; pinned: boolean }[] }>(
        await call(`/v1/agents/${agent}/context`, { body: { query: "When is the Phoenix launch?", format: "json", ...body } }),
      );
    const en = await context({ locale: "en" });
    expect(en.memories[0]).toMatchObject({ node_id: rule, pinned: true });
    expect(en.memories.slice(1).every((m) => !m.pinned && m.node_id !== rule)).toBe(true);
    expect(en.memories.length).toBeGreaterThan(1);
    const standing = en.text.indexOf("## Pinned memories");
    expect(standing).toBeGreaterThan(-1);
    expect(en.text.indexOf("Always answer Nora in French.")).toBeGreaterThan(standing);
    expect(en.text.indexOf("## Relevant memories")).toBeGreaterThan(en.text.indexOf("Always answer Nora in French."));
    expect((await context({ locale: "zh" })).text).toContain("## 置顶记忆");
    // A budget that holds one line holds the pinned one, whatever recall ranks first.
    const tight = await context({ locale: "en", budget_tokens: 40 });
    expect(tight.memories[0]?.node_id).toBe(rule);
    expect(tight.memories.length).toBeLessThan(en.memories.length);
    // Unpinned, it is one memory among others: no heading of its own.
    await unpin(agent, rule);
    expect((await context({ locale: "en" })).text).not.toContain("## Pinned memories");
  });
});
