/**
 * Naive forgetting at a budget (issue 23): what a memory without this network would keep of a
 * conversation if it could hold only a share of its characters. The network under `pressure` is
 * compared with these at the characters it actually held:
 *
 * - `recency`: the latest turns that fit (what a chat context window does);
 * - `random`: turns in a seeded random order while they fit (the mean of seeds 1–5 is reported);
 * - `truncation`: every turn cut to the first ⌊share × its length⌋ code points (keeps every id, loses
 *   the ends of the texts);
 * - `oracle`: the evidence turns of the conversation's questions, in conversation order, while they
 *   fit: a ceiling no forgetting can reach without knowing the questions.
 *
 * Each takes turns (id and remembered content) and returns the turns kept, with their text as held;
 * the caller searches those with BM25 and scores them like every configuration. Whole-turn policies
 * stop at the first turn that does not fit (skipping it to take shorter ones later would favour short
 * turns). Characters are code points, as the API counts them. Pure module.
 */
import { seededRandom } from "../../src/memory/capacity";

export interface HeldTurn {
  id: string;
  text: string;
}

export const NAIVE_POLICIES = ["recency", "random", "truncation", "oracle"] as const;
export type NaivePolicy = (typeof NAIVE_POLICIES)[number];

/** The random policy's seeds; its figures are the mean over them. */
export const RANDOM_SEEDS = [1, 2, 3, 4, 5] as const;

const length = (text: string): number => [...text].length;

/** Characters a share of `turns` may hold: ⌊share × total⌋. */
export function budgetOf(turns: readonly HeldTurn[], share: number): number {
  return Math.floor(share * turns.reduce((n, t) => n + length(t.text), 0));
}

/** The leading turns of `order` whose running total fits `budget`. */
function takeWhileFits(order: readonly HeldTurn[], budget: number): HeldTurn[] {
  const kept: HeldTurn[] = [];
  let used = 0;
  for (const t of order) {
    const n = length(t.text);
    if (used + n > budget) break;
    used += n;
    kept.push(t);
  }
  return kept;
}

/** The latest turns that fit, in conversation order. */
export function recencyWindow(turns: readonly HeldTurn[], share: number): HeldTurn[] {
  return takeWhileFits([...turns].reverse(), budgetOf(turns, share)).reverse();
}

/** `xs` in a random order: Fisher–Yates with `seed`. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const next = seededRandom(seed);
  const order = [...xs];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    const a = order[i];
    const b = order[j];
    if (a !== undefined && b !== undefined) [order[i], order[j]] = [b, a];
  }
  return order;
}

/** Turns in a random order (Fisher–Yates with `seed`) while they fit, returned in conversation order. */
export function randomTurns(turns: readonly HeldTurn[], share: number, seed: number): HeldTurn[] {
  const order = shuffled(turns, seed);
  const kept = new Set(takeWhileFits(order, budgetOf(turns, share)));
  return turns.filter((t) => kept.has(t));
}

/** Every turn cut to its first ⌊share × length⌋ code points (turns cut to nothing are dropped). */
export function uniformTruncation(turns: readonly HeldTurn[], share: number): HeldTurn[] {
  return turns.flatMap((t) => {
    const chars = [...t.text];
    const keep = Math.floor(share * chars.length);
    return keep > 0 ? [{ id: t.id, text: chars.slice(0, keep).join("") }] : [];
  });
}

/** The turns questions ask about (`evidence` ids), in conversation order, while they fit. */
export function oracleTurns(turns: readonly HeldTurn[], share: number, evidence: ReadonlySet<string>): HeldTurn[] {
  return takeWhileFits(
    turns.filter((t) => evidence.has(t.id)),
    budgetOf(turns, share),
  );
}

/** What `policy` holds of `turns` at `share` (`seed` for random; `evidence` for the oracle). */
export function applyPolicy(
  policy: NaivePolicy,
  turns: readonly HeldTurn[],
  share: number,
  options: { seed: number; evidence: ReadonlySet<string> },
): HeldTurn[] {
  switch (policy) {
    case "recency":
      return recencyWindow(turns, share);
    case "random":
      return randomTurns(turns, share, options.seed);
    case "truncation":
      return uniformTruncation(turns, share);
    case "oracle":
      return oracleTurns(turns, share, options.evidence);
  }
}
