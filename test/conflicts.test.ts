/**
 * Conflicts on write (docs/design.md §11): what a remember does with the verdicts: an update
 * supersedes, a contradiction is linked and marked in every answer that shows one of the two. The
 * rules against the committed tables are measured in test/unit/language/conflicts/judge.test.ts,
 * the Workers AI judgement in test/unit/models/workers-ai/prompts/conflicts.test.ts.
 */
import { describe, expect, it } from "vitest";
import { call, freshAgent, json, recallText, rememberAndWait } from "./helpers";

interface MemoryView {
  node_id: number;
  superseded_by: number | null;
  conflicts_with: number[];
  links: { outgoing: { target: number; relation: string }[] };
}

describe("conflicts on write", () => {
  it("a remember that moves a person to another city supersedes the old memory", async () => {
    const agent = freshAgent("moves");
    await rememberAndWait(agent, [{ role: "user", content: "Mina lives in Lisbon." }]);
    const moved = await rememberAndWait(agent, [{ role: "user", content: "Mina moved to Oslo last spring." }]);
    expect(moved.result?.conflicts).toMatchObject({ updates: 1, contradictions: 0 });
    const text = await recallText(agent, { keywords: ["Mina"] });
    expect(text).toContain("Oslo");
    expect(text).not.toContain("Lisbon");
    const list = await json<{ items: { node_id: number; content: string; superseded_by: number | null }[] }>(
      await call(`/v1/agents/${agent}/memories?include_superseded=true&kind=segment`),
    );
    const [newer, older] = list.items;
    expect(older?.superseded_by).toBe(newer?.node_id);
    const view = await json<MemoryView>(await call(`/v1/agents/${agent}/memories/${newer?.node_id}`));
    expect(view.links.outgoing).toContainEqual(expect.objectContaining({ target: older?.node_id, relation: "更正" }));
    // The same through an explicit memory, and in Chinese.
    await call(`/v1/agents/${agent}/memories`, { body: { content: "老周住在杭州。" } });
    const zh = await json<{ conflicts: { updates: number } }>(
      await call(`/v1/agents/${agent}/memories`, { body: { content: "老周搬到了成都。" } }),
    );
    expect(zh.conflicts.updates).toBe(1);
    expect(await recallText(agent, { keywords: ["老周"] })).not.toContain("杭州");
  });

  it("one remember that says both 'likes tea' and 'hates tea' links a contradiction, marked in recall text, JSON and search", async () => {
    const agent = freshAgent("tea");
    const task = await rememberAndWait(agent, [
      { role: "user", content: "Nora likes jasmine tea very much." },
      { role: "assistant", content: "Noted, I will remember that about Nora and the garden party next week." },
      { role: "user", content: "Nora hates jasmine tea very much." },
    ]);
    expect(task.result?.conflicts).toMatchObject({ contradictions: 1, updates: 0 });
    const recalled = await json<{ items: { type: string; node_id: number; content: string; conflicts_with: number[] }[] }>(
      await call(`/v1/agents/${agent}/recall?format=json`, { body: { keywords: ["jasmine", "Nora"] } }),
    );
    const memories = recalled.items.filter((i) => i.type === "memory");
    const likes = memories.find((m) => m.content.includes("likes"));
    const hates = memories.find((m) => m.content.includes("hates"));
    if (!likes || !hates) throw new Error("both memories expected");
    expect(likes.conflicts_with).toEqual([hates.node_id]);
    expect(hates.conflicts_with).toEqual([likes.node_id]);
    const text = await recallText(agent, { keywords: ["jasmine"] });
    expect(text).toContain("[memory] Nora likes jasmine tea very much. (conflicts with another memory)");
    expect(text).toContain("[memory] Nora hates jasmine tea very much. (conflicts with another memory)");
    expect(await recallText(agent, { keywords: ["jasmine"], locale: "zh" })).toContain(
      "[记忆] Nora likes jasmine tea very much.（与另一条记忆矛盾）",
    );
    const found = await json<{ items: { node_id: number; conflicts_with: number[] }[] }>(
      await call(`/v1/agents/${agent}/search`, { body: { query: "jasmine tea", mode: "keyword" } }),
    );
    expect(found.items.find((i) => i.node_id === likes.node_id)?.conflicts_with).toEqual([hates.node_id]);
    const view = await json<MemoryView>(await call(`/v1/agents/${agent}/memories/${likes.node_id}`));
    expect(view.conflicts_with).toEqual([hates.node_id]);
    expect(view.links.outgoing).toContainEqual(expect.objectContaining({ target: hates.node_id, relation: "矛盾" }));
    // Both are kept; unrelated memories about her are not marked.
    expect(view.superseded_by).toBeNull();
    const party = memories.find((m) => m.content.includes("garden party"));
    expect(party?.conflicts_with).toEqual([]);
  });
});
