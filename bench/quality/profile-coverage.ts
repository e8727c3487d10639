/**
 * The profile benchmark's scoring (issue 39; docs/BENCHMARKS.md, "Profile"): how much of what
 * LoCoMo's annotators wrote about each speaker (the `observation` facts) a text holds.
 *
 * - Content words are the benchmark's one rule (lib/tokens.ts, as ../shared/bench/README.md states
 *   it): lower-cased `[a-z0-9]+` tokens, stop words and the two speakers' names removed, longer than
 *   one character, light stemming; Chinese by the segmenter minus function words. Chosen before any
 *   profile was scored and not changed for it.
 * - A fact is **covered** when at least half of its content words are among the text's content
 *   words (the whole text at once: a profile is read as a whole). A fact without content words is
 *   never covered and still counted.
 * - Baselines get exactly the profile's length in code points: turns (as remembered, one per line)
 *   taken whole while they fit, then the next one cut to fill the rest. `recency`: the latest turns;
 *   `random`: a seeded random order, the mean over RANDOM_SEEDS; `oracle`: greedy, each step the
 *   whole turn that covers the most new facts per character while it fits (a ceiling that knows the
 *   facts). A participant's baselines draw on that participant's own turns, the agent-wide ones on
 *   every turn.
 *
 * Pure module.
 */
import { RANDOM_SEEDS, shuffled } from "./naive-policies";

export type Words = (text: string) => ReadonlySet<string>;

export const PROFILE_METHODS = ["profile", "recency", "random", "oracle"] as const;
export type ProfileMethod = (typeof PROFILE_METHODS)[number];

/** Facts covered by each method (random: the mean over its seeds) out of `facts`, at `chars` code points. */
export interface CoverageCounts {
  facts: number;
  chars: number;
  covered: Record<ProfileMethod, number>;
}

const codePoints = (text: string): number => [...text].length;

/** At least half of the fact's content words are in the text's; never for a fact without any. */
export function isCovered(fact: ReadonlySet<string>, text: ReadonlySet<string>): boolean {
  if (fact.size === 0) return false;
  let shared = 0;
  for (const w of fact) if (text.has(w)) shared += 1;
  return 2 * shared >= fact.size;
}

export function coveredCount(facts: readonly ReadonlySet<string>[], text: ReadonlySet<string>): number {
  return facts.filter((f) => isCovered(f, text)).length;
}

/** `order`'s texts one per line, whole while they fit `chars`, the next one cut to fill it exactly. */
export function fillTo(order: readonly string[], chars: number): string {
  let out = "";
  let used = 0;
  for (const text of order) {
    const sep = used === 0 ? "" : "\n";
    const room = chars - used - sep.length;
    if (room <= 0) break;
    const points = [...text];
    const piece = points.length <= room ? text : points.slice(0, room).join("");
    out += sep + piece;
    used += sep.length + Math.min(points.length, room);
  }
  return out;
}

/** The latest turns, in conversation order, at `chars`. */
export function recencyText(turns: readonly string[], chars: number): string {
  const lines = fillTo([...turns].reverse(), chars).split("\n");
  return lines.reverse().join("\n");
}

/** Turns in a seeded random order (Fisher–Yates) at `chars`. */
export function randomText(turns: readonly string[], chars: number, seed: number): string {
  return fillTo(shuffled(turns, seed), chars);
}

/**
 * Greedy oracle: repeatedly the whole turn that fits and covers the most facts not yet covered per
 * code point (earliest on ties), until none fits or none adds a fact. Returns the turns picked.
 */
export function oracleText(turns: readonly string[], facts: readonly ReadonlySet<string>[], words: Words, chars: number): string {
  const turnWords = turns.map((t) => words(t));
  const held = new Set<string>();
  const covered = facts.map(() => false);
  const shared = facts.map(() => 0);
  const factsOf = new Map<string, number[]>();
  facts.forEach((f, i) => {
    for (const w of f) factsOf.set(w, [...(factsOf.get(w) ?? []), i]);
  });
  const picked: string[] = [];
  const used = new Set<number>();
  let length = 0;
  for (;;) {
    let best = -1;
    let bestRate = 0;
    turns.forEach((turn, t) => {
      const cost = codePoints(turn) + (picked.length > 0 ? 1 : 0);
      if (used.has(t) || length + cost > chars || cost === 0) return;
      const gains = new Map<number, number>();
      for (const w of turnWords[t] ?? []) {
        if (held.has(w)) continue;
        for (const f of factsOf.get(w) ?? []) if (!covered[f]) gains.set(f, (gains.get(f) ?? 0) + 1);
      }
      let gain = 0;
      for (const [f, n] of gains) if (2 * ((shared[f] ?? 0) + n) >= (facts[f]?.size ?? 0)) gain += 1;
      if (gain / cost > bestRate) [best, bestRate] = [t, gain / cost];
    });
    if (best < 0) break;
    const turn = turns[best] ?? "";
    length += codePoints(turn) + (picked.length > 0 ? 1 : 0);
    picked.push(turn);
    used.add(best);
    for (const w of turnWords[best] ?? []) {
      if (held.has(w)) continue;
      held.add(w);
      for (const f of factsOf.get(w) ?? []) shared[f] = (shared[f] ?? 0) + 1;
    }
    facts.forEach((f, i) => {
      if (!covered[i] && 2 * (shared[i] ?? 0) >= f.size && f.size > 0) covered[i] = true;
    });
  }
  return picked.join("\n");
}

/** The profile's text beside the three baselines over `turns`, at the profile's length. */
export function coverageCounts(profile: string, turns: readonly string[], factTexts: readonly string[], words: Words): CoverageCounts {
  const facts = factTexts.map((f) => words(f));
  const chars = codePoints(profile);
  const count = (text: string) => coveredCount(facts, words(text));
  const random = RANDOM_SEEDS.reduce((n, seed) => n + count(randomText(turns, chars, seed)), 0) / RANDOM_SEEDS.length;
  return {
    facts: facts.length,
    chars,
    covered: {
      profile: count(profile),
      recency: count(recencyText(turns, chars)),
      random,
      oracle: count(oracleText(turns, facts, words, chars)),
    },
  };
}

/** Shares of facts covered, summed over `counts` (facts pooled), and the mean length. */
export interface CoverageShares {
  facts: number;
  chars: number;
  profile: number;
  recency: number;
  random: number;
  oracle: number;
}

export function poolCoverage(counts: readonly CoverageCounts[]): CoverageShares {
  const facts = counts.reduce((n, c) => n + c.facts, 0);
  const share = (m: ProfileMethod) => (facts === 0 ? 0 : counts.reduce((n, c) => n + c.covered[m], 0) / facts);
  return {
    facts,
    chars: counts.length === 0 ? 0 : counts.reduce((n, c) => n + c.chars, 0) / counts.length,
    profile: share("profile"),
    recency: share("recency"),
    random: share("random"),
    oracle: share("oracle"),
  };
}

/** The profile's coverage ÷ the better of recency and random at the same length (null when both are 0). */
export const overBaseline = (s: Pick<CoverageShares, "profile" | "recency" | "random">): number | null => {
  const best = Math.max(s.recency, s.random);
  return best > 0 ? s.profile / best : null;
};
