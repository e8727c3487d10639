/**
 * Does the network forget better than the obvious alternatives at the same budget? (issue 23)
 *
 * `pressure ÷ no-forgetting` (the network after forgetting, as a share of the same network having
 * forgotten nothing) beside each naive policy of naive-policies.ts as a share of BM25 over the whole
 * conversation, the policies holding the characters `pressure`'s agent held of that conversation and
 * searched with BM25 (question as query, top 20). Both by exact ids and answer-bearing
 * (lib/answer-bearing.ts); categories 1–4 pooled; per group of conversations (all, tuning, held back:
 * split.ts). Along the retention curve (`no-forgetting`'s agents after k cycles, quality/extras.ts)
 * each point is set beside the policies at the share of characters held at that point.
 *
 * Result key "forgetting": { "atPressure": [ForgettingEntry], "curve": [CurvePoint] }.
 */
import { summarizeByCategory, type CategorisedScores } from "../lib/aggregate";
import { bm25LocomoRetriever } from "../lib/baseline";
import { scoreLocomoConversation } from "../lib/evaluate";
import type { LocomoConversation } from "../lib/locomo";
import { perK, type K } from "../lib/metrics";
import { fmt, type Table } from "../lib/table";
import { RECALL_LIMIT } from "./ask";
import { applyPolicy, NAIVE_POLICIES, RANDOM_SEEDS, type HeldTurn, type NaivePolicy } from "./naive-policies";
import { TUNING_CONVERSATIONS, type SplitGroup } from "./split";

/** Pooled recall@k, exact ids and answer-bearing, of a set of rows. */
export interface Recalls {
  questions: number;
  exact: Record<K, number> | null;
  grounded: number;
  answerBearing: Record<K, number> | null;
}

/** One line of the comparison: its recalls and their share of its own reference (R@k ÷ R@k). */
export interface Compared {
  name: string;
  recalls: Recalls;
  share: { exact: Record<K, number | null>; answerBearing: Record<K, number | null> };
}

export interface ForgettingEntry {
  group: "all" | SplitGroup;
  conversations: string[];
  /** Characters `pressure` held ÷ remembered over the group's agents. */
  held: number | null;
  /** The network: pressure, its share of no-forgetting. */
  network: Compared;
  /** BM25 over the whole conversations: the reference of the policies. */
  bm25: Recalls;
  /** Each policy as a share of BM25 on the whole conversation. */
  policies: Compared[];
}

export interface CurvePoint {
  cycles: number;
  held: number | null;
  /** `no-forgetting`'s agents after `cycles` cycles, as a share of themselves at 0 cycles. */
  network: Compared;
  policies: Compared[];
}

/** `runs`: how many times each question is in `rows` (random's seeds); counts are per run. */
export function recallsOf(rows: readonly CategorisedScores[], runs = 1): Recalls {
  const pooled = summarizeByCategory(rows).pooled;
  return {
    questions: (pooled?.questions ?? 0) / runs,
    exact: pooled ? pooled.exact.recall : null,
    grounded: (pooled?.answerBearing?.grounded ?? 0) / runs,
    answerBearing: pooled?.answerBearing?.recall ?? null,
  };
}

const divide = (a: Record<K, number> | null, b: Record<K, number> | null): Record<K, number | null> =>
  perK((k) => (a && b && b[k] > 0 ? a[k] / b[k] : null));

export function compared(name: string, recalls: Recalls, reference: Recalls): Compared {
  return {
    name,
    recalls,
    share: { exact: divide(recalls.exact, reference.exact), answerBearing: divide(recalls.answerBearing, reference.answerBearing) },
  };
}

const heldTurns = (conv: LocomoConversation): HeldTurn[] =>
  conv.sessions.flatMap((s) => s.turns.map((t) => ({ id: t.diaId, text: t.content })));

/** The evidence turns of the questions that are pooled (categories 1–4): what the oracle keeps. */
const askedAbout = (conv: LocomoConversation): Set<string> =>
  new Set(conv.questions.filter((q) => q.category !== 5).flatMap((q) => q.evidence));

const seedsOf = (policy: NaivePolicy): readonly number[] => (policy === "random" ? RANDOM_SEEDS : [0]);

/**
 * Rows of `policy` on one conversation at `share`: BM25 over what it kept. Random gives the rows of
 * every seed: each seed asks the same questions, so pooling them is the mean over seeds.
 */
export function policyRows(conv: LocomoConversation, policy: NaivePolicy, share: number): CategorisedScores[] {
  const turns = heldTurns(conv);
  const evidence = askedAbout(conv);
  const seeds = seedsOf(policy);
  return seeds.flatMap((seed) => {
    const retrieve = bm25LocomoRetriever(conv, RECALL_LIMIT, applyPolicy(policy, turns, share, { seed, evidence }));
    return scoreLocomoConversation(conv, (q) => retrieve(q.question));
  });
}

export interface ForgettingInputs {
  conversations: readonly LocomoConversation[];
  /** BM25 over each whole conversation (sample id → rows). */
  bm25: ReadonlyMap<string, readonly CategorisedScores[]>;
  pressure: {
    rows: ReadonlyMap<string, readonly CategorisedScores[]>;
    characters: ReadonlyMap<string, { held: number; remembered: number }>;
  };
  noForgetting: { rows: ReadonlyMap<string, readonly CategorisedScores[]> };
}

const rowsOf = (byConversation: ReadonlyMap<string, readonly CategorisedScores[]>, ids: readonly string[]) =>
  ids.flatMap((id) => [...(byConversation.get(id) ?? [])]);

/** The comparison at the characters `pressure` held, per group of conversations. */
export function forgettingAtPressure(inputs: ForgettingInputs): ForgettingEntry[] {
  const groupOf = (id: string): SplitGroup => (TUNING_CONVERSATIONS.includes(id) ? "tuning" : "held back");
  const ran = inputs.conversations.filter((c) => inputs.pressure.characters.has(c.sampleId));
  const perPolicy = new Map(
    NAIVE_POLICIES.map((policy) => [
      policy,
      new Map(
        ran.map((conv) => {
          const c = inputs.pressure.characters.get(conv.sampleId);
          const share = c && c.remembered > 0 ? c.held / c.remembered : 1;
          return [conv.sampleId, policyRows(conv, policy, share)] as const;
        }),
      ),
    ]),
  );
  const groups: ("all" | SplitGroup)[] = ["all", "tuning", "held back"];
  return groups.flatMap((group) => {
    const ids = ran.map((c) => c.sampleId).filter((id) => group === "all" || groupOf(id) === group);
    if (ids.length === 0) return [];
    let held = 0;
    let remembered = 0;
    for (const id of ids) {
      const c = inputs.pressure.characters.get(id);
      held += c?.held ?? 0;
      remembered += c?.remembered ?? 0;
    }
    const bm25 = recallsOf(rowsOf(inputs.bm25, ids));
    return [
      {
        group,
        conversations: ids,
        held: remembered > 0 ? held / remembered : null,
        network: compared(
          "pressure ÷ no-forgetting",
          recallsOf(rowsOf(inputs.pressure.rows, ids)),
          recallsOf(rowsOf(inputs.noForgetting.rows, ids)),
        ),
        bm25,
        policies: NAIVE_POLICIES.map((p) => compared(p, recallsOf(rowsOf(perPolicy.get(p) ?? new Map(), ids), seedsOf(p).length), bm25)),
      },
    ];
  });
}

/** The retention curve's points beside the policies at each point's share of characters held. */
export function forgettingCurve(
  conversations: readonly LocomoConversation[],
  bm25: ReadonlyMap<string, readonly CategorisedScores[]>,
  retention: readonly { cycles: number; rows: readonly CategorisedScores[]; held: number; remembered: number }[],
): CurvePoint[] {
  const first = retention[0];
  if (!first) return [];
  const start = recallsOf(first.rows);
  const reference = recallsOf(conversations.flatMap((c) => [...(bm25.get(c.sampleId) ?? [])]));
  return retention.map((point) => {
    const share = point.remembered > 0 ? point.held / point.remembered : null;
    return {
      cycles: point.cycles,
      held: share,
      network: compared(`no-forgetting after ${point.cycles} cycles`, recallsOf(point.rows), start),
      policies:
        share === null
          ? []
          : NAIVE_POLICIES.map((p) =>
              compared(
                p,
                recallsOf(
                  conversations.flatMap((c) => policyRows(c, p, share)),
                  seedsOf(p).length,
                ),
                reference,
              ),
            ),
    };
  });
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? "–" : `${fmt(x * 100, 1)}%`);

function comparedCells(c: Compared, k: K): string[] {
  return [fmt(c.recalls.exact?.[k], 3), fmt(c.share.exact[k], 2), fmt(c.recalls.answerBearing?.[k], 3), fmt(c.share.answerBearing[k], 2)];
}

const HEADERS = (k: K) => [`R@${k} exact`, `share exact`, `R@${k} answer-bearing`, `share answer-bearing`];

export function forgettingTables(atPressure: readonly ForgettingEntry[], curve: readonly CurvePoint[]): Table[] {
  const k: K = 10;
  const tables: Table[] = [];
  if (atPressure.length > 0) {
    tables.push({
      title:
        "Forgetting at the same budget: `pressure` ÷ `no-forgetting` beside naive policies ÷ BM25 on the whole conversation, each policy holding the characters `pressure` held of that conversation (BM25 over what it kept, question as query, 1–4 pooled; random = mean of seeds 1–5; oracle = a ceiling)",
      headers: ["group", "held", "n", "grounded", "memory", ...HEADERS(k)],
      align: ["left", "left", "left", "left", "left"],
      rows: atPressure.flatMap((e) =>
        [e.network, ...e.policies].map((c) => [
          e.group,
          pct(e.held),
          String(c.recalls.questions),
          String(c.recalls.grounded),
          c.name,
          ...comparedCells(c, k),
        ]),
      ),
    });
  }
  if (curve.length > 0) {
    tables.push({
      title:
        "Forgetting along the retention curve: `no-forgetting`'s agents after k cycles ÷ themselves at 0, beside the naive policies ÷ BM25 at the share of characters held at that point (all conversations)",
      headers: ["cycles", "held", "memory", ...HEADERS(k)],
      align: ["left", "left", "left"],
      rows: curve.flatMap((p) => [p.network, ...p.policies].map((c) => [String(p.cycles), pct(p.held), c.name, ...comparedCells(c, k)])),
    });
  }
  return tables;
}
