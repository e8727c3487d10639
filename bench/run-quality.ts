/**
 * Retrieval quality of the memory API, driven over HTTP against a local `wrangler dev --local` that
 * this script starts and stops (../shared/bench/README.md is the protocol):
 *
 *   npm run bench:quality -- --locomo ../shared/bench/locomo/locomo-dev.json [--madial ../shared/bench/madial]
 *                            [--config default,no-forgetting,pressure] [--quick]
 *
 * Every configuration (preset) runs in one invocation unless --config picks some; the BM25 baseline
 * runs in the same invocation. The presets run side by side, one lane each on its own local server
 * (the answers do not depend on it; latencies include the contention, which is why the speed bench,
 * not this one, holds latency against goals). --quick: see quality/quick.ts; it writes
 * bench/results/quality-quick.json and leaves docs/BENCHMARKS.md alone. With MADial, the semantic
 * arm (quality/semantic-arm.ts) runs `default` once more on a server of its own; with LoCoMo,
 * `pressure` is set beside naive forgetting at the same characters (quality/forgetting.ts).
 * Output: tables on stdout, bench/results/quality.json, the quality section of docs/BENCHMARKS.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../scripts/local-server.mjs";
import { writeDocSection } from "./driver/docs-section";
import { HttpClient } from "./driver/http";
import { createProgress } from "./driver/progress";
import { runInfo, runInfoMarkdown } from "./driver/run-info";
import { describeError, withBenchServers } from "./driver/server";
import { aggregate, summarizeByCategory } from "./lib/aggregate";
import { bm25LocomoRetriever, bm25MadialRetriever } from "./lib/baseline";
import { scoreLocomoConversation, scoreMadial } from "./lib/evaluate";
import { BenchDataError, loadLocomo, loadMadial } from "./lib/load";
import { resultJson } from "./lib/report";
import { renderTables } from "./lib/table";
import { RECALL_LIMIT } from "./quality/ask";
import { qualityGoals } from "./quality/goals";
import { selectPresets, type Preset } from "./quality/presets";
import { quickLocomo, quickMadial } from "./quality/quick";
import { CONTEXT_BASELINE_LIMIT } from "./quality/context-block";
import {
  ablationEntries,
  contextSection,
  emptyQualityResult,
  entryName,
  entryPointEntries,
  locomoEntries,
  madialEntries,
  meaningSection,
  presetsSection,
  retentionEntries,
  semanticEntries,
  SEMANTIC,
} from "./quality/result";
import { madialHalves } from "./quality/madial-halves";
import { runLocomoPreset, runMadialPreset, type PresetRun } from "./quality/runs";
import { loadEntityAnnotations } from "./quality/annotations-load";
import { runEntityBenchmark, type EntityRun } from "./quality/meaning";
import { splitEntries } from "./quality/split";
import { forgettingAtPressure, forgettingCurve } from "./quality/forgetting";
import { runSemanticLane, startSemanticArm } from "./quality/semantic-arm";
import { qualityTables } from "./quality/tables";
import { profileSection } from "./quality/profile-bench";

const USAGE = "usage: npm run bench:quality -- --locomo FILE [--madial DIR|FILE] [--config NAME[,NAME…]] [--quick]";

function options() {
  const { values } = parseArgs({
    options: {
      locomo: { type: "string" },
      madial: { type: "string" },
      config: { type: "string", multiple: true, default: [] },
      quick: { type: "boolean", default: false },
    },
  });
  if (!values.locomo && !values.madial) throw new BenchDataError(`give --locomo (and optionally --madial)\n${USAGE}`);
  const names = values.config
    .flatMap((c) => c.split(","))
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
  return { locomo: values.locomo, madial: values.madial, presets: selectPresets(names), quick: values.quick };
}

async function main(): Promise<void> {
  const started = performance.now();
  const opts = options();
  const info = runInfo("bench:quality", "bench/run-quality.ts");
  const locomo = opts.locomo ? loadLocomo(opts.locomo) : null;
  const madialFile = opts.madial ? loadMadial(opts.madial) : null;
  const conversations = locomo ? (opts.quick ? quickLocomo(locomo.conversations) : locomo.conversations) : [];
  const madial = madialFile && opts.quick ? quickMadial(madialFile) : madialFile;
  const notes: string[] = [];
  if (locomo) {
    const e = locomo.evidenceReport;
    const asked = conversations.reduce((n, c) => n + c.questions.length, 0);
    notes.push(
      `LoCoMo ${opts.locomo}: ${conversations.length} of ${locomo.conversations.length} conversations, ${asked} questions asked ` +
        `(file: ${e.keptQuestions} of ${e.questions} kept; ${e.splitEntries} evidence entries split, ${e.reformattedIds} ids reformatted, ` +
        `${e.droppedIds} dropped, ${e.droppedQuestions} questions dropped)`,
    );
  }
  if (madial) {
    const r = madial.report;
    notes.push(
      `MADial ${opts.madial}: ${r.memories} memory records, ${madial.items.length} of ${r.items} test items asked (${r.dialogues} dialogues)`,
    );
  }
  notes.push(`Configurations: ${opts.presets.map((p) => `${p.name} (${p.description})`).join("; ")}`);
  process.stderr.write(`${notes.join("\n")}\n`);

  // Loaded (and held to the data: annotations-check.ts) in a quick run too; only a full run scores them.
  const annotations = loadEntityAnnotations({
    ...(opts.locomo ? { locomo: opts.locomo } : {}),
    ...(opts.madial ? { madial: opts.madial } : {}),
  });
  const entityItems = opts.quick ? [] : annotations.items;
  if (annotations.skipped.length > 0) {
    const reasons = [...new Set(annotations.skipped.map((s) => s.reason))]
      .map((r) => `${annotations.skipped.filter((s) => s.reason === r).length} ${r}`)
      .join(", ");
    notes.push(
      `Entity annotations: ${annotations.items.length} annotated texts present and scored, ${annotations.skipped.length} skipped (${reasons} in the data given)`,
    );
  }
  // The semantic arm (quality/semantic-arm.ts): MADial on `default` again, on a server of its own
  // whose embedder is the word vectors, when they can be had.
  const embeddings = madial && opts.presets.some((p) => p.name === "default") ? await startSemanticArm(notes) : null;
  let entities: EntityRun | null = null;
  const progress = createProgress("quality");
  const lanes = new Map<string, string>();
  // One server per lane: FTS5 keeps BM25 statistics per D1 database, so agents sharing a database
  // shift each other's full-text scores, and lanes ingesting side by side would make the answers
  // depend on timing. With a database each, every run gives the same answers.
  const servers = [
    ...opts.presets.map((p) => `quality-${p.name}`),
    ...(embeddings ? [{ name: "quality-semantic", extraArgs: embeddings.wranglerArgs }] : []),
  ];
  const { lanesDone, semanticRun, stalls } = await withBenchServers(servers, async (started) => {
    const pairs = opts.presets.flatMap((preset, i) => {
      const server = started[i];
      return server ? [{ preset, http: new HttpClient(server.url) }] : [];
    });
    const lane = async (preset: Preset, http: HttpClient): Promise<{ locomo: PresetRun | null; madial: PresetRun | null }> => {
      const step = (text: string): void => {
        lanes.set(preset.name, text);
        progress.update([...lanes.values()].join(" | "));
      };
      const locomoRun = conversations.length > 0 ? await runLocomoPreset(http, preset, conversations, step) : null;
      const madialRun = madial ? await runMadialPreset(http, preset, madial, step) : null;
      // The entity benchmark runs on the shipped configuration's server, after its questions.
      if (preset.name === "default" && entityItems.length > 0) entities = await runEntityBenchmark(http, preset.name, entityItems, step);
      lanes.set(preset.name, `${preset.name} done`);
      progress.note(`${preset.name} done`);
      return { locomo: locomoRun, madial: madialRun };
    };
    const semanticServer = embeddings ? started[opts.presets.length] : undefined;
    const semanticHttp = semanticServer ? new HttpClient(semanticServer.url) : null;
    const [lanesDone, semanticRun] = await Promise.all([
      Promise.all(pairs.map(({ preset, http }) => lane(preset, http))),
      semanticHttp && madial
        ? runSemanticLane(semanticHttp, madial, (text) => {
            lanes.set("semantic", text);
            progress.update([...lanes.values()].join(" | "));
          })
        : null,
    ]);
    const stalls: Record<string, number> = {};
    for (const http of [...pairs.map((p) => p.http), ...(semanticHttp ? [semanticHttp] : [])])
      for (const [key, n] of http.stalls) stalls[key] = (stalls[key] ?? 0) + n;
    return { lanesDone, semanticRun, stalls };
  }).finally(() => embeddings?.close());
  progress.done();
  const locomoRuns = lanesDone.flatMap((l) => (l.locomo ? [l.locomo] : []));
  const madialRuns = lanesDone.flatMap((l) => (l.madial ? [l.madial] : []));
  const stallCount = Object.values(stalls).reduce((a, n) => a + n, 0);
  if (stallCount > 0) {
    notes.push(
      `Stall guard: ${stallCount} read(s) re-sent after no answer in time or a 503 "restarted mid-request" ` +
        `(${JSON.stringify(stalls)}; see docs/BENCHMARKS.md): answers are unaffected, latencies include the stall`,
    );
  }
  const result = emptyQualityResult();
  const baselineByConversation = new Map(
    conversations.map((conv) => {
      const retrieve = bm25LocomoRetriever(conv, RECALL_LIMIT);
      return [conv.sampleId, scoreLocomoConversation(conv, (q) => retrieve(q.question))] as const;
    }),
  );
  if (locomo) {
    const baseline = [...baselineByConversation.values()].flat();
    result.split = splitEntries(
      baselineByConversation,
      locomoRuns.map((run) => ({ name: entryName(run.preset.name, "question"), rows: run.byConversation })),
    );
    const { changes: _changes, ...evidence } = locomo.evidenceReport;
    result.locomo = {
      file: opts.locomo ?? "",
      conversations: conversations.length,
      questions: conversations.reduce((n, c) => n + c.questions.length, 0),
      evidence,
      configs: locomoEntries(baseline, locomoRuns),
    };
  }
  if (madial) {
    const retrieve = bm25MadialRetriever(madial, RECALL_LIMIT);
    const baselineRows = scoreMadial(madial, (item) => retrieve(item.query));
    result.madial = {
      file: madial.files.dialogue,
      memories: madial.memories.length,
      items: madial.items.length,
      configs: madialEntries(baselineRows, madialRuns),
    };
    const defaultRun = madialRuns.find((r) => r.preset.name === "default");
    result.madialHalves = madialHalves(baselineRows, [
      ...(defaultRun ? [{ name: entryName("default", "question"), rows: defaultRun.rows.question }] : []),
      ...(semanticRun ? [{ name: `${entryName("default", "question")}/${SEMANTIC}`, rows: semanticRun.rows.question }] : []),
    ]);
    if (semanticRun) {
      result.madial.configs.push(
        ...semanticEntries(
          semanticRun,
          result.madial.configs.find((c) => c.baseline),
        ),
      );
    }
  }
  result.presets = presetsSection(locomoRuns.length > 0 ? locomoRuns : madialRuns);
  // BM25 next to the context block gets as many items as fit the budget (not recall's 20), as the
  // block does: the comparison is of what fills the budget, not of list lengths.
  const wideMadial = madial ? bm25MadialRetriever(madial, CONTEXT_BASELINE_LIMIT) : null;
  const wideBm25 = {
    locomo: summarizeByCategory(
      conversations.flatMap((conv) => {
        const retrieve = bm25LocomoRetriever(conv, CONTEXT_BASELINE_LIMIT);
        return scoreLocomoConversation(conv, (q) => retrieve(q.question));
      }),
    ).pooled,
    madial: madial && wideMadial ? aggregate(scoreMadial(madial, (item) => wideMadial(item.query)).map((r) => r.scores)) : null,
  };
  result.contextBlock = contextSection(locomoRuns, madialRuns, wideBm25);
  const locomoBaseline = result.locomo?.configs.find((c) => c.baseline);
  const madialBaseline = result.madial?.configs.find((c) => c.baseline);
  const ran = (runs: readonly PresetRun[], name: string) => runs.find((r) => r.preset.name === name);
  result.ablations = ablationEntries(ran(locomoRuns, "default"), ran(madialRuns, "default"), locomoBaseline, madialBaseline);
  result.entryPoints = entryPointEntries(ran(locomoRuns, "default"), ran(madialRuns, "default"), locomoBaseline, madialBaseline);
  result.retention = retentionEntries(ran(locomoRuns, "no-forgetting"), locomoBaseline);
  const pressureRun = ran(locomoRuns, "pressure");
  const noForgettingRun = ran(locomoRuns, "no-forgetting");
  if (pressureRun && noForgettingRun) {
    result.forgetting.atPressure = forgettingAtPressure({
      conversations,
      bm25: baselineByConversation,
      pressure: { rows: pressureRun.byConversation, characters: pressureRun.charactersByConversation },
      noForgetting: { rows: noForgettingRun.byConversation },
    });
  }
  result.forgetting.curve = forgettingCurve(conversations, baselineByConversation, noForgettingRun?.retention ?? []);
  const profileRun = locomoRuns.find((r) => r.preset.profile) ?? madialRuns.find((r) => r.preset.profile);
  result.profile = profileRun
    ? profileSection(conversations, profileRun.profiles, madialRuns.find((r) => r.preset.profile)?.madialProfile ?? null)
    : null;
  if (result.profile && result.profile.withoutFacts.length > 0) {
    notes.push(
      `Profile: ${result.profile.withoutFacts.length} conversation(s) without annotated facts, not scored: ${result.profile.withoutFacts.join(", ")}`,
    );
  }
  result.goals = qualityGoals({
    locomo: result.locomo?.configs ?? [],
    madial: result.madial?.configs ?? [],
    entryPoints: result.entryPoints,
    split: result.split,
    forgetting: result.forgetting.atPressure,
    profile: result.profile,
    quick: opts.quick,
  });
  const wallMs = performance.now() - started;
  result.stalls = stalls;
  result.meaning = meaningSection(
    [...locomoRuns.map((run) => ({ dataset: "LoCoMo", run })), ...madialRuns.map((run) => ({ dataset: "MADial", run }))],
    entities,
  );
  result.run = { ...info, wallMs, quick: opts.quick };

  const tables = qualityTables(result);
  console.log(notes.join("\n"));
  console.log();
  console.log(renderTables(tables, "text"));
  const outDir = path.join(ROOT, "bench", "results");
  mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, opts.quick ? "quality-quick.json" : "quality.json");
  writeFileSync(outFile, `${resultJson(result)}\n`);
  if (!opts.quick) {
    writeDocSection(
      "quality",
      [
        "## Quality results",
        "",
        runInfoMarkdown(info, wallMs),
        "",
        ...notes.map((n) => `- ${n}`),
        "",
        renderTables(tables, "markdown"),
      ].join("\n"),
    );
  }
  process.stderr.write(
    `quality: ${(wallMs / 1000).toFixed(0)} s; wrote ${path.relative(ROOT, outFile)}${opts.quick ? "" : " and docs/BENCHMARKS.md"}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`\nbench:quality: ${describeError(e)}\n`);
  process.exit(e instanceof BenchDataError ? 2 : 1);
});
