/**
 * The quality goals (issue 15; docs/BENCHMARKS.md), with the question text as query (the README's
 * primary query mode), exact ids; LoCoMo on categories 1–4 pooled:
 * - `default` reaches ≥ 1.15 × BM25's evidence recall@10 and ≥ 1.2 × its recall@1,
 * - and ≥ 1.1 × its recall within a 256-token budget (more text per item is no win);
 * - `pressure` keeps ≥ 0.9 × the evidence recall of `no-forgetting` at every k,
 * - while holding ≤ 50% of the characters remembered;
 * - on MADial-Bench, `default` reaches ≥ 1.1 × BM25's hit@5;
 * - fusing keyword and vector entry points (the search endpoint's hybrid mode) scores no lower
 *   than the better of the two alone, at R@10 (LoCoMo) and hit@5 (MADial).
 * - on the held-back conversations, `pressure ÷ no-forgetting` answer-bearing R@10 ≥ 1.4 × the best
 *   naive policy's share (forgetting.ts) at the same characters held, and its exact-id share ≥ the
 *   truncation policy's;
 * - with the semantic arm's embedder (semantic-arm.ts), MADial `default` reaches ≥ 1.15 × BM25's
 *   hit@5, and the search endpoint's hybrid mode ≥ the better of keyword and vector;
 * - the same LoCoMo figures of `default` (R@10, R@1) hold on the conversations held back from tuning
 *   (quality/split.ts), against BM25 on the same questions;
 * - on the held-back conversations, the profile covers ≥ 1.6 × the annotators' facts that the better
 *   of recency and random turns of its length covers, and each participant's ≥ 1.4 × (pooled over
 *   participants, profile-bench.ts).
 * Held against, never tuned to: a miss is reported as a miss.
 */
import type { Goal } from "../driver/goal";
import { KS, type K } from "../lib/metrics";
import { fmt } from "../lib/table";
import type { EntryPointEntry, LocomoEntry, MadialEntry } from "./result";
import { entryName, SEMANTIC } from "./result";
import type { SplitEntry } from "./split";
import type { ForgettingEntry } from "./forgetting";
import type { ProfileCell, ProfileSection } from "./profile-bench";

export type { Goal };

const MODE = "question" as const;

function recallRatios(entry: LocomoEntry, reference: LocomoEntry): { k: K; ratio: number | null }[] {
  return KS.map((k) => {
    const a = entry.pooled?.exact.recall[k];
    const b = reference.pooled?.exact.recall[k];
    return { k, ratio: a === undefined || b === undefined || b === 0 ? null : a / b };
  });
}

const notRun = (id: string, goal: string): Goal => ({ id, goal, measured: "–", met: null, note: "configuration not run" });

function ratioGoal(
  id: string,
  goal: string,
  value: number | undefined,
  reference: number | undefined,
  min: number,
  note: string | null,
): Goal {
  if (value === undefined || reference === undefined) return notRun(id, goal);
  const ratio = reference === 0 ? null : value / reference;
  return { id, goal, measured: `${fmt(value, 3)} vs ${fmt(reference, 3)} (×${fmt(ratio, 2)})`, met: ratio !== null && ratio >= min, note };
}

export interface GoalInputs {
  locomo: readonly LocomoEntry[];
  madial: readonly MadialEntry[];
  entryPoints: readonly EntryPointEntry[];
  split: readonly SplitEntry[];
  /** forgetting.ts's comparison at the characters `pressure` held, per group. */
  forgetting: readonly ForgettingEntry[];
  /** profile-bench.ts's section; null when not run. */
  profile: ProfileSection | null;
  quick: boolean;
}

function profileGoal(id: string, goal: string, c: ProfileCell | undefined, min: number, note: string | null): Goal {
  if (!c) return notRun(id, goal);
  const best = Math.max(c.recency, c.random);
  return {
    id,
    goal,
    measured: `${fmt(100 * c.profile, 1)}% vs ${fmt(100 * best, 1)}% (×${fmt(c.ratio, 2)}) at ${fmt(c.chars, 0)} chars`,
    met: c.ratio === null ? null : c.ratio >= min,
    note,
  };
}

export function qualityGoals(inputs: GoalInputs): Goal[] {
  const find = (name: string): LocomoEntry | undefined => inputs.locomo.find((c) => c.name === name);
  const bm25 = find("bm25");
  const def = find(entryName("default", MODE));
  const noForgetting = find(entryName("no-forgetting", MODE));
  const pressure = find(entryName("pressure", MODE));
  const note = inputs.quick ? "--quick: one conversation, a sample of questions" : null;
  const exact = (e: LocomoEntry | undefined) => e?.pooled?.exact;
  const goals: Goal[] = [];
  if (inputs.locomo.length > 0) {
    goals.push(
      ratioGoal(
        "default-r10",
        "LoCoMo 1–4, exact: default R@10 ≥ 1.15 × BM25",
        exact(def)?.recall[10],
        exact(bm25)?.recall[10],
        1.15,
        note,
      ),
      ratioGoal("default-r1", "LoCoMo 1–4, exact: default R@1 ≥ 1.2 × BM25", exact(def)?.recall[1], exact(bm25)?.recall[1], 1.2, note),
      ratioGoal(
        "default-budget",
        "LoCoMo 1–4, exact: default recall within 256 tokens ≥ 1.1 × BM25",
        exact(def)?.budgetRecall[256],
        exact(bm25)?.budgetRecall[256],
        1.1,
        note,
      ),
    );
    const goal = "LoCoMo 1–4, exact: pressure R@k ≥ 0.9 × no-forgetting at every k";
    if (!pressure || !noForgetting) goals.push(notRun("pressure-vs-no-forgetting", goal));
    else {
      const ratios = recallRatios(pressure, noForgetting);
      goals.push({
        id: "pressure-vs-no-forgetting",
        goal,
        measured: ratios.map((r) => `R@${r.k} ×${fmt(r.ratio, 2)}`).join(", "),
        met: ratios.every((r) => r.ratio !== null && r.ratio >= 0.9),
        note,
      });
    }
    const held = pressure?.characters?.ratio ?? null;
    goals.push({
      id: "pressure-characters",
      goal: "pressure holds ≤ 50% of the characters remembered",
      measured: held === null ? "–" : `${fmt(held * 100, 1)}%`,
      met: held === null ? null : held <= 0.5,
      note: pressure ? note : "configuration not run",
    });
  }
  const forgetting = inputs.forgetting.find((e) => e.group === "held back");
  if (forgetting) {
    const naive = forgetting.policies.filter((p) => p.name !== "oracle");
    const network = forgetting.network.share;
    const bestNaive = Math.max(...naive.map((p) => p.share.answerBearing[10] ?? -1));
    const truncation = naive.find((p) => p.name === "truncation")?.share.exact[10] ?? null;
    const ab = network.answerBearing[10];
    goals.push(
      {
        id: "forgetting-answer-bearing",
        goal: "LoCoMo held back: pressure ÷ no-forgetting answer-bearing R@10 ≥ 1.4 × the best naive policy's share at the same characters",
        measured: `${fmt(ab, 2)} vs ${fmt(bestNaive, 2)} (×${fmt(ab !== null && bestNaive > 0 ? ab / bestNaive : null, 2)}) at ${fmt((forgetting.held ?? 0) * 100, 1)}% held`,
        met: ab === null || bestNaive <= 0 ? null : ab >= 1.4 * bestNaive,
        note,
      },
      {
        id: "forgetting-exact",
        goal: "LoCoMo held back: pressure ÷ no-forgetting exact-id R@10 ≥ the truncation policy's share",
        measured: `${fmt(network.exact[10], 2)} vs ${fmt(truncation, 2)}`,
        met: network.exact[10] === null || truncation === null ? null : network.exact[10] >= truncation,
        note,
      },
    );
  }
  const heldBack = (config: string) => inputs.split.find((e) => e.group === "held back" && e.config === config)?.locomo.pooled?.exact;
  if (inputs.split.some((e) => e.group === "held back")) {
    const def = heldBack(entryName("default", MODE));
    const base = heldBack("bm25");
    goals.push(
      ratioGoal("held-back-r10", "LoCoMo held back from tuning: default R@10 ≥ 1.15 × BM25", def?.recall[10], base?.recall[10], 1.15, note),
      ratioGoal("held-back-r1", "LoCoMo held back from tuning: default R@1 ≥ 1.2 × BM25", def?.recall[1], base?.recall[1], 1.2, note),
    );
  }
  const heldProfile = inputs.profile?.groups.find((g) => g.group === "held back");
  if (heldProfile) {
    goals.push(
      profileGoal(
        "profile-pooled",
        "LoCoMo held back: the profile covers ≥ 1.6 × the facts the better of recency and random turns of its length cover",
        heldProfile.pooled,
        1.6,
        note,
      ),
      profileGoal(
        "profile-participants",
        "LoCoMo held back: each participant's profile covers ≥ 1.4 × the better of their recent and random turns (pooled over participants)",
        heldProfile.participants,
        1.4,
        note,
      ),
    );
  }
  if (inputs.madial.length > 0) {
    const findM = (name: string) => inputs.madial.find((c) => c.name === name)?.all?.exact.hit[5];
    goals.push(
      ratioGoal("madial-hit5", "MADial, exact: default hit@5 ≥ 1.1 × BM25", findM(entryName("default", MODE)), findM("bm25"), 1.1, note),
    );
  }
  const semantic = (name: string) => inputs.madial.find((c) => c.name === `${name}/${SEMANTIC}`)?.all?.exact.hit[5];
  if (semantic(entryName("default", MODE)) !== undefined) {
    const findM = (name: string) => inputs.madial.find((c) => c.name === name)?.all?.exact.hit[5];
    goals.push(
      ratioGoal(
        "madial-semantic-hit5",
        "MADial, exact, semantic arm: default hit@5 ≥ 1.15 × BM25",
        semantic(entryName("default", MODE)),
        findM("bm25"),
        1.15,
        note,
      ),
    );
    const hybrid = semantic("search:hybrid");
    const best = Math.max(semantic("search:keyword") ?? -1, semantic("search:vector") ?? -1);
    goals.push({
      id: "fusion-semantic",
      goal: "MADial, semantic arm: search hybrid hit@5 ≥ the better of keyword and vector",
      measured: hybrid === undefined || best < 0 ? "–" : `hybrid ${fmt(hybrid, 3)} vs best single ${fmt(best, 3)}`,
      met: hybrid === undefined || best < 0 ? null : hybrid >= best,
      note,
    });
  }
  if (inputs.entryPoints.length > 0) {
    const mode = (m: string) => inputs.entryPoints.find((e) => e.mode === m);
    const parts: string[] = [];
    let met = true;
    const check = (label: string, value: (e: EntryPointEntry | undefined) => number | undefined) => {
      const hybrid = value(mode("hybrid"));
      const best = Math.max(value(mode("keyword")) ?? -1, value(mode("vector")) ?? -1);
      if (hybrid === undefined || best < 0) return;
      parts.push(`${label} hybrid ${fmt(hybrid, 3)} vs best single ${fmt(best, 3)}`);
      met &&= hybrid >= best;
    };
    check("LoCoMo R@10", (e) => e?.locomo?.pooled?.exact.recall[10]);
    check("MADial hit@5", (e) => e?.madial?.all?.exact.hit[5]);
    goals.push({
      id: "fusion-not-below-best",
      goal: "search: hybrid (fused) ≥ the better of keyword and vector alone",
      measured: parts.join("; ") || "–",
      met: parts.length > 0 ? met : null,
      note,
    });
  }
  return goals;
}
