// The conflict rules (src/language/conflicts/judge.ts) measured against the committed tables
// (test/conflict-cases.ts, test/conflict-cases-dialogue.ts), failures included, through the local model.
import { beforeAll, describe, expect, it } from "vitest";
import { loadTaggers } from "../../../../src/language/tagging/tagged-words";
import { judgeConflict } from "../../../../src/language/conflicts/judge";
import { LocalModel } from "../../../../src/models/local/local-model";
import type { ConflictVerdict } from "../../../../src/models/types";
import {
  CONFLICT_CASES,
  DIALOGUE_LOCAL_MISSES,
  LOCAL_MISSES,
  markOf,
  WORDNET_DECIDED,
  WORLD_KNOWLEDGE_BEYOND_WORDNET,
} from "../../../conflict-cases";
import { DIALOGUE_CONFLICT_CASES } from "../../../conflict-cases-dialogue";

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
