import { describe, expect, it } from "vitest";
import { CHINESE_DESIGN_REVIEW, ENGLISH_TEAM, EXCHANGE, messages } from "./fixtures";
import { agentRows, call, freshAgent, json, recallJson, recallText, rememberAndWait, type Msg } from "./helpers";

// The same conversation as test/network.test.ts: final focus Grace, login bug, Frank, Erin, Tokyo
// trip. Depth 1 from the focus reaches segments 3–4; segment 2 ("Carol …") is two layers out (via
// Frank → segment 3 → 上文), segment 1 three.
const english: Msg[] = messages(ENGLISH_TEAM, "e", { name: "Sam" });

const chinese: Msg[] = messages(CHINESE_DESIGN_REVIEW, "z");

async function englishAgent(): Promise<string> {
  const agent = freshAgent("recall-en");
  // The network as remembered: no compression cycle shortens or forgets anything of it.
  await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } });
  await rememberAndWait(agent, english);
  return agent;
}

describe("recall", () => {
  // start: "focus" is the original design's recall: the BFS enters the network at the focus only.
  it("reaches one more layer with depth 2 than with depth 1", async () => {
    const agent = await englishAgent();
    expect(await recallText(agent, { keywords: ["Carol"], depth: 1, start: "focus" })).toBe("");
    // At depth 2 Carol's segment is reached; the segment after it (上文 link, reached too) ranks
    // below it with Carol's name as context.
    expect((await recallText(agent, { keywords: ["Carol"], depth: 2, start: "focus" })).split("\n---\n")).toEqual([
      "[memory] Sam: Carol reviews the budget with Dave.",
      "[memory] Sam: Erin and Frank planned the Tokyo trip.",
    ]);
    const d1 = await recallJson(agent, { keywords: [], depth: 1, limit: 100, start: "focus" });
    const d2 = await recallJson(agent, { keywords: [], depth: 2, limit: 100, start: "focus" });
    expect(d1.items.map((i) => i.source_message_ids?.[0]).sort()).toEqual(["e3", "e4"]);
    expect(d2.items.map((i) => i.source_message_ids?.[0]).sort()).toEqual(["e2", "e3", "e4"]);
    expect(d2.start_nodes).toBe(5);
  });

  it("uses the agent's default_search_depth (2) when no depth is given", async () => {
    const agent = await englishAgent();
    expect(await recallText(agent, { keywords: ["Carol"], start: "focus" })).toContain("Carol reviews");
  });

  it("follows only the given relations, by Chinese name or English alias", async () => {
    const agent = await englishAgent();
    const focus = { start: "focus" };
    expect(await recallText(agent, { keywords: ["Carol"], depth: 2, relations: ["关于"], ...focus })).toBe("");
    expect(await recallText(agent, { keywords: ["Carol"], depth: 2, relations: ["about", "previous"], ...focus })).toContain(
      "Carol reviews",
    );
    expect(await recallText(agent, { keywords: ["Carol"], depth: 2, relations: ["关于", "上文"], ...focus })).toContain("Carol reviews");
    expect(await recallText(agent, { keywords: ["budget"], depth: 3, relations: ["下文"], ...focus })).toBe("");
  });

  it("ranks an answer above the other speaker's question it answers, with the question's words", async () => {
    const agent = freshAgent("recall-exchange");
    await rememberAndWait(agent, EXCHANGE);
    const result = await recallJson(agent, { query: "Did Ben make the plate in pottery class?" });
    expect(result.items.map((i) => i.content)).toEqual([EXCHANGE[1]?.content, EXCHANGE[0]?.content]);
  });

  it("matches English keywords by stem and ranks own words before a neighbour's", async () => {
    const agent = await englishAgent();
    const result = await recallJson(agent, { keywords: ["budgets", "trips"], depth: 2 });
    // The two segments that say the words first; then the segments next to them, which have the
    // words only as context (上文/下文).
    expect(
      result.items
        .slice(0, 2)
        .map((i) => i.content)
        .sort(),
    ).toEqual(["Carol reviews the budget with Dave.", "Erin and Frank planned the Tokyo trip."]);
    const said = result.items.slice(0, 2);
    const context = result.items.slice(2);
    expect(context.length).toBeGreaterThan(0);
    // The trip's segment is linked to the focus (Frank, Erin, Tokyo trip are in it).
    expect(said.find((i) => i.content?.includes("Tokyo"))?.scores).toMatchObject({ path_strength: 1 });
    for (const own of said)
      for (const other of context) expect(own.scores.keyword_score).toBeGreaterThan(other.scores.keyword_score ?? Infinity);
    const both = await recallJson(agent, { keywords: ["budget", "Dave", "trip"], depth: 2 });
    expect(both.items[0]?.content).toBe("Carol reviews the budget with Dave.");
    expect(both.items[0]?.scores.hits).toBeGreaterThanOrEqual(2);
  });

  it("matches Chinese keywords and returns plain text with separators", async () => {
    const agent = freshAgent("recall-zh");
    await rememberAndWait(agent, chinese);
    const best = await recallText(agent, { keywords: ["登录模块"] });
    expect(best.split("\n---\n")[0]).toBe("[记忆] 昨天讨论了用户系统的登录模块设计，决定采用JWT方案。");
    const text = await recallText(agent, { keywords: ["登录"] });
    // Both segments that say 登录 first, whatever the segmenter made of them.
    expect(text.split("\n---\n").slice(0, 2).sort()).toEqual([
      "[记忆] 前端组提到需要支持第三方登录，这个需求优先级待定。",
      "[记忆] 昨天讨论了用户系统的登录模块设计，决定采用JWT方案。",
    ]);
    expect(text).not.toMatch(/node|score|depth|\d+\.\d+/);
  });

  it("returns JSON items with ids, provenance and scores", async () => {
    const agent = await englishAgent();
    const result = await recallJson(agent, { keywords: ["login"] });
    const [item] = result.items;
    expect(item).toMatchObject({
      type: "memory",
      content: "Grace fixed the login bug.",
      speaker: "Sam",
      role: "user",
      source_message_ids: ["e4"],
      depth: 1,
    });
    expect(item?.node_id).toBeGreaterThan(0);
    expect(item?.scores.importance).toBeGreaterThan(0);
    const node = await json<{ content: string }>(await call(`/v1/agents/${agent}/nodes/${item?.node_id}`));
    expect(node.content).toBe("Grace fixed the login bug.");
  });

  it("extracts keywords from a free-text query", async () => {
    const agent = await englishAgent();
    expect((await recallText(agent, { query: "Who reviews the budget?" })).split("\n---\n")[0]).toBe(
      "[memory] Sam: Carol reviews the budget with Dave.",
    );
  });

  it("changes neither the focus nor any strength", async () => {
    const agent = await englishAgent();
    const { db, key } = await agentRows(agent);
    const snapshot = async () => ({
      focus: await json(await call(`/v1/agents/${agent}/focus`)),
      links: (
        await db
          .prepare("SELECT source, target, relation, level FROM links WHERE agent = ? ORDER BY source, target, relation")
          .bind(key)
          .all()
      ).results,
    });
    const before = await snapshot();
    await recallText(agent, { keywords: ["Alice", "Phoenix", "Bob"], depth: 4 });
    await recallJson(agent, { query: "Tell me about Alice and the Phoenix project" });
    expect(await snapshot()).toEqual(before);
  });

  it("sees a remember accepted just before it, without waiting for the task", async () => {
    const agent = freshAgent("recall-fifo");
    const res = await call(`/v1/agents/${agent}/remember`, {
      body: { messages: [{ role: "user", content: "Quentin bought a red kayak for the lake trip." }] },
    });
    expect(res.status).toBe(202);
    expect(await recallText(agent, { keywords: ["kayak"] })).toBe("[memory] Quentin bought a red kayak for the lake trip.");
  });
});
