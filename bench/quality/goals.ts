/**
 * The quality goals (issue; docs/BENCHMARKS.md), on LoCoMo categories 1–4 pooled, exact ids, with
 * the question text as query (the README's primary query mode):
 * - `default` reaches ≥ 1.1 × BM25's evidence recall at every k (1, 5, 10, 20);
 * - `pressure` keeps ≥ 0.9 × the evidence recall of `no-forgetting` at every k,
 * - while holding ≤ 50% of the characters remembered.
 * Held against, never tuned to: a miss is reported as a miss.
 */
import type { Goal } from "../driver/goal";
import { KS, type K } from "../lib/metrics";
import { fmt } from "../lib/table";
import { entryName, type LocomoEntry } from "./result";

export type { Goal };

const MODE = "question" as const;

function recallRatios(entry: LocomoEntry, reference: LocomoEntry): { k: K; ratio: number | null }[] {
  return KS.map((k) => {
    const a = entry.pooled?.exact.recall[k];
    const b = reference.pooled?.exact.recall[k];
    return { k, ratio: a === undefined || b === undefined || b === 0 ? null : a / b };
  });
}

function ratioGoal(
  id: string,
  goal: string,
  entry: LocomoEntry | undefined,
  reference: LocomoEntry | undefined,
  min: number,
  note: string | null,
): Goal {
  if (!entry || !reference) return { id, goal, measured: "–", met: null, note: "configuration not run" };
  const ratios = recallRatios(entry, reference);
  const measured = ratios.map((r) => `R@${r.k} ×${fmt(r.ratio, 2)}`).join(", ");
  return { id, goal, measured, met: ratios.every((r) => r.ratio !== null && r.ratio >= min), note };
}

export function qualityGoals(configs: readonly LocomoEntry[], quick: boolean): Goal[] {
  const find = (name: string): LocomoEntry | undefined => configs.find((c) => c.name === name);
  const bm25 = find("bm25");
  const def = find(entryName("default", MODE));
  const noForgetting = find(entryName("no-forgetting", MODE));
  const pressure = find(entryName("pressure", MODE));
  const note = quick ? "--quick: one conversation only" : null;
  const held = pressure?.characters?.ratio ?? null;
  return [
    ratioGoal("default-vs-bm25", "LoCoMo 1–4, exact: default R@k ≥ 1.1 × BM25 at every k", def, bm25, 1.1, note),
    ratioGoal(
      "pressure-vs-no-forgetting",
      "LoCoMo 1–4, exact: pressure R@k ≥ 0.9 × no-forgetting at every k",
      pressure,
      noForgetting,
      0.9,
      note,
    ),
    {
      id: "pressure-characters",
      goal: "pressure holds ≤ 50% of the characters remembered",
      measured: held === null ? "–" : `${fmt(held * 100, 1)}%`,
      met: held === null ? null : held <= 0.5,
      note: pressure ? note : "configuration not run",
    },
  ];
}
