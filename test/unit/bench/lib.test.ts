// Unit tests of the benchmark's pure data-side library (bench/lib), run inside workerd.
// Fixtures are small synthetic values written here: the benchmark data itself never enters the project.
import { describe, expect, it } from "vitest";
import { aggregate, percentiles, ratiosToBaseline, summarizeByCategory } from "../../../bench/lib/aggregate";
import { createBm25 } from "../../../bench/lib/bm25";
import { normalizeEvidenceId, splitEvidence } from "../../../bench/lib/locomo-evidence";
import { LocomoFormatError, parseLocomo, parseLocomoDateTime, toRememberCalls } from "../../../bench/lib/locomo";
import { parseDialogueLine, parseMadial } from "../../../bench/lib/madial";
import { blockRecall, itemsWithinBudget, scoreQuestion, type RetrievedItem } from "../../../bench/lib/metrics";
import { emptyContextRows, scoreContexts, summarizeContexts } from "../../../bench/quality/context-block";
import { locomoConfigResult, resultJson } from "../../../bench/lib/report";
import { renderMarkdown, renderText } from "../../../bench/lib/table";
import { matchDetail, textMatches } from "../../../bench/lib/text-score";
import { approxTokens, contentWords, lightStem } from "../../../bench/lib/tokens";

const turn = (speaker: string, dia_id: string, text: string, extra: Record<string, unknown> = {}) => ({
  speaker,
  dia_id,
  text,
  ...extra,
});

function locomoFixture(qa: unknown[]): unknown {
  return [
    {
      sample_id: "conv-x",
      conversation: {
        speaker_a: "Ann",
        speaker_b: "Bob",
        // session_10 before session_2 in the file: sessions must come out in numeric order.
        session_10: [turn("Bob", "D10:1", "Late one.")],
        session_10_date_time: "12:18 am on 16 October, 2021",
        session_1: [
          turn("Ann", "D1:1", "Hi Bob!"),
          turn("Bob", "D1:2", "Look at this.", { img_url: ["http://x"], blip_caption: "a photo of a cat" }),
          turn("Ann", "D1:3", "Cute.", { blip_caption: "a photo of a dog" }),
        ],
        session_1_date_time: "2:47 pm on 9 April, 2021",
        session_2: [turn("Ann", "D2:1", "Back again."), turn("Bob", "D2:2", "Welcome.")],
        session_2_date_time: "12:30 pm on 1 Jan, 2024",
        // A date without a session (LoCoMo has these): ignored.
        session_3_date_time: "1:00 pm on 2 Jan, 2024",
      },
      qa,
      event_summary: {},
    },
  ];
}

describe("LoCoMo evidence ids", () => {
  it("normalises the malformed forms of the README", () => {
    expect(normalizeEvidenceId("D:11:26")).toBe("D11:26");
    expect(normalizeEvidenceId("D30:05")).toBe("D30:5");
    expect(normalizeEvidenceId("D1:3")).toBe("D1:3");
    expect(normalizeEvidenceId("(D2:4).")).toBe("D2:4");
    expect(normalizeEvidenceId("D1")).toBeNull();
    expect(normalizeEvidenceId("session 1")).toBeNull();
    expect(splitEvidence("D8:6; D9:17")).toEqual(["D8:6", "D9:17"]);
    expect(splitEvidence("D1:1,D1:2 D2:1")).toEqual(["D1:1", "D1:2", "D2:1"]);
  });

  it("keeps existing ids, drops the others and the questions left without evidence, and counts", () => {
    const ds = parseLocomo(
      locomoFixture([
        { question: "q1", answer: "a", evidence: ["D:1:2"], category: 1 },
        { question: "q2", answer: 2023, evidence: ["D1:03", "D2:1; D2:2"], category: 2 },
        { question: "q3", answer: "a", evidence: ["D1:1, D9:9 D1:1", "D1:1"], category: 4 },
        { question: "q4", answer: "a", evidence: ["D7:7"], category: 3 },
        { question: "q5", answer: "a", evidence: [], category: 3 },
        { question: "q6", adversarial_answer: "no", evidence: ["D10:1"], category: 5 },
      ]),
    );
    const conv = ds.conversations[0];
    expect(conv?.questions).toEqual([
      { question: "q1", answer: "a", category: 1, evidence: ["D1:2"] },
      { question: "q2", answer: "2023", category: 2, evidence: ["D1:3", "D2:1", "D2:2"] },
      { question: "q3", answer: "a", category: 4, evidence: ["D1:1"] },
      { question: "q6", adversarialAnswer: "no", category: 5, evidence: ["D10:1"] },
    ]);
    const { changes, ...counts } = ds.evidenceReport;
    expect(counts).toEqual({
      questions: 6,
      keptQuestions: 4,
      evidenceEntries: 7,
      splitEntries: 2,
      reformattedIds: 2,
      duplicateIds: 2,
      droppedIds: 2,
      droppedQuestions: 2,
    });
    expect(changes.map((c) => [c.question, c.evidence, c.dropped])).toEqual([
      ["q1", ["D1:2"], []],
      ["q2", ["D1:3", "D2:1", "D2:2"], []],
      ["q3", ["D1:1"], ["D9:9"]],
      ["q4", [], ["D7:7"]],
      ["q5", [], []],
    ]);
  });

  it("reports where the shape is wrong", () => {
    expect(() => parseLocomo([{ sample_id: "c", conversation: { speaker_a: "A" }, qa: [] }])).toThrow(LocomoFormatError);
    expect(() => parseLocomo({})).toThrow(LocomoFormatError);
  });
});

describe("LoCoMo sessions", () => {
  it("parses session dates as UTC milliseconds", () => {
    expect(parseLocomoDateTime("2:47 pm on 9 April, 2021")).toBe(Date.UTC(2021, 3, 9, 14, 47));
    expect(parseLocomoDateTime("2:47 pm on 9 April, 2021")).toBe(1617979620000);
    expect(parseLocomoDateTime("12:18 am on 16 October, 2021")).toBe(1634343480000);
    expect(parseLocomoDateTime("12:30 pm on 1 Jan, 2024")).toBe(1704112200000);
    expect(parseLocomoDateTime("10:52 AM on 23 July, 2021")).toBe(Date.UTC(2021, 6, 23, 10, 52));
    expect(parseLocomoDateTime("1:00 pm on 31 June, 2023")).toBeNull();
    expect(parseLocomoDateTime("13:00 pm on 1 May, 2023")).toBeNull();
    expect(parseLocomoDateTime("9 April 2021")).toBeNull();
  });

  it("orders sessions, adds photo captions and makes one remember call per session", () => {
    const conv = parseLocomo(locomoFixture([])).conversations[0];
    expect(conv?.speakers).toEqual(["Ann", "Bob"]);
    expect(conv?.sessions.map((s) => [s.index, s.timestamp])).toEqual([
      [1, 1617979620000],
      [2, 1704112200000],
      [10, 1634343480000],
    ]);
    expect(conv?.sessions[0]?.turns.map((t) => t.content)).toEqual([
      "Hi Bob!",
      "Look at this. [shares a photo: a photo of a cat]",
      "Cute. [shares a photo: a photo of a dog]",
    ]);
    const calls = conv ? toRememberCalls(conv) : [];
    expect(calls.map((c) => c.messages.length)).toEqual([3, 2, 1]);
    expect(calls[0]?.messages[1]).toEqual({
      role: "assistant",
      name: "Bob",
      content: "Look at this. [shares a photo: a photo of a cat]",
      timestamp: 1617979620000,
      id: "D1:2",
    });
    expect(calls[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});

describe("MADial", () => {
  const memory = [
    { time: "2021-12-24", scene: "s", emotion: "e", event: "Lina在晚会上跳舞。", "user-id": 1, id: "1" },
    { time: "2021-04-09", scene: "s", emotion: "e", event: "Lina跑步第一名。", "user-id": 1, id: "3" },
  ];
  const dialogue = [
    {
      dialogue: [
        "<BOD>\n",
        '<Lina>:"第一句"\n',
        '<Assistant>:"回答"\n',
        ' <Lina>:"第二句\n',
        '<Lina>:"第三句"',
        '<Assistant>:"记得吗"\n',
        "<EOD>\n",
      ],
      "test-turn": [5, 7],
      "relevant-id": [3, 1, 99],
      "user-id": 1,
      id: 10,
    },
    { dialogue: ["<BOD>\n", '<Lina>:"只有一句"\n', '<Assistant>:"记得"\n'], "test-turn": [2], "relevant-id": [1], id: 11 },
    { dialogue: ["<BOD>\n", '<Assistant>:"你好"\n'], "test-turn": [1], "relevant-id": [1], id: 12 },
    { dialogue: ["<BOD>\n", '<Lina>:"嗨"\n', '<Assistant>:"嗯"\n'], "test-turn": [2], "relevant-id": [42], id: 13 },
  ];

  it("strips tags and quotes from dialogue lines", () => {
    expect(parseDialogueLine(' <Lina>:"你好！"\n')).toEqual({ tag: "Lina", text: "你好！" });
    expect(parseDialogueLine("<Assistant>：“好的”")).toEqual({ tag: "Assistant", text: "好的" });
    expect(parseDialogueLine("<EOD>\n")).toEqual({ tag: "EOD", text: "" });
    expect(parseDialogueLine("no tag")).toBeNull();
  });

  it("builds memory records and test items from the two user lines before the test turn", () => {
    const ds = parseMadial(memory, dialogue);
    expect(ds.memories).toEqual([
      {
        id: "1",
        time: "2021-12-24",
        event: "Lina在晚会上跳舞。",
        content: "2021-12-24 Lina在晚会上跳舞。",
        timestamp: Date.UTC(2021, 11, 24),
      },
      { id: "3", time: "2021-04-09", event: "Lina跑步第一名。", content: "2021-04-09 Lina跑步第一名。", timestamp: Date.UTC(2021, 3, 9) },
    ]);
    expect(ds.items).toEqual([
      { id: "10", query: "第二句\n第三句", queryLines: ["第二句", "第三句"], testTurn: 5, goldId: "3", relevantIds: ["3", "1"] },
      { id: "11", query: "只有一句", queryLines: ["只有一句"], testTurn: 2, goldId: "1", relevantIds: ["1"] },
    ]);
    expect(ds.userNames).toEqual(["Lina"]);
    expect(ds.report).toEqual({
      memories: 2,
      dialogues: 4,
      items: 2,
      dropped: [
        { id: "12", reason: "no user line before the test turn" },
        { id: "13", reason: "gold id 42 is not a memory record" },
      ],
      singleLineQueries: 1,
      multipleTestTurns: 1,
      missingRelevantIds: 1,
    });
  });
});

describe("content words", () => {
  it("applies the English rule: stop words, speaker names, length > 1, light stemming", () => {
    expect(contentWords("Isabella's painting classes were amazing, she painted 3 dogs with Ros!", "en", ["Isabella", "Ros"])).toEqual([
      "paint",
      "class",
      "amaz",
      "paint",
      "dog",
    ]);
    expect([lightStem("games"), lightStem("boxes"), lightStem("class"), lightStem("sing"), lightStem("red")]).toEqual([
      "game",
      "box",
      "class",
      "sing",
      "red",
    ]);
  });

  it("segments Chinese and removes function words and names", () => {
    expect(contentWords("Lina在圣诞节晚会上跳舞", "zh", ["Lina"])).toEqual(["圣诞", "节", "晚会", "跳舞"]);
    expect(contentWords("我今天拿到了数学考试的满分！", "zh")).toEqual(["今天", "拿到", "数学", "考试", "满", "分"]);
  });

  it("approximates tokens: 4 characters each, one per CJK character", () => {
    expect(approxTokens("abcdefgh")).toBe(2);
    expect(approxTokens("abcdefghi")).toBe(3);
    expect(approxTokens("我喜欢猫")).toBe(4);
    expect(approxTokens("猫 cat")).toBe(2);
    expect(approxTokens("")).toBe(0);
  });
});

describe("text match rule", () => {
  const set = (s: string) => new Set(s.split(" ").filter((w) => w));
  it("matches when half of the evidence is there", () => {
    expect(matchDetail(set("a b c d"), set("a b x y z w v u"))).toEqual({ shared: 2, evidenceSize: 4, itemSize: 8, matches: true });
    expect(textMatches(set("a b c d e"), set("a b x y z w v u"))).toBe(false);
  });
  it("matches a short item when half of it is evidence and s ≥ 3", () => {
    expect(textMatches(set("a b c d e f g h"), set("a b c x y z"))).toBe(true);
    expect(textMatches(set("a b c d e f g h"), set("a b x"))).toBe(false);
  });
  it("requires every word of evidence shorter than three words", () => {
    expect(textMatches(set("a b"), set("a b c d e f"))).toBe(true);
    expect(textMatches(set("a b"), set("a x"))).toBe(false);
    expect(textMatches(set("a"), set("a"))).toBe(true);
    expect(textMatches(set(""), set("a"))).toBe(false);
  });
});

describe("BM25", () => {
  const docs = [["cat", "dog"], ["cat", "cat", "fish"], ["bird"], ["dog", "bird", "cat"], ["cat", "dog"]];
  it("ranks a tiny corpus in the hand-checked order", () => {
    // N = 5, avgdl = 11/5 = 2.2, df(cat) = 4, idf = ln(1 + 1.5/4.5); norm = 0.25 + 0.75·len/2.2.
    const idf = Math.log(1 + 1.5 / 4.5);
    const score = (tf: number, len: number) => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / 2.2));
    const hits = createBm25(docs).search(["cat"], 10);
    // d1 (tf 2) first; d0 and d4 tie (same text) and go in index order; d3 is longer; d2 has no "cat".
    expect(hits.map((h) => h.index)).toEqual([1, 0, 4, 3]);
    expect(hits[0]?.score).toBeCloseTo(score(2, 3), 12);
    expect(hits[1]?.score).toBeCloseTo(score(1, 2), 12);
    expect(hits[3]?.score).toBeCloseTo(score(1, 3), 12);
  });
  it("weighs rare terms more, counts a repeated query term once and honours the limit", () => {
    const index = createBm25(docs);
    expect(index.search(["bird", "dog"], 10).map((h) => h.index)).toEqual([3, 2, 0, 4]);
    expect(index.search(["bird", "bird", "dog"], 10)).toEqual(index.search(["bird", "dog"], 10));
    expect(index.search(["cat"], 2).map((h) => h.index)).toEqual([1, 0]);
    expect(index.search(["unicorn"], 10)).toEqual([]);
  });
});

describe("metrics", () => {
  // Evidence a and b; by id, b is found at rank 2 and a at rank 6. By text, a matches item 3
  // (3 of its 4 words) and b item 4 (both words; item 2 has only one of b's two words).
  const evidence = [
    { id: "a", text: "alpha beta gamma delta" },
    { id: "b", text: "bravo charlie" },
  ];
  const items: RetrievedItem[] = [
    { sourceIds: ["x"], text: "zulu yankee" },
    { sourceIds: ["b", "y"], text: "bravo" },
    { sourceIds: [], text: "alpha beta gamma zeta" },
    { sourceIds: ["q"], text: "bravo charlie delta" },
    { sourceIds: ["r"], text: "none" },
    { sourceIds: ["a"], text: "alpha" },
    ...Array.from({ length: 6 }, () => ({ sourceIds: ["f"], text: "filler" })),
  ];
  const options = { words: (t: string) => new Set(t.split(" ")), tokens: () => 100 };

  it("computes recall@k, hit@k, MRR@10 and budget recall in both modes", () => {
    const s = scoreQuestion(items, evidence, options);
    expect(s.exact).toEqual({
      recall: { 1: 0, 5: 0.5, 10: 1, 20: 1 },
      hit: { 1: 0, 5: 1, 10: 1, 20: 1 },
      mrr10: 0.5,
      // 100 tokens an item: 2 items fit 256, 5 fit 512, 10 fit 1024, all 12 fit 2048.
      budgetRecall: { 256: 0.5, 512: 0.5, 1024: 1, 2048: 1 },
    });
    expect(s.text).toEqual({
      recall: { 1: 0, 5: 1, 10: 1, 20: 1 },
      hit: { 1: 0, 5: 1, 10: 1, 20: 1 },
      mrr10: 1 / 3,
      budgetRecall: { 256: 0, 512: 1, 1024: 1, 2048: 1 },
    });
    expect([s.recalledTokens, s.items]).toEqual([1200, 12]);
  });

  it("stops at the first item that does not fit the budget", () => {
    expect(itemsWithinBudget([100, 200, 10], 250)).toBe(1);
    expect(itemsWithinBudget([300, 10], 256)).toBe(0);
  });

  it("finds nothing in an empty recall, and refuses a question without evidence", () => {
    const s = scoreQuestion([], evidence, options);
    expect([s.exact.recall[20], s.exact.hit[20], s.exact.mrr10, s.text.budgetRecall[2048]]).toEqual([0, 0, 0, 0]);
    expect(() => scoreQuestion(items, [], options)).toThrow();
  });

  it("pools categories 1–4, keeps 5 apart, and divides by the baseline", () => {
    const full = scoreQuestion(items, evidence, options);
    const none = scoreQuestion([], evidence, options);
    const summary = summarizeByCategory([
      { category: 1, scores: full },
      { category: 4, scores: none },
      { category: 5, scores: full },
    ]);
    expect(summary.pooled?.questions).toBe(2);
    expect(summary.pooled?.exact.recall).toEqual({ 1: 0, 5: 0.25, 10: 0.5, 20: 0.5 });
    expect(summary.pooled?.meanRecalledTokens).toBe(600);
    expect(Object.keys(summary.byCategory)).toEqual(["1", "4", "5"]);
    expect(summary.adversarial?.exact.mrr10).toBe(0.5);
    expect(aggregate([])).toBeNull();
    const base = summary.pooled;
    const cfg = aggregate([full]);
    const r = cfg && base ? ratiosToBaseline(cfg, base) : null;
    expect(r?.exact.recall).toEqual({ 1: null, 5: 2, 10: 2, 20: 2 });
    expect(r?.meanRecalledTokens).toBe(2);
  });

  it("scores a context block as a whole: every item it holds counts, pooled over categories 1–4 against BM25 at the same budget", () => {
    expect(blockRecall(items, evidence, options)).toEqual({ exact: 1, text: 1 });
    expect(blockRecall(items.slice(0, 2), evidence, options)).toEqual({ exact: 0.5, text: 0 });
    expect(() => blockRecall(items, [], options)).toThrow();
    const answer = (n: number) => ({ items: items.slice(0, n), usedTokens: 10 * n, benchTokens: 9 * n });
    const rows = emptyContextRows();
    const questions = [{ category: 1 }, { category: 2 }, { category: 5 }];
    scoreContexts(
      rows,
      questions,
      { 256: [answer(2), answer(0), answer(12)], 512: [answer(12), answer(2), answer(12)], 1024: [] },
      () => evidence,
      (q) => q.category,
      options,
    );
    const base = aggregate([scoreQuestion(items, evidence, options)]);
    const [at256, at512, at1024] = summarizeContexts(rows, true, base);
    expect(at256).toMatchObject({ budget: 256, questions: 2, exact: 0.25, text: 0, meanUsedTokens: 10, meanBenchTokens: 9, meanItems: 1 });
    expect(at256?.bm25).toEqual({ exact: 0.5, text: 0 });
    expect(at512).toMatchObject({ questions: 2, exact: 0.75, text: 0.5, bm25: { exact: 0.5, text: 1 } });
    expect(at1024).toMatchObject({ questions: 0, exact: 0 });
    expect(summarizeContexts(rows, false, null)[0]).toMatchObject({ questions: 3, bm25: null });
  });

  it("takes nearest-rank percentiles", () => {
    expect(percentiles(Array.from({ length: 100 }, (_v, i) => 100 - i))).toEqual({ count: 100, p50: 50, p95: 95, p99: 99 });
    expect(percentiles([7, 3])).toEqual({ count: 2, p50: 3, p95: 7, p99: 7 });
    expect(percentiles([])).toBeNull();
  });
});

describe("tables", () => {
  const table = {
    title: "T",
    headers: ["config", "R@1"],
    rows: [
      ["bm25", "0.500"],
      ["memory-api", "0.75"],
    ],
  };
  it("renders aligned plain text", () => {
    expect(renderText(table)).toBe(["T", "config        R@1", "----------  -----", "bm25        0.500", "memory-api   0.75"].join("\n"));
  });
  it("renders Markdown", () => {
    expect(renderMarkdown(table)).toBe(
      ["**T**", "", "| config | R@1 |", "| --- | ---: |", "| bm25 | 0.500 |", "| memory-api | 0.75 |"].join("\n"),
    );
  });
});

describe("JSON result", () => {
  it("keeps the documented key order, rounds to 4 decimals and divides by the baseline", () => {
    const one = (recall: number) => ({
      category: 1,
      scores: scoreQuestion(recall === 1 ? [{ sourceIds: ["a"], text: "x" }] : [], [{ id: "a", text: "x" }], {
        words: (t: string) => new Set([t]),
        tokens: () => 3,
      }),
    });
    const base = locomoConfigResult({ name: "bm25", baseline: true }, [one(1), one(0), one(0)]);
    const cfg = locomoConfigResult({ name: "api", latenciesMs: [30, 10, 20] }, [one(1), one(1), one(0)], base.pooled);
    expect(Object.keys(cfg)).toEqual(["name", "baseline", "ingestionMs", "latencyMs", "pooled", "byCategory", "adversarial", "ratios"]);
    expect(cfg.latencyMs).toEqual({ count: 3, p50: 20, p95: 30, p99: 30 });
    expect(base.ratios).toBeNull();
    expect(cfg.ratios?.exact.recall[1]).toBe(2);
    const settings = { ks: [1], budgets: [256], mrrCutoff: 10, limit: 1 / 3, tokens: "t", bm25: { k1: 1.2, b: 0.75 } };
    const text = resultJson({ schema: "agent-memory-bench/1", settings, locomo: null, madial: null });
    expect(text).toContain('"limit": 0.3333,');
    expect(Object.keys(JSON.parse(text))).toEqual(["schema", "settings", "locomo", "madial"]);
  });
});
