/**
 * Conflicts on write (docs/design.md §11): the local model's rules measured against the committed
 * table (test/conflict-cases.ts), the Workers AI judgement and its fallback, and what a remember
 * does with the verdicts: an update supersedes, a contradiction is linked and marked in every
 * answer that shows one of the two.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadTaggers } from "../src/language/tagging/tagged-words";
import { judgeConflict } from "../src/language/conflicts/judge";
import { LocalModel } from "../src/models/local/local-model";
import { ResilientModel } from "../src/models/resilient-model";
import { retryPolicy } from "../src/models/retry";
import type { ConflictVerdict } from "../src/models/types";
import type { AiBinding } from "../src/models/workers-ai/ai-client";
import { CONFLICTS_SYSTEM_PROMPT } from "../src/models/workers-ai/prompts/conflicts";
import { WorkersAiModel } from "../src/models/workers-ai/workers-ai-model";
import {
  CONFLICT_CASES,
  DIALOGUE_LOCAL_MISSES,
  LOCAL_MISSES,
  markOf,
  WORDNET_DECIDED,
  WORLD_KNOWLEDGE_BEYOND_WORDNET,
} from "./conflict-cases";
import { DIALOGUE_CONFLICT_CASES } from "./conflict-cases-dialogue";
import { call, freshAgent, json, recallText, rememberAndWait } from "./helpers";

interface MemoryView {
  node_id: number;
  superseded_by: number | null;
  conflicts_with: number[];
  links: { outgoing: { target: number; relation: string }[] };
}

const pairsOf = (cases: typeof CONFLICT_CASES) => cases.map((c) => ({ earlier: c.earlier, later: c.later, entities: c.entities }));

describe("the conflict table", () => {
  beforeAll(loadTaggers);

  it("holds at least 40 cases in Chinese and English of every kind", () => {
    expect(CONFLICT_CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CONFLICT_CASES.map((c) => c.id)).size).toBe(CONFLICT_CASES.length);
    for (const lang of ["en-", "zh-"]) expect(CONFLICT_CASES.filter((c) => c.id.startsWith(lang)).length).toBeGreaterThanOrEqual(15);
    for (const kind of ["update", "contradiction", "negation", "paraphrase", "unrelated", "past"] as const) {
      expect(
        CONFLICT_CASES.some((c) => c.kind === kind),
        kind,
      ).toBe(true);
    }
  });

  it("the local rules get the cases right except the documented misses", async () => {
    const verdicts = await new LocalModel().judgeConflicts(pairsOf(CONFLICT_CASES));
    const misses = CONFLICT_CASES.filter((c, i) => verdicts[i] !== c.expected).map((c) => c.id);
    expect(misses).toEqual(Object.keys(LOCAL_MISSES));
    const accuracy = (CONFLICT_CASES.length - misses.length) / CONFLICT_CASES.length;
    expect(accuracy).toBeGreaterThanOrEqual(0.85);
    // Per language: neither is an afterthought.
    for (const lang of ["en-", "zh-"]) {
      const cases = CONFLICT_CASES.filter((c) => c.id.startsWith(lang));
      const wrong = misses.filter((id) => id.startsWith(lang)).length;
      expect((cases.length - wrong) / cases.length, lang).toBeGreaterThanOrEqual(0.8);
    }
  });

  it("the dialogue cases: no pair that is no conflict is ever marked, and the misses are the documented ones", async () => {
    const verdicts = await new LocalModel().judgeConflicts(pairsOf(DIALOGUE_CONFLICT_CASES));
    const marks = (v: string | undefined) => v === "update" || v === "contradiction";
    const falseMarks = DIALOGUE_CONFLICT_CASES.filter((c, i) => !marks(c.expected) && marks(verdicts[i])).map((c) => c.id);
    expect(falseMarks).toEqual([]);
    const misses = DIALOGUE_CONFLICT_CASES.filter((c, i) => verdicts[i] !== c.expected).map((c) => c.id);
    expect(misses).toEqual(Object.keys(DIALOGUE_LOCAL_MISSES));
  });

  it("both tables by the mark a user sees: no false mark, and every missed mark documented", async () => {
    const all = [...CONFLICT_CASES, ...DIALOGUE_CONFLICT_CASES];
    const verdicts = await new LocalModel().judgeConflicts(pairsOf(all));
    const wrong = all.filter((c, i) => markOf(verdicts[i]) !== markOf(c.expected));
    // Every wrong mark is a real change or contradiction left unmarked, never a mark on a non-conflict.
    expect(wrong.filter((c) => markOf(c.expected) === "none").map((c) => c.id)).toEqual([]);
    const documented = { ...LOCAL_MISSES, ...DIALOGUE_LOCAL_MISSES };
    for (const c of wrong) expect(documented[c.id], c.id).toBeDefined();
    for (const id of WORLD_KNOWLEDGE_BEYOND_WORDNET) expect(wrong.map((c) => c.id)).toContain(id);
    for (const id of WORDNET_DECIDED) expect(wrong.map((c) => c.id)).not.toContain(id);
    // The goal is 95% right. Measured (docs/BENCHMARKS.md): 104 of 109 (95.4%); the five left are the
    // four world-knowledge cases WordNet does not hold and 走路上学 (jieba tags it as two nouns).
    expect(all.length - wrong.length).toBeGreaterThanOrEqual(104);
    expect((all.length - wrong.length) / all.length).toBeGreaterThanOrEqual(0.95);
  });

  it("the rules' patterns with other words: variants of the tables' readings, written before the rules ran on them", async () => {
    // 14 of 19 right when written; the follow-up fixes are general (docs/design.md, "Conflicts on
    // write"). The miss left: "quit smoking", where the tagger makes "smoking" a noun, not the verb.
    const variants: [string, string, ConflictVerdict][] = [
      ["Ana: I smoke a pack a day.", "Ana: I quit smoking last month.", "update"],
      ["The party is on Saturday.", "The party was moved to Sunday.", "update"],
      ["Sam: The wedding is in June.", "Lee: No, the wedding is in August.", "contradiction"],
      ["Bob is a nonsmoker.", "Bob smokes cigars every evening.", "contradiction"],
      ["Mia: I don't eat meat.", "Mia: I had a burger for lunch.", "unrelated"],
      ["Mia: I don't eat any meat.", "Mia: I eat bacon every morning.", "contradiction"],
      ["Tom: I have never owned a car.", "Tom: I bought a truck ten years ago.", "unrelated"],
      ["Kai: I've never played a sport.", "Kai: I started playing tennis three years ago.", "contradiction"],
      ["Eve: I work at the bakery.", "Eve: I quit my job last week.", "update"],
      ["Eve: I quit my job.", "Eve: I quit my job at the bakery.", "same"],
      ["Max: My office is in the city centre.", "Max: My office is now near the airport.", "update"],
      ["Max: I'm at the park.", "Max: I'm at home now.", "unrelated"],
      ["Zoe: I was so anxious a week ago.", "Zoe: Now I'm calm.", "update"],
      ["Zoe: I'm so happy!", "Zoe: I'm excited now.", "unrelated"],
      ["Ray: I've lived in Ohio all my life.", "Ray: I moved to Ohio two years ago.", "contradiction"],
      ["我家的狗最近不怎么喝水。", "我家的狗现在又开始喝水了。", "update"],
      ["老王以前很胖。", "老王现在很瘦。", "update"],
      ["我从来没养过宠物。", "我养了一只狗。", "unrelated"],
      ["演唱会在周六。", "演唱会改到周日了。", "update"],
    ];
    const verdicts = await new LocalModel().judgeConflicts(variants.map(([earlier, later]) => ({ earlier, later, entities: [] })));
    const misses = variants.filter(([, , expected], i) => verdicts[i] !== expected).map(([earlier]) => earlier);
    expect(misses).toEqual(["Ana: I smoke a pack a day."]);
  });

  it("the old table's non-conflicts are never marked either", async () => {
    const verdicts = await new LocalModel().judgeConflicts(pairsOf(CONFLICT_CASES));
    const marks = (v: string | undefined) => v === "update" || v === "contradiction";
    expect(CONFLICT_CASES.filter((c, i) => !marks(c.expected) && marks(verdicts[i])).map((c) => c.id)).toEqual([]);
  });

  it("a model's parse cache changes no verdict: the table judged twice by one model, in both orders", async () => {
    const uncached = pairsOf(CONFLICT_CASES).map((pair) => judgeConflict(pair));
    const model = new LocalModel();
    // The second pass is answered from the cache; reversing the pairs makes each text's first
    // parse come from the other side of a pair.
    expect(await model.judgeConflicts(pairsOf(CONFLICT_CASES))).toEqual(uncached);
    const swapped = pairsOf(CONFLICT_CASES).map((p) => ({ ...p, earlier: p.later, later: p.earlier }));
    expect(await model.judgeConflicts(swapped)).toEqual(swapped.map((pair) => judgeConflict(pair)));
    expect(await model.judgeConflicts(pairsOf(CONFLICT_CASES))).toEqual(uncached);
  });

  it("speakers stand in for the first person, and different subjects are unrelated", async () => {
    const local = new LocalModel();
    const verdicts = await local.judgeConflicts([
      { earlier: "Alice: I live in Paris.", later: "Alice: I moved to Berlin.", entities: ["Paris"] },
      { earlier: "Alice: I live in Paris.", later: "Bob: I live in Berlin.", entities: ["Paris"] },
      { earlier: "Alice lives in Paris.", later: "Bob lives in Berlin near Alice.", entities: ["Alice"] },
      { earlier: "我昨天（2025-11-04）喜欢猫。", later: "我今天（2025-11-05）喜欢猫。", entities: ["猫"] },
    ]);
    expect(verdicts).toEqual(["update", "unrelated", "unrelated", "same"]);
  });
});

describe("the Workers AI judgement", () => {
  const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
  const ai = (answer: (pairs: number) => unknown): AiBinding & { calls: Record<string, unknown>[] } => {
    const calls: Record<string, unknown>[] = [];
    return {
      calls,
      async run(_model, inputs) {
        calls.push(inputs);
        const messages = inputs.messages as { content: string }[];
        const input = JSON.parse(messages.at(-1)?.content ?? "{}") as { pairs: unknown[] };
        return { response: JSON.stringify(answer(input.pairs.length)) };
      },
    };
  };

  it("asks with one prompt, in batches, and takes the validated verdicts", async () => {
    const fake = ai((n) => ({ verdicts: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? "update" : "contradiction")) }));
    const model = new WorkersAiModel(fake, { model: MODEL });
    const verdicts = await model.judgeConflicts(pairsOf(CONFLICT_CASES.slice(0, 20)));
    expect(verdicts).toHaveLength(20);
    expect(verdicts.slice(0, 3)).toEqual(["update", "contradiction", "update"]);
    // 20 open pairs fit one call (at most CONFLICT_BATCH_SIZE, 128, within the context window).
    expect(fake.calls).toHaveLength(1);
    const system = (fake.calls[0]?.messages as { role: string; content: string }[])[0];
    expect(system).toEqual({ role: "system", content: CONFLICTS_SYSTEM_PROMPT });
  });

  it("asks only about the pairs the classical filter leaves open: a model that marks every pair it is asked marks no thanks, agreement or question", async () => {
    const fake = ai((n) => ({ verdicts: Array.from({ length: n }, () => "contradiction") }));
    const verdicts = await new WorkersAiModel(fake, { model: MODEL }).judgeConflicts(pairsOf(DIALOGUE_CONFLICT_CASES));
    const never = DIALOGUE_CONFLICT_CASES.filter(
      (c, i) => ["acknowledgement", "agreement", "question"].includes(c.kind) && verdicts[i] !== "unrelated",
    );
    expect(never.map((c) => c.id)).toEqual([]);
    const asked = fake.calls.flatMap(
      (call) => (JSON.parse((call.messages as { content: string }[]).at(-1)?.content ?? "{}") as { pairs: unknown[] }).pairs,
    );
    expect(asked.length).toBeLessThan(DIALOGUE_CONFLICT_CASES.length);
  });

  it("closes no real conflict: a model that answers right gets every case of both tables right through the filter", async () => {
    const cases = [...CONFLICT_CASES, ...DIALOGUE_CONFLICT_CASES];
    const expected = new Map(cases.map((c) => [`${c.earlier}|${c.later}`, c.expected]));
    const oracle: AiBinding = {
      async run(_model, inputs) {
        const messages = inputs.messages as { content: string }[];
        const input = JSON.parse(messages.at(-1)?.content ?? "{}") as { pairs: { earlier: string; later: string }[] };
        return { response: JSON.stringify({ verdicts: input.pairs.map((p) => expected.get(`${p.earlier}|${p.later}`) ?? "unrelated") }) };
      },
    };
    const verdicts = await new WorkersAiModel(oracle, { model: MODEL }).judgeConflicts(pairsOf(cases));
    const marks = (v: string | undefined) => v === "update" || v === "contradiction";
    expect(cases.filter((c, i) => marks(c.expected) && verdicts[i] !== c.expected).map((c) => c.id)).toEqual([]);
  });

  it("an answer of the wrong length or an unknown verdict falls back to the local rules", async () => {
    for (const answer of [{ verdicts: ["update"] }, { verdicts: ["maybe", "same"] }, { nope: true }]) {
      const events: string[] = [];
      const model = new ResilientModel(
        new WorkersAiModel(
          ai(() => answer),
          { model: MODEL },
        ),
        new LocalModel(),
        retryPolicy(2, async () => {}),
        {
          failed: (op) => events.push(`failed:${op}`),
          fellBack: (op) => events.push(`fell back:${op}`),
        },
      );
      const cases = CONFLICT_CASES.filter((c) => c.id === "en-01" || c.id === "zh-09");
      expect(await model.judgeConflicts(pairsOf(cases))).toEqual(["update", "contradiction"]);
      expect(events).toEqual(["failed:judgeConflicts", "fell back:judgeConflicts"]);
    }
  });
});

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
