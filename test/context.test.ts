/**
 * Context for prompts (docs/design.md §12): episodes, the profile, and the context block within its
 * token budget — the pure pieces and the endpoints.
 */
import { CONTEXT_FRAME } from "../src/vocabulary/frames";
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { energyOf } from "../src/memory/energy";
import { EPISODE_SUMMARY_MAX } from "../src/memory/episode";
import type { SmallModel } from "../src/models/types";
import { storeKey } from "../src/storage/api-keys";
import { createDb } from "../src/storage/db";
import { codePointLength } from "../src/text/code-points";
import { estimateTokens } from "../src/text/token-estimate";
import { RELATION } from "../src/vocabulary/relations";
import { CHINESE_DESIGN_REVIEW, ENGLISH_TEAM, messages } from "./fixtures";
import { call, drainAlarms, freshAgent, json, rememberAndWait, stubOf, type Msg } from "./helpers";
import { MemoryAgent } from "../src/agent/memory-agent";

interface ContextJson {
  query: string;
  budget_tokens: number;
  used_tokens: number;
  text: string;
  memories: { node_id: number; content: string; energy: string; importance: number; entities: string[]; conflicts_with: number[] }[];
  episodes: { node_id: number; summary: string; participants: string[]; from: number | null; to: number | null }[];
  profile: { participants: { name: string; messages: number }[] } | null;
  traces: { phrase: string }[];
}

const context = async (agent: string, body: Record<string, unknown>) =>
  call(`/v1/agents/${agent}/context`, { body: { format: "json", ...body } });

const DAY = 86_400_000;

const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);

/** A team chat in English over several submissions, with names, times and a recurring topic. */
const sessions: Msg[][] = [
  [
    {
      role: "user",
      name: "Alice",
      content: "The Phoenix launch moved to Friday because the payment audit is late.",
      timestamp: T0,
      id: "p1",
    },
    {
      role: "assistant",
      name: "Bob",
      content: "Then the Phoenix press release needs a new date as well.",
      timestamp: T0 + 60_000,
      id: "p2",
    },
    {
      role: "user",
      name: "Alice",
      content: "Carol owns the payment audit; she expects it done by Wednesday.",
      timestamp: T0 + 120_000,
      id: "p3",
    },
  ],
  [
    { role: "user", name: "Dave", content: "Grace fixed the login bug in the Phoenix dashboard.", timestamp: T0 + DAY, id: "p4" },
    {
      role: "assistant",
      name: "Bob",
      content: "Good. The dashboard goes to Tokyo customers next month.",
      timestamp: T0 + DAY + 60_000,
      id: "p5",
    },
  ],
];

/** Replaces the agent's model summary (returns the previous one) to simulate older submissions. */
async function swapSummary(agent: string, summarize: SmallModel["summarize"]): Promise<SmallModel["summarize"]> {
  return runInDurableObject(stubOf(agent), (instance) => {
    const { state } = MemoryAgent.testAccess(instance);
    const model = state.models.primaryModel;
    const previous = model.summarize.bind(model);
    model.summarize = summarize;
    return previous;
  });
}

describe("episodes", () => {
  it("each remember yields one episode: a summary within its bound, its participants and span, linked both ways", async () => {
    const agent = freshAgent("episodes");
    const first = await rememberAndWait(agent, sessions[0] ?? []);
    const id = first.result?.episode_id;
    expect(typeof id).toBe("number");
    const episode = await json<{
      kind: string;
      content: string;
      meta: Record<string, unknown>;
      source_message_ids: string[];
      links: { outgoing: { relation: string; target: number }[]; incoming: { relation: string; source: number }[] };
    }>(await call(`/v1/agents/${agent}/nodes/${id}`));
    expect(episode.kind).toBe("episode");
    expect(codePointLength(episode.content)).toBeLessThanOrEqual(EPISODE_SUMMARY_MAX);
    for (const word of ["Phoenix", "payment audit"]) expect(episode.content).toContain(word);
    expect(episode.meta).toMatchObject({
      participants: [
        { name: "Alice", messages: 2 },
        { name: "Bob", messages: 1 },
      ],
      from: T0,
      to: T0 + 120_000,
    });
    expect(episode.source_message_ids).toEqual(["p1", "p2", "p3"]);
    expect(episode.links.outgoing.every((l) => l.relation === RELATION.contains)).toBe(true);
    expect(episode.links.outgoing.length).toBe(first.result?.segments);
    expect(episode.links.incoming.filter((l) => l.relation === RELATION.partOf)).toHaveLength(Number(first.result?.segments));

    const zh = freshAgent("episodes-zh");
    const task = await rememberAndWait(zh, messages(CHINESE_DESIGN_REVIEW, "z", { name: "王伟", timestamp: T0 }));
    const zhEpisode = await json<{ content: string; meta: Record<string, unknown> }>(
      await call(`/v1/agents/${zh}/nodes/${task.result?.episode_id}`),
    );
    expect(zhEpisode.content).toContain("登录");
    expect(codePointLength(zhEpisode.content)).toBeLessThanOrEqual(EPISODE_SUMMARY_MAX);
    expect(zhEpisode.meta).toMatchObject({ participants: [{ name: "王伟", messages: 3 }], from: T0, to: T0 });
  });

  it("are found by search (kind and time range) and by recall when asked for", async () => {
    const agent = freshAgent("episodes-found");
    for (const s of sessions) await rememberAndWait(agent, s);
    const found = await json<{ items: { kind: string; time: number }[] }>(
      await call(`/v1/agents/${agent}/search`, {
        body: { query: "Phoenix dashboard", kinds: ["episode"], time_range: { from: T0 + DAY / 2 }, mode: "keyword" },
      }),
    );
    expect(found.items.length).toBe(1);
    expect(found.items[0]).toMatchObject({ kind: "episode", time: T0 + DAY });
    const plain = await json<{ items: { type: string; node_id?: number }[] }>(
      await call(`/v1/agents/${agent}/recall`, { body: { query: "Phoenix", format: "json" } }),
    );
    const kinds = async (ids: number[]) =>
      Promise.all(ids.map(async (id) => (await json<{ kind: string }>(await call(`/v1/agents/${agent}/nodes/${id}`))).kind));
    expect(await kinds(plain.items.flatMap((i) => (i.node_id ? [i.node_id] : [])))).not.toContain("episode");
    const withEpisodes = await json<{ items: { node_id?: number }[] }>(
      await call(`/v1/agents/${agent}/recall`, { body: { query: "Phoenix", format: "json", kinds: ["episode"] } }),
    );
    const episodeKinds = await kinds(withEpisodes.items.flatMap((i) => (i.node_id ? [i.node_id] : [])));
    expect(episodeKinds.length).toBeGreaterThan(0);
    expect(new Set(episodeKinds)).toEqual(new Set(["episode"]));
  });

  it("are rebuilt for older submissions only when asked, once", async () => {
    const agent = freshAgent("rebuild");
    // Remembered as before episodes existed: a model that gives no summary makes no episode.
    const original = await swapSummary(agent, async () => "");
    for (const s of sessions) expect((await rememberAndWait(agent, s)).result?.episode_id).toBeNull();
    await swapSummary(agent, original);
    const rebuilt = await call(`/v1/agents/${agent}/episodes/rebuild`, { method: "POST" });
    expect(rebuilt.status).toBe(200);
    expect(await json(rebuilt)).toMatchObject({ status: "done", episodes_created: 2 });
    const again = await json(await call(`/v1/agents/${agent}/episodes/rebuild`, { method: "POST" }));
    expect(again).toMatchObject({ status: "done", episodes_created: 0 });
    const stats = await json<{ nodes: { episodes: number } }>(await call(`/v1/agents/${agent}/stats`));
    expect(stats.nodes.episodes).toBe(2);
  });
});

describe("the profile", () => {
  interface ProfileJson {
    participant: string | null;
    participants: { name: string; messages: number }[];
    lines: { participant: string; text: string; memory_ids: number[] }[];
    entities: { node_id: number; name: string; importance: number; memory_ids: number[] }[];
    focus: { name: string }[];
    text: string;
    max_chars: number;
  }

  it("lists the participants by messages and, for each, lines of their own words backed by their memories", async () => {
    const agent = freshAgent("profile");
    for (const s of sessions) await rememberAndWait(agent, s);
    await drainAlarms(agent);
    const profile = await json<ProfileJson>(await call(`/v1/agents/${agent}/profile?locale=en`));
    expect(profile.participants).toEqual([
      { name: "Alice", messages: 2 },
      { name: "Bob", messages: 2 },
      { name: "Dave", messages: 1 },
    ]);
    expect(profile).toMatchObject({ participant: null, max_chars: 2000 });
    expect(profile.lines.length).toBeGreaterThan(0);
    const said = new Map(sessions.flat().map((m) => [m.id, m]));
    for (const line of profile.lines) {
      expect(line.memory_ids.length).toBe(1);
      const memory = await json<{ content: string; speaker: string | null; source_message_ids: string[] }>(
        await call(`/v1/agents/${agent}/memories/${line.memory_ids[0]}`),
      );
      expect(memory.content).toContain(line.text);
      expect(memory.source_message_ids.map((id) => said.get(id)?.name)).toContain(line.participant);
    }
    for (const e of profile.entities) expect(e.memory_ids.every((id) => profile.lines.some((l) => l.memory_ids.includes(id)))).toBe(true);
    expect(profile.entities.map((e) => e.name)).toContain("Phoenix");
    expect(profile.focus.length).toBeGreaterThan(0);
    expect(profile.text).toContain("Participants: Alice (2), Bob (2), Dave (1)");
    expect([...profile.text].length).toBeLessThanOrEqual(2000);
    // An English agent: English unless the request asks for Chinese, by locale or by Accept-Language.
    expect((await json<{ text: string }>(await call(`/v1/agents/${agent}/profile`))).text).toContain("Participants: Alice (2)");
    const zh = await json<{ text: string }>(await call(`/v1/agents/${agent}/profile?locale=zh`));
    expect(zh.text).toContain("参与者：Alice（2）、Bob（2）、Dave（1）");
    const accepted = await call(`/v1/agents/${agent}/profile`, { headers: { "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8" } });
    expect((await json<{ text: string }>(accepted)).text).toContain("参与者：Alice（2）、Bob（2）、Dave（1）");
  });

  it("for one participant (any case) only their lines, within max_chars; reading it changes no importance", async () => {
    const agent = freshAgent("profile-one");
    for (const s of sessions) await rememberAndWait(agent, s);
    await drainAlarms(agent);
    const importance = async () =>
      Promise.all(
        [1, 2, 3, 4, 5, 6].map(
          async (id) => (await json<{ importance: number }>(await call(`/v1/agents/${agent}/nodes/${id}`))).importance,
        ),
      );
    const before = await importance();
    const alice = await json<ProfileJson>(await call(`/v1/agents/${agent}/profile?participant=alice&max_chars=300`));
    expect(alice.participant).toBe("Alice");
    expect(alice.max_chars).toBe(300);
    expect(alice.lines.length).toBeGreaterThan(0);
    expect(alice.lines.every((l) => l.participant === "Alice")).toBe(true);
    expect([...alice.text].length).toBeLessThanOrEqual(300);
    expect(alice.text).not.toContain("Participants:");
    expect(alice.text).toContain("About Alice:\n- ");
    expect(await importance()).toEqual(before);
    const nobody = await json<ProfileJson>(await call(`/v1/agents/${agent}/profile?participant=Zed`));
    expect(nobody).toMatchObject({ participant: "Zed", lines: [], entities: [] });
    for (const bad of ["max_chars=99", "max_chars=20001", "max_chars=1e3", "max_chars=0300", "participant="]) {
      expect((await call(`/v1/agents/${agent}/profile?${bad}`)).status, bad).toBe(400);
    }
  });

  it("forgets what the network forgot: a deleted memory's line is gone from the next profile, and a new memory can enter it", async () => {
    const agent = freshAgent("profile-forgets");
    for (const s of sessions) await rememberAndWait(agent, s);
    const url = `/v1/agents/${agent}/profile?participant=Alice`;
    const before = await json<ProfileJson>(await call(url));
    const gone = before.lines[0]?.memory_ids[0];
    expect(gone).toBeDefined();
    expect((await call(`/v1/agents/${agent}/memories/${gone}`, { method: "DELETE" })).status).toBe(200);
    const after = await json<ProfileJson>(await call(url));
    expect(after.lines.flatMap((l) => l.memory_ids)).not.toContain(gone);
    await rememberAndWait(agent, [
      { role: "user", name: "Alice", content: "I started a pottery class with my sister in Lisbon.", id: "p9" },
    ]);
    const added = await json<ProfileJson>(await call(url));
    expect(added.lines.map((l) => l.text)).toContain("I started a pottery class with my sister in Lisbon.");
  });

  it("in the context block, the participants of the request's messages come first", async () => {
    const agent = freshAgent("profile-first");
    for (const s of sessions) await rememberAndWait(agent, s);
    await drainAlarms(agent);
    const block = async (name: string) =>
      json<ContextJson>(
        await context(agent, {
          messages: [{ role: "user", name, content: "What about the Phoenix launch?" }],
          include: ["profile"],
          budget_tokens: 2000,
        }),
      );
    const heading = (text: string) => /^About (Alice|Bob|Dave):$/m.exec(text)?.[1];
    expect(heading((await block("Dave")).text)).toBe("Dave");
    expect(heading((await block("Bob")).text)).toBe("Bob");
  });
});

describe("the context block", () => {
  it("never exceeds budgets of 50, 200, 1,000 and 5,000 tokens, and shows energy and entities as the network says", async () => {
    const agent = freshAgent("ctx");
    for (const s of sessions) await rememberAndWait(agent, s);
    await rememberAndWait(agent, messages(ENGLISH_TEAM, "e"));
    await drainAlarms(agent);
    let previous = 0;
    for (const budget of [50, 200, 1000, 5000]) {
      const res = await context(agent, { query: "Phoenix launch and the payment audit", budget_tokens: budget, locale: "en" });
      expect(res.status).toBe(200);
      const block = await json<ContextJson>(res);
      expect(estimateTokens(block.text)).toBeLessThanOrEqual(budget);
      expect(block.used_tokens).toBeLessThanOrEqual(budget);
      expect(block.memories.length).toBeGreaterThanOrEqual(previous);
      previous = block.memories.length;
      for (const m of block.memories) {
        expect(m.energy).toBe(energyOf(m.importance));
        expect(block.text).toContain(`${m.energy} `);
      }
    }
    expect(previous).toBeGreaterThan(1);
    const text = await (
      await call(`/v1/agents/${agent}/context`, { body: { query: "payment audit", budget_tokens: 300, locale: "en" } })
    ).text();
    // The frame first (stored memory, not instructions), then the sections.
    expect(text.startsWith(`${CONTEXT_FRAME.en}\n## Relevant memories\n`)).toBe(true);
    expect(text).toContain("payment audit");
    // Built from the latest messages when no query is given.
    const fromMessages = await json<ContextJson>(
      await context(agent, {
        messages: [
          { role: "user", content: "hi" },
          { role: "user", content: "Who owns the payment audit?" },
        ],
        budget_tokens: 300,
      }),
    );
    expect(fromMessages.query).toContain("payment audit");
    expect(fromMessages.memories.some((m) => m.content.includes("Carol owns the payment audit"))).toBe(true);
  });

  it("leads with the latest episode when asked about the last conversation, in Chinese too", async () => {
    const agent = freshAgent("ctx-past");
    for (const s of sessions) await rememberAndWait(agent, s);
    const block = await json<ContextJson>(
      await context(agent, { query: "What did we talk about last time?", budget_tokens: 400, locale: "en" }),
    );
    expect(block.episodes.length).toBeGreaterThan(0);
    expect(block.episodes[0]?.summary).toContain("dashboard");
    expect(block.text.startsWith(`${CONTEXT_FRAME.en}\n## Previous conversations\n- `)).toBe(true);
    expect(block.text).toContain("Dave, Bob");
    const zhAgent = freshAgent("ctx-past-zh");
    await rememberAndWait(zhAgent, messages(CHINESE_DESIGN_REVIEW, "z", { name: "王伟", timestamp: T0 }));
    const zh = await (await call(`/v1/agents/${zhAgent}/context`, { body: { query: "我们上次聊了什么？", budget_tokens: 400 } })).text();
    expect(zh.startsWith(`${CONTEXT_FRAME.zh}\n## 以往对话\n- `)).toBe(true);
    expect(zh).toContain("王伟；2026-03-10");
    // A topic question gets no episode.
    expect((await json<ContextJson>(await context(agent, { query: "Phoenix launch", budget_tokens: 400 }))).episodes).toEqual([]);
  });

  it("never shows a superseded memory and marks a conflict", async () => {
    const agent = freshAgent("ctx-marks");
    await rememberAndWait(agent, [
      { role: "user", content: "Alice likes green tea in the morning." },
      { role: "user", content: "Alice hates green tea, she only drinks coffee." },
      { role: "user", content: "Alice lives in Paris near the river." },
      { role: "user", content: "Alice moved to Berlin last spring." },
    ]);
    // The conflict check on write (docs/design.md §11) judged the pairs: Berlin supersedes Paris,
    // likes and hates contradict each other.
    const ids = async (q: string) => (await json<ContextJson>(await context(agent, { query: q, budget_tokens: 2000 }))).memories;
    const before = await ids("Alice tea Paris Berlin");
    const find = (text: string) => before.find((m) => m.content.includes(text))?.node_id ?? -1;
    const [likes, hates, berlin] = [find("likes green tea"), find("hates green tea"), find("Berlin")];
    expect(Math.min(likes, hates, berlin)).toBeGreaterThan(0);
    const after = await ids("Alice tea Paris Berlin");
    expect(after.map((m) => m.content).join(" ")).not.toContain("Paris");
    expect(after.find((m) => m.node_id === likes)?.conflicts_with).toEqual([hates]);
    const text = await (
      await call(`/v1/agents/${agent}/context`, { body: { query: "Alice tea", budget_tokens: 2000, locale: "en" } })
    ).text();
    expect(text).toMatch(/likes green tea in the morning\.[^\n]*\(conflicts with another memory\)/);
    // The old memory is gone; the new one took over its links (the Paris entity among them).
    expect(text).not.toContain("lives in Paris");
    expect(text).toMatch(/moved to Berlin last spring\.[^\n]*Paris/);
  });

  it("refuses bad input with 400 and writes nothing; another tenant's agent of the same name sees nothing", async () => {
    const agent = freshAgent("ctx-bad");
    for (const body of [
      { query: "x", messages: [{ role: "user", content: "y" }] },
      { query: "x", budget_tokens: 5 },
      { query: "x", budget_tokens: 40_000 },
      { query: "x", include: ["everything"] },
      { query: "x", extra: true },
      { query: "\ud800" },
      { messages: [] },
    ]) {
      const res = await call(`/v1/agents/${agent}/context`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call(`/v1/agents/${agent}/profile?locale=fr`)).status).toBe(400);
    expect((await call(`/v1/agents/${agent}/profile?extra=1`)).status).toBe(400);
    const stats = await json<{ nodes: { total: number }; queue: { done: number } }>(await call(`/v1/agents/${agent}/stats`));
    expect(stats).toMatchObject({ nodes: { total: 0 }, queue: { done: 0 } });

    await rememberAndWait(agent, sessions[0] ?? []);
    await storeKey(createDb(env.DB), "key-ctx-other", "tenant-ctx-other", "test", Date.now());
    const other = await call(`/v1/agents/${agent}/context`, { key: "key-ctx-other", body: { query: "Phoenix launch", format: "json" } });
    expect(await json(other)).toMatchObject({ memories: [], episodes: [], text: "" });
    const profile = await json<{ participants: unknown[]; entities: unknown[] }>(
      await call(`/v1/agents/${agent}/profile`, { key: "key-ctx-other" }),
    );
    expect(profile).toMatchObject({ participants: [], entities: [] });
  });
});
