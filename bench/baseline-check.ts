/**
 * Runs only the BM25 baseline on the real data and prints the README's tables: a sanity check of the
 * data-side library, no API involved.
 *
 *   npx tsx bench/baseline-check.ts --locomo ../shared/bench/locomo/locomo-dev.json --madial ../shared/bench/madial
 *
 * Options: --limit N (items per question, default 20 = the largest k), --markdown (Markdown tables
 * instead of plain text), --json FILE (also write the result in the shape documented in lib/report.ts).
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { CategorisedScores } from "./lib/aggregate";
import { bm25MadialRetriever, bm25LocomoRetriever } from "./lib/baseline";
import { BM25_B, BM25_K1 } from "./lib/bm25";
import { scoreLocomoConversation, scoreMadial } from "./lib/evaluate";
import { BenchDataError, loadLocomo, loadMadial } from "./lib/load";
import { BUDGETS, KS, MRR_CUTOFF } from "./lib/metrics";
import {
  locomoConfigResult,
  locomoTables,
  madialConfigResult,
  madialTable,
  resultJson,
  RESULT_SCHEMA,
  type BenchResult,
} from "./lib/report";
import { renderTables, type Table } from "./lib/table";

const USAGE = "usage: npx tsx bench/baseline-check.ts [--locomo FILE] [--madial DIR|FILE] [--limit N] [--markdown] [--json FILE]";

function main(): void {
  const { values } = parseArgs({
    options: {
      locomo: { type: "string" },
      madial: { type: "string" },
      limit: { type: "string", default: "20" },
      markdown: { type: "boolean", default: false },
      json: { type: "string" },
    },
  });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new BenchDataError(`--limit must be a positive integer\n${USAGE}`);
  if (!values.locomo && !values.madial) throw new BenchDataError(`give --locomo and/or --madial\n${USAGE}`);

  const result: BenchResult = {
    schema: RESULT_SCHEMA,
    settings: {
      ks: [...KS],
      budgets: [...BUDGETS],
      mrrCutoff: MRR_CUTOFF,
      limit,
      tokens: "approx: 1 per CJK character, other characters ≈4 per token",
      bm25: { k1: BM25_K1, b: BM25_B },
    },
    locomo: null,
    madial: null,
  };
  const tables: Table[] = [];
  const notes: string[] = [];

  if (values.locomo) {
    const ds = loadLocomo(values.locomo);
    const rows: CategorisedScores[] = ds.conversations.flatMap((conv) => {
      const retrieve = bm25LocomoRetriever(conv, limit);
      return scoreLocomoConversation(conv, (q) => retrieve(q.question));
    });
    const { changes, ...evidence } = ds.evidenceReport;
    result.locomo = {
      file: values.locomo,
      conversations: ds.conversations.length,
      questions: evidence.keptQuestions,
      evidence,
      configs: [locomoConfigResult({ name: "bm25", baseline: true }, rows)],
    };
    tables.push(...locomoTables(result.locomo.configs, "exact"), ...locomoTables(result.locomo.configs, "text"));
    notes.push(
      `LoCoMo: ${ds.conversations.length} conversations, ${evidence.questions} questions, ${evidence.keptQuestions} kept; ` +
        `evidence: ${evidence.splitEntries} entries split, ${evidence.reformattedIds} ids reformatted, ` +
        `${evidence.duplicateIds} duplicates, ${evidence.droppedIds} ids dropped, ${evidence.droppedQuestions} questions dropped`,
      ...changes.map((c) => `  ${c.sampleId}: ${JSON.stringify(c.raw)} → ${JSON.stringify(c.evidence)}  (${c.question})`),
    );
  }

  if (values.madial) {
    const ds = loadMadial(values.madial);
    const retrieve = bm25MadialRetriever(ds, limit);
    const rows = scoreMadial(ds, (item) => retrieve(item.query));
    result.madial = {
      file: ds.files.dialogue,
      memories: ds.memories.length,
      items: ds.items.length,
      configs: [madialConfigResult({ name: "bm25", baseline: true }, rows)],
    };
    tables.push(madialTable(result.madial.configs));
    const r = ds.report;
    notes.push(
      `MADial: ${r.memories} memories, ${r.dialogues} dialogues, ${r.items} items; ${r.singleLineQueries} one-line queries, ` +
        `${r.multipleTestTurns} dialogues with several test turns (first used), ${r.missingRelevantIds} unknown relevant ids, ` +
        `${r.dropped.length} dropped${r.dropped.map((d) => ` [${d.id}: ${d.reason}]`).join("")}`,
    );
  }

  console.log(notes.join("\n"));
  console.log();
  console.log(renderTables(tables, values.markdown ? "markdown" : "text"));
  if (values.json) writeFileSync(values.json, resultJson(result) + "\n");
}

try {
  main();
} catch (e) {
  if (e instanceof BenchDataError || (e instanceof TypeError && "code" in e)) {
    console.error(`baseline-check: ${e.message}`);
    process.exit(2);
  }
  throw e;
}
