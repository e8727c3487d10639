// Unit tests of the benchmark driver's pure helpers (bench/driver, bench/quality, bench/speed), run
// inside workerd. The HTTP-driving parts are exercised by `npm run bench:* -- --quick`.
import { describe, expect, it } from "vitest";
import { beginMarker, endMarker, replaceSection } from "../../../bench/driver/doc-sections";
import { snapshotConfig } from "../../../bench/driver/snapshot-config";
import { queryKeywords } from "../../../bench/lib/tokens";
import { agentId, MAX_MESSAGES_PER_CALL, rememberBatches } from "../../../bench/quality/batches";
import { selectPresets } from "../../../bench/quality/presets";
import { everyNth } from "../../../bench/quality/quick";
import { splitEntries } from "../../../bench/quality/split";
import { perBudget, perK, type ModeScores, type QuestionScores } from "../../../bench/lib/metrics";
import { callD1 } from "../../../bench/driver/bench-hooks";
import { COLD_FULL, COLD_QUICK, selectColdSizes, type ColdCall, type ColdResult, type ColdRun } from "../../../bench/speed/cold-result";
import { coldGoals } from "../../../bench/speed/cold-report";
import { summarize } from "../../../bench/speed/floor";
import { agentMessages, marker } from "../../../bench/speed/isolation-bench";
import { chatStream, keywordQueries, prng } from "../../../bench/speed/streams";

describe("remember batches", () => {
  it("keeps order and splits at 500 messages", () => {
    const messages = Array.from({ length: 1201 }, (_x, i) => ({ content: `m${i}`, id: String(i) }));
    const batches = rememberBatches(messages);
    expect(batches.map((b) => b.length)).toEqual([MAX_MESSAGES_PER_CALL, MAX_MESSAGES_PER_CALL, 201]);
    expect(batches.flat()).toEqual(messages);
  });
  it("splits at 200,000 code points per call, counting code points", () => {
    const big = { content: "字".repeat(30_000) };
    expect(rememberBatches([big, big, big, big, big, big, big]).map((b) => b.length)).toEqual([6, 1]);
  });
  it("refuses a message longer than the API accepts", () => {
    expect(() => rememberBatches([{ content: "a".repeat(32_001), id: "x" }])).toThrow(/x has 32001/);
  });
  it("makes valid, bounded agent ids", () => {
    expect(agentId("pressure", "c0", "conv 26/é")).toBe("pressure-c0-conv_26_");
    expect(agentId("x".repeat(100))).toHaveLength(64);
    expect(agentId("--")).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/);
  });
});

describe("presets and quick", () => {
  it("selects presets in canonical order and rejects unknown names", () => {
    expect(selectPresets([]).map((p) => p.name)).toEqual(["default", "no-forgetting", "pressure"]);
    expect(selectPresets(["pressure", "default"]).map((p) => p.name)).toEqual(["default", "pressure"]);
    expect(() => selectPresets(["fast"])).toThrow(/unknown configuration/);
  });
  it("takes every nth item from the first", () => {
    expect(everyNth([0, 1, 2, 3, 4, 5, 6, 7, 8], 4)).toEqual([0, 4, 8]);
  });
});

describe("query keywords", () => {
  it("keeps names, drops stop words, does not stem, deduplicates", () => {
    expect(queryKeywords("When did Isabella go to the UNHCR support group? Isabella's paintings", "en")).toEqual([
      "isabella",
      "go",
      "unhcr",
      "support",
      "group",
      "paintings",
    ]);
  });
  it("keeps the last words when there are too many", () => {
    expect(queryKeywords("alpha beta gamma delta", "en", 2)).toEqual(["gamma", "delta"]);
  });
  it("segments Chinese", () => {
    expect(queryKeywords("我想去北京看长城", "zh")).toEqual(expect.arrayContaining(["北京", "长城"]));
  });
});

describe("docs sections", () => {
  it("replaces only its own section and appends a missing one", () => {
    const doc = `# T\n\nintro\n\n${beginMarker("speed")}\nold\n${endMarker("speed")}\n\ntail\n`;
    const once = replaceSection(doc, "speed", "new");
    expect(once).toContain("intro");
    expect(once).toContain("tail");
    expect(once).toContain("new");
    expect(once).not.toContain("old");
    const both = replaceSection(once, "quality", "q");
    expect(both.endsWith(`${endMarker("quality")}\n`)).toBe(true);
    expect(replaceSection(both, "quality", "q")).toBe(both);
  });
});

describe("snapshot config", () => {
  it("rewrites main, migrations_dir and the assets directory, and drops the build step", () => {
    const toml =
      'name = "x"\nmain = "src/index.ts"\n\n[[d1_databases]]\nmigrations_dir = "migrations"\n\n' +
      '[assets]\ndirectory = "./web/dist"\nrun_worker_first = ["/v1/*"]\n\n[build]\ncommand = "node web/build.mjs"\nwatch_dir = ["web/src"]\n\n[vars]\nA = "1"\n';
    const out = snapshotConfig(toml, "/b/index.js", "/r/migrations", "/r/web/dist");
    expect(out).toBe(
      'name = "x"\nmain = "/b/index.js"\nno_bundle = true\n\n[[d1_databases]]\nmigrations_dir = "/r/migrations"\n\n' +
        '[assets]\ndirectory = "/r/web/dist"\nrun_worker_first = ["/v1/*"]\n\n[vars]\nA = "1"\n',
    );
    expect(() => snapshotConfig('name = "x"\n', "/b", "/m", "/a")).toThrow(/main/);
  });

  it("points the web view's assets at an absolute directory and drops the build step", () => {
    const toml =
      'main = "src/index.ts"\nmigrations_dir = "migrations"\n\n[assets]\ndirectory = "./web/dist"\nrun_worker_first = ["/v1/*"]\n\n' +
      '[build]\ncommand = "node web/build.mjs"\nwatch_dir = ["web/src"]\n';
    expect(snapshotConfig(toml, "/b/index.js", "/r/migrations", "/r/web/dist")).toBe(
      'main = "/b/index.js"\nno_bundle = true\nmigrations_dir = "/r/migrations"\n\n[assets]\ndirectory = "/r/web/dist"\nrun_worker_first = ["/v1/*"]\n\n',
    );
  });
});

describe("synthetic streams", () => {
  it("are deterministic and alternate roles", () => {
    const a = chatStream("zh", 50, 7, "s");
    expect(chatStream("zh", 50, 7, "s")).toEqual(a);
    expect(chatStream("zh", 50, 8, "s")).not.toEqual(a);
    expect(a.map((m) => m.role).slice(0, 4)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(new Set(a.map((m) => m.id)).size).toBe(50);
    expect(keywordQueries("en", 3, 1)).toEqual(keywordQueries("en", 3, 1));
  });
  it("prng is in [0, 1)", () => {
    const r = prng(1);
    for (let i = 0; i < 1000; i += 1) {
      const x = r();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
  it("gives each agent a distinct marker in its own messages", () => {
    const markers = new Set(Array.from({ length: 100 }, (_x, i) => marker(i)));
    expect(markers.size).toBe(100);
    const messages = agentMessages("iso-007", 7, 8);
    expect(messages.every((m) => m.id?.startsWith("iso-007:"))).toBe(true);
    expect(messages.filter((m) => m.content.includes(marker(7)))).toHaveLength(2);
  });
});

describe("floor ratios", () => {
  it("divides each percentile by the floor's", () => {
    const s = summarize([10, 20, 30, 40], [5, 5, 10, 10]);
    expect(s.ms?.p50).toBe(20);
    expect(s.ratio).toEqual({ p50: 4, p95: 4, p99: 4 });
    expect(summarize([], [1]).ratio.p50).toBeNull();
  });
});

describe("tuning and held-back conversations", () => {
  const mode = (x: number): ModeScores => ({ recall: perK(() => x), hit: perK(() => x), mrr10: x, budgetRecall: perBudget(() => x) });
  const scores = (x: number): QuestionScores => ({ exact: mode(x), text: mode(x), recalledTokens: 10, items: 1 });
  const rows = (...xs: number[]) => xs.map((x) => ({ category: 1, scores: scores(x) }));

  it("scores each group against BM25 on the same questions", () => {
    const baseline = new Map([
      ["conv-26", rows(0.5)],
      ["conv-30", rows(0.5, 0.5)],
      ["conv-41", rows(0.4)],
    ]);
    const config = new Map([
      ["conv-26", rows(0.8)],
      ["conv-30", rows(0.5, 0.5)],
      ["conv-41", rows(0.4)],
    ]);
    const entries = splitEntries(baseline, [{ name: "default/question", rows: config }]);
    const row = (config: string, group: string) => entries.find((e) => e.config === config && e.group === group);
    expect(entries.map((e) => `${e.config} ${e.group} ${e.conversations.join(",")}`)).toEqual([
      "bm25 tuning conv-26,conv-30",
      "default/question tuning conv-26,conv-30",
      "bm25 held back conv-41",
      "default/question held back conv-41",
    ]);
    expect(row("default/question", "tuning")?.locomo.pooled?.exact.recall[10]).toBeCloseTo(0.6);
    expect(row("default/question", "tuning")?.locomo.ratios?.exact.recall[10]).toBeCloseTo(1.2);
    expect(row("default/question", "held back")?.locomo.ratios?.exact.recall[10]).toBeCloseTo(1);
  });

  it("leaves out a group without conversations", () => {
    const entries = splitEntries(new Map([["conv-99", rows(0.5)]]), [
      { name: "default/question", rows: new Map([["conv-99", rows(0.5)]]) },
    ]);
    expect(entries.map((e) => e.group)).toEqual(["held back", "held back"]);
  });
});

describe("the cold path's goals and D1 figures (bench/speed/cold-report.ts, bench/driver/bench-hooks.ts)", () => {
  const run = (rttMs: number, call: ColdCall, coldP95Ms: number, sequentialStatements: number): ColdRun => ({
    size: "10k",
    nodes: 10_000,
    links: 138_000,
    cached: true,
    rttMs,
    call,
    rounds: 10,
    coldP50Ms: coldP95Ms,
    coldP95Ms,
    warmP50Ms: 30,
    warmP95Ms: 40,
    sequentialStatements,
    statements: sequentialStatements,
    rowsRead: 0,
    warmSequentialStatements: 0,
    warmRowsRead: 0,
  });
  const result = (runs: ColdRun[]): ColdResult => ({
    settings: { ...COLD_QUICK, rttsMs: [0, 50] },
    limits: { graphMaxNodes: 60_000, graphMaxLinks: 600_000 },
    agents: [],
    runs,
    freshIsolate: [],
    wallMs: 0,
  });
  const first = (goals: ReturnType<typeof coldGoals>, id: string) => goals.find((g) => g.id === id);

  it("holds each first read at 150 ms + 3 round trips and at most three sequential statements", () => {
    const goals = coldGoals(
      result([
        run(0, "recall", 140, 0),
        run(0, "search", 150, 3),
        run(0, "context", 120, 1),
        run(50, "recall", 290, 3),
        run(50, "search", 310, 3),
        run(50, "context", 200, 2),
      ]),
      false,
    );
    expect(first(goals, "cold-first-read-10k-rtt-0")?.met).toBe(true);
    // 310 ms > 150 + 3 × 50.
    expect(first(goals, "cold-first-read-10k-rtt-50")?.met).toBe(false);
    const tooMany = coldGoals(result([run(0, "recall", 100, 4), run(0, "search", 100, 0), run(0, "context", 100, 0)]), false);
    expect(first(tooMany, "cold-first-read-10k-rtt-0")?.met).toBe(false);
  });

  it("leaves a goal unjudged when its agent was not measured", () => {
    const goals = coldGoals(result([run(0, "recall", 100, 0)]), true);
    expect(first(goals, "cold-first-read-10k-rtt-0")?.met).toBeNull();
    expect(first(goals, "past-cache-recall-rtt-50")?.met).toBeNull();
    expect(coldGoals(null, false).every((g) => g.met === null)).toBe(true);
  });

  it("reads a call's D1 figures from the object's counters", () => {
    expect(callD1({ d1_sequential_round_trips: 3, d1_round_trips: 5, d1_rows_read: 70, d1_rows_written: 2 })).toEqual({
      sequentialStatements: 3,
      statements: 5,
      rowsRead: 70,
      rowsWritten: 2,
    });
    expect(callD1({})).toEqual({ sequentialStatements: 0, statements: 0, rowsRead: 0, rowsWritten: 0 });
  });
});

describe("--cold-sizes (selectColdSizes)", () => {
  it("keeps only the sizes named, and the past-the-cache agent only with the largest", () => {
    const some = selectColdSizes(COLD_FULL, ["1k", "10k"]);
    expect(some.sizes.map((s) => s.label)).toEqual(["1k", "10k"]);
    expect(some.past).toBeNull();
    const all = selectColdSizes(COLD_FULL, ["10k", "largest", "past"]);
    expect(all.sizes.map((s) => s.label)).toEqual(["10k", "largest cached"]);
    expect(all.past?.label).toBe("past the cache");
    expect(all.rttsMs).toEqual(COLD_FULL.rttsMs);
  });

  it("refuses an unknown size, none at all, and the past without the largest", () => {
    expect(() => selectColdSizes(COLD_FULL, ["2k"])).toThrow("unknown cold size 2k");
    expect(() => selectColdSizes(COLD_FULL, [])).toThrow("no cold size chosen");
    expect(() => selectColdSizes(COLD_FULL, ["1k", "past"])).toThrow("grows the largest cached agent");
  });
});
