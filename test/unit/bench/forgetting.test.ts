// Unit tests of issue 23's benchmark additions: answer-bearing scoring (bench/lib/answer-bearing.ts),
// the naive forgetting policies (bench/quality/naive-policies.ts) and their comparison
// (bench/quality/forgetting.ts). Synthetic fixtures only.
import { describe, expect, it } from "vitest";
import { summarizeByCategory } from "../../../bench/lib/aggregate";
import { answerBearingRecall, bearingTurns, holdsAnswer, summarizeAnswerBearing } from "../../../bench/lib/answer-bearing";
import { scoreLocomoConversation } from "../../../bench/lib/evaluate";
import { parseLocomo } from "../../../bench/lib/locomo";
import type { RetrievedItem } from "../../../bench/lib/metrics";
import { contentWordSet } from "../../../bench/lib/tokens";
import { compared, policyRows, recallsOf } from "../../../bench/quality/forgetting";
import {
  applyPolicy,
  budgetOf,
  oracleTurns,
  randomTurns,
  recencyWindow,
  uniformTruncation,
  type HeldTurn,
} from "../../../bench/quality/naive-policies";

import { SimAgent } from "../../../bench/offline/sim-agent";
import { DEFAULT_PARAMS } from "../../../src/config/params";
import { importanceOf } from "../../../src/memory/importance";
import { strengthAt } from "../../../src/memory/strength";

const words = (text: string) => contentWordSet(text, "en", ["Ann", "Bob"]);

describe("answer-bearing scoring", () => {
  const evidence = [
    { id: "D1:1", text: "Ann adopted a grey cat named Pixel last spring." },
    { id: "D1:2", text: "Bob said the shelter was in Denver." },
    { id: "D1:3", text: "What a lovely day." },
  ];

  it("grounds a question only when every answer word is in its evidence, and keeps the turns that bear it", () => {
    const turns = bearingTurns("Pixel, from Denver", evidence, words);
    expect(turns?.map((t) => [t.id, [...t.words].sort()])).toEqual([
      ["D1:1", ["pixel"]],
      ["D1:2", ["denver"]],
    ]);
    // "Boston" is in no evidence turn: the answer cannot be held by any text, so the question is not grounded.
    expect(bearingTurns("Pixel from Boston", evidence, words)).toBeNull();
    // Nothing left after stop words and names, or no answer at all: not grounded.
    expect(bearingTurns("Yes, Ann", evidence, words)).toBeNull();
    expect(bearingTurns(undefined, evidence, words)).toBeNull();
  });

  it("needs at least half of the turn's answer words in the item's text as returned", () => {
    const [turn] = bearingTurns("grey cat Pixel spring", evidence, words) ?? [];
    if (!turn) throw new Error("fixture: expected a bearing turn");
    expect(holdsAnswer(turn, words("a grey cat"))).toBe(true); // 2 of 4
    expect(holdsAnswer(turn, words("Ann adopted a"))).toBe(false); // 0 of 4
    expect(holdsAnswer(turn, words("Pixel"))).toBe(false); // 1 of 4
  });

  it("counts an evidence id at k only when the item carrying it still holds the answer", () => {
    const turns = bearingTurns("Pixel, from Denver", evidence, words) ?? [];
    const items: RetrievedItem[] = [
      { sourceIds: ["D1:1"], text: "Ann adopted a grey" }, // the id, without the answer (truncated)
      { sourceIds: ["D9:9"], text: "Pixel Pixel Denver" }, // the answer, without the id
      { sourceIds: ["D1:2", "D1:3"], text: "shelter in Denver" },
      { sourceIds: ["D1:1"], text: "cat named Pixel" },
    ];
    const r = answerBearingRecall(items, turns, words);
    expect(r[1]).toBe(0);
    expect(r[5]).toBe(1);
    expect(answerBearingRecall(items.slice(0, 3), turns, words)[20]).toBe(0.5);
    expect(() => answerBearingRecall(items, [], words)).toThrow();
  });

  it("is pooled over grounded questions only, as `pooled.answerBearing`", () => {
    expect(summarizeAnswerBearing([null, undefined])).toBeNull();
    const s = summarizeAnswerBearing([{ 1: 0, 5: 1, 10: 1, 20: 1 }, null, { 1: 1, 5: 0.5, 10: 1, 20: 1 }]);
    expect(s).toEqual({ grounded: 2, recall: { 1: 0.5, 5: 0.75, 10: 1, 20: 1 } });
  });
});

const turns: HeldTurn[] = [
  { id: "a", text: "0123456789" },
  { id: "b", text: "01234" },
  { id: "c", text: "0123456789" },
  { id: "d", text: "01234" },
];

describe("naive forgetting policies", () => {
  it("budgets a share of the code points", () => {
    expect(budgetOf(turns, 0.5)).toBe(15);
    expect(budgetOf([{ id: "x", text: "记忆记忆" }], 0.5)).toBe(2);
  });

  it("recency keeps the latest turns that fit, in order", () => {
    expect(recencyWindow(turns, 0.5).map((t) => t.id)).toEqual(["c", "d"]);
    expect(recencyWindow(turns, 0.1)).toEqual([]);
  });

  it("random keeps turns within the budget, the same for a seed and different across seeds", () => {
    const many: HeldTurn[] = Array.from({ length: 40 }, (_x, i) => ({ id: `t${i}`, text: "abcde" }));
    const a = randomTurns(many, 0.25, 1).map((t) => t.id);
    expect(a).toHaveLength(10);
    expect(randomTurns(many, 0.25, 1).map((t) => t.id)).toEqual(a);
    expect(randomTurns(many, 0.25, 2).map((t) => t.id)).not.toEqual(a);
    // conversation order kept
    expect(a).toEqual([...a].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))));
  });

  it("truncation cuts every turn to its leading share and keeps every id it can", () => {
    expect(uniformTruncation(turns, 0.5)).toEqual([
      { id: "a", text: "01234" },
      { id: "b", text: "01" },
      { id: "c", text: "01234" },
      { id: "d", text: "01" },
    ]);
    expect(uniformTruncation(turns, 0.1).map((t) => t.id)).toEqual(["a", "c"]);
  });

  it("the oracle keeps the evidence turns while they fit", () => {
    expect(oracleTurns(turns, 0.5, new Set(["b", "c", "d"])).map((t) => t.id)).toEqual(["b", "c"]);
    expect(applyPolicy("oracle", turns, 1, { seed: 0, evidence: new Set(["d"]) }).map((t) => t.id)).toEqual(["d"]);
  });
});

describe("forgetting comparison", () => {
  const conv = parseLocomo([
    {
      sample_id: "conv-x",
      conversation: {
        speaker_a: "Ann",
        speaker_b: "Bob",
        session_1_date_time: "2:47 pm on 9 April, 2021",
        session_1: [
          { speaker: "Ann", dia_id: "D1:1", text: "I adopted a grey cat named Pixel from the Denver shelter." },
          { speaker: "Bob", dia_id: "D1:2", text: "Lovely, I went hiking in the mountains near Boulder." },
          { speaker: "Ann", dia_id: "D1:3", text: "The weather was sunny and warm all week long here." },
          { speaker: "Bob", dia_id: "D1:4", text: "I bought a new bicycle and a helmet yesterday afternoon." },
        ],
      },
      qa: [
        { question: "What is the name of Ann's cat?", answer: "Pixel", evidence: ["D1:1"], category: 4 },
        { question: "Where did Bob go hiking?", answer: "mountains near Boulder", evidence: ["D1:2"], category: 4 },
      ],
    },
  ]).conversations[0];
  if (!conv) throw new Error("fixture: one conversation");

  it("scores BM25 over what a policy kept: truncation keeps the ids and loses the answers", () => {
    const whole = recallsOf(policyRows(conv, "oracle", 1));
    expect(whole.exact?.[10]).toBe(1);
    expect(whole.answerBearing?.[10]).toBe(1);
    const cut = recallsOf(policyRows(conv, "truncation", 0.3));
    expect(cut.grounded).toBe(2);
    expect(cut.answerBearing?.[10]).toBe(0);
    const recency = recallsOf(policyRows(conv, "recency", 0.5));
    expect(recency.exact?.[10]).toBe(0); // the two latest turns are not evidence
    // random: five seeds pooled, counted once
    expect(recallsOf(policyRows(conv, "random", 0.5), 5).questions).toBe(2);
  });

  it("divides a line's recall by its reference's, null where the reference is 0", () => {
    const rows = scoreLocomoConversation(conv, (q) => (q.answer === "Pixel" ? [{ sourceIds: ["D1:1"], text: "cat Pixel" }] : []));
    expect(summarizeByCategory(rows).pooled?.answerBearing).toEqual({ grounded: 2, recall: { 1: 0.5, 5: 0.5, 10: 0.5, 20: 0.5 } });
    const c = compared("x", recallsOf(rows), recallsOf(policyRows(conv, "oracle", 1)));
    expect(c.share.exact[10]).toBe(0.5);
    expect(c.share.answerBearing[1]).toBe(0.5);
    expect(compared("y", recallsOf(rows), recallsOf(policyRows(conv, "recency", 0.01))).share.exact[10]).toBeNull();
  });
});

describe("the in-process probe's reinforcement by use (bench/offline/sim-agent.ts)", () => {
  it("raises a used memory's outgoing links by reinforce_step once per cycle, never an entity's, never past 1", async () => {
    const agent = new SimAgent({ ...DEFAULT_PARAMS, auto_compress: false });
    await agent.remember([
      { role: "user", name: "Ann", content: "Ann adopted a grey cat named Pixel at the Denver shelter." },
      { role: "user", name: "Ann", content: "The shelter gave her a bag of cat food too." },
    ]);
    await agent.remember([{ role: "user", name: "Ann", content: "My sister moved to Lisbon for a new job." }]);
    await agent.compress(30);
    const segment = agent.graph.ofKind("segment", 10).find((n) => n.content.includes("Pixel"));
    const entity = agent.graph.ofKind("entity", 10)[0];
    if (!segment || !entity) throw new Error("fixture: no segment or entity");
    const importance = () => importanceOf(agent.graph.outgoingOf(segment.id).map((l) => strengthAt(l.level, agent.clock)));
    const strengths = () => agent.graph.outgoingOf(segment.id).map((l) => strengthAt(l.level, agent.clock));
    const before = strengths();
    expect(Math.max(...before)).toBeLessThan(1);
    const was = importance();
    expect(agent.reinforce([segment.id, entity.id])).toBe(1);
    const after = strengths();
    after.forEach((s, i) => expect(s).toBeCloseTo(Math.min(1, (before[i] ?? 0) + DEFAULT_PARAMS.reinforce_step), 9));
    expect(importance()).toBeGreaterThan(was);
    // Once per cycle: a second report in the same cycle changes nothing; after a cycle it counts again.
    expect(agent.reinforce([segment.id])).toBe(0);
    await agent.compress(1);
    expect(agent.reinforce([segment.id])).toBe(1);
  });
});
