/**
 * Local extractive compression (docs/design.md §6 step 2): keep the sentences, then clauses, that carry the
 * most keyword weight, in their original order, within `target` code points. It always meets the
 * target, so the compression cycle never has to retry the local model.
 */
import { codePointLength, sliceCodePoints } from "../../text/code-points";
import { splitClauses, splitSentences } from "../../text/sentences";
import { contentTerms } from "../../text/tokenize";
import { BinaryHeap } from "./binary-heap";
import { rankCandidates, termWeights, type Candidate } from "./local-salience";

/** A term already kept elsewhere still counts this much: repeating it adds little information. */
const COVERED_WEIGHT = 0.25;
/**
 * Whole clauses read better than a cut clause, and a cut clause better than a list of terms, so the
 * more readable option wins unless a less readable one keeps clearly more weight (e.g. when only a
 * filler clause fits as a whole).
 */
const READABILITY_PREFERENCE = 0.8;

const CJK = /[\p{Script=Han}\u3040-\u30ff\uac00-\ud7af\u3000-\u303f\uff00-\uffef]/u;
const WORD_CHAR = /[\p{L}\p{N}'’\-]/u;
const TRAILING_CLAUSE_MARK = /[\s,;:，；：、]+$/u;

interface Unit {
  text: string;
  /** Sentence index, then clause index: the original order. */
  order: [number, number];
  terms: string[];
  /** Its distinct terms. */
  unique: ReadonlySet<string>;
  /** Clauses of a sentence unit (empty for clause units). */
  clauses: Unit[];
}

/**
 * Compresses `text` to at most `target` code points. Returns `text` unchanged when it fits, never an
 * empty string when `target` ≥ 1 and the text has visible characters.
 */
export function compressText(text: string, target: number): string {
  if (Number.isNaN(target)) throw new RangeError("compress target must be a number");
  const limit = Math.floor(target);
  if (codePointLength(text) <= limit) return text;
  const trimmed = text.trim();
  if (limit < 1 || trimmed === "") return "";
  if (codePointLength(trimmed) <= limit) return trimmed;

  const weights = termWeights(trimmed);
  const sentences = splitSentences(trimmed).map((s, i) => unit(s, [i, 0], true));
  const kept = select(sentences, weights, limit).sort(byOrder);
  const best = bestClause(sentences, weights);
  // From most to least readable: whole units, the best clause cut at a word, its heaviest terms.
  const options = [join(kept).replace(TRAILING_CLAUSE_MARK, ""), cutAtWordBoundary(best.text, limit)]
    .map((text) => ({ text, weight: weightOf(text, weights) }))
    .concat(squeeze(best, weights, limit))
    .filter((o) => o.text !== "");
  const top = Math.max(...options.map((o) => o.weight));
  return options.find((o) => o.weight >= READABILITY_PREFERENCE * top)?.text ?? cutAtWordBoundary(trimmed, limit);
}

function weightOf(text: string, weights: ReadonlyMap<string, number>): number {
  return gain(unit(text, [0, 0], false), weights, new Set());
}

/**
 * Greedy selection by marginal keyword weight. A sentence that does not fit is replaced by its
 * clauses, which then compete on their own. Ties go to the unit that entered the pool first.
 *
 * Lazy evaluation: a unit's gain only falls as terms get covered, so a gain computed earlier is an
 * upper bound. The heap pops the highest bound; when its gain is still current it is the true
 * maximum (every other unit's gain is at most its own bound), otherwise it goes back with the fresh
 * gain. Same choice as scanning every unit per step, without the quadratic cost on long texts.
 */
function select(sentences: Unit[], weights: ReadonlyMap<string, number>, limit: number): Unit[] {
  interface Entry {
    unit: Unit;
    gain: number;
    /** Number of terms covered when `gain` was computed: current while nothing was added since. */
    coveredAt: number;
    seq: number;
  }
  const heap = new BinaryHeap<Entry>((a, b) => a.gain > b.gain || (a.gain === b.gain && a.seq < b.seq));
  const kept: Unit[] = [];
  const covered = new Set<string>();
  let seq = 0;
  const add = (u: Unit) => heap.push({ unit: u, gain: gain(u, weights, covered), coveredAt: covered.size, seq: seq++ });
  sentences.forEach(add);
  let used = 0;
  for (;;) {
    const top = heap.pop();
    if (top === undefined || top.gain <= 0) break;
    if (top.coveredAt !== covered.size) {
      heap.push({ ...top, gain: gain(top.unit, weights, covered), coveredAt: covered.size });
      continue;
    }
    const u = top.unit;
    const cost = codePointLength(u.text) + (kept.length > 0 ? 1 : 0);
    if (used + cost <= limit) {
      kept.push(u);
      used += cost;
      for (const t of u.unique) covered.add(t);
    } else if (u.clauses.length > 1) {
      u.clauses.forEach(add);
    }
  }
  return kept;
}

function gain(u: Unit, weights: ReadonlyMap<string, number>, covered: ReadonlySet<string>): number {
  let sum = 0;
  for (const t of u.unique) sum += (weights.get(t) ?? 0) * (covered.has(t) ? COVERED_WEIGHT : 1);
  return sum;
}

function unit(text: string, order: [number, number], withClauses: boolean): Unit {
  const trimmed = text.trim();
  if (!withClauses) {
    const terms = contentTerms(trimmed);
    return { text: trimmed, order, terms, unique: new Set(terms), clauses: [] };
  }
  // Clause marks never fall inside a token, so a sentence's terms are its clauses' terms.
  const clauses = splitClauses(trimmed).map((c, j) => unit(c, [order[0], j], false));
  const terms = clauses.flatMap((c) => c.terms);
  return { text: trimmed, order, terms, unique: new Set(terms), clauses };
}

function byOrder(a: Unit, b: Unit): number {
  return a.order[0] - b.order[0] || a.order[1] - b.order[1];
}

/** Joins kept pieces: a space between Latin neighbours, nothing next to CJK text. */
function join(units: readonly Unit[]): string {
  let out = "";
  for (const u of units) {
    if (out !== "" && !CJK.test(out.slice(-1)) && !CJK.test(u.text.charAt(0))) out += " ";
    out += u.text;
  }
  return out;
}

function bestClause(sentences: readonly Unit[], weights: ReadonlyMap<string, number>): Unit {
  const clauses = sentences.flatMap((s) => (s.clauses.length > 0 ? s.clauses : [s]));
  let best = clauses[0] ?? sentences[0];
  let bestGain = -1;
  for (const c of clauses) {
    const g = gain(c, weights, new Set());
    if (g > bestGain) [best, bestGain] = [c, g];
  }
  return best ?? unit("", [0, 0], false);
}

/**
 * When no whole clause fits: keep the clause's heaviest terms that fit (a name or compound counts as
 * one term, so "New York" is never cut to "New"), in their original order. Still extractive: stop
 * words are dropped, words are kept. When not even one term fits, the heaviest is cut.
 */
function squeeze(clause: Unit, weights: ReadonlyMap<string, number>, limit: number): { text: string; weight: number } {
  const terms = rankCandidates(clause.text)
    .filter((c) => c.kind !== "number")
    .map((c) => ({ c, weight: c.parts.reduce((sum, p) => sum + (weights.get(p) ?? 0), 0) }))
    .sort((a, b) => b.weight - a.weight || a.c.first - b.c.first);
  const kept: Candidate[] = [];
  const covered = new Set<string>();
  let used = -1;
  let weight = 0;
  for (const { c } of terms) {
    const cost = codePointLength(c.display) + 1;
    if (used + cost > limit || c.parts.every((p) => covered.has(p))) continue;
    kept.push(c);
    used += cost;
    for (const p of c.parts) {
      if (!covered.has(p)) weight += weights.get(p) ?? 0;
      covered.add(p);
    }
  }
  kept.sort((a, b) => a.first - b.first);
  let dense = "";
  for (const c of kept) {
    const sep = dense !== "" && !CJK.test(dense.slice(-1)) && !CJK.test(c.display.charAt(0)) ? " " : "";
    dense += sep + c.display;
  }
  if (dense !== "" && codePointLength(dense) <= limit) return { text: dense, weight };
  return { text: cutAtWordBoundary(terms[0]?.c.display ?? clause.text, limit), weight: 0 };
}

/** A character of a Latin word or number (CJK characters are not: CJK text may be cut anywhere). */
function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch) && !CJK.test(ch);
}

/**
 * The longest prefix of `s` within `max` code points that does not end inside a Latin word or number
 * (CJK text may be cut anywhere). Falls back to a plain code-point cut when the first word alone is
 * longer than `max`. Never empty when `s` has visible characters and `max` ≥ 1.
 */
export function cutAtWordBoundary(s: string, max: number): string {
  const text = s.trim();
  if (codePointLength(text) <= max) return text;
  if (max < 1) return "";
  const points = Array.from(text);
  let end = max;
  while (end > 0 && isWordChar(points[end - 1]) && isWordChar(points[end])) end--;
  const cut = points.slice(0, end).join("").trimEnd();
  return cut !== "" ? cut : sliceCodePoints(text, 0, max).trimEnd() || sliceCodePoints(text, 0, max);
}
