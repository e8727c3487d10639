/**
 * Local extractive compression (docs/design.md, "Compression" step 2): what a memory keeps as it is forgotten.
 * Its words are weighed by what a later question can ask for (keepWeight): names and numbers first,
 * then rarer (longer) nouns, then other content words; filler (greetings, "you know", function
 * words) weighs nothing.
 *
 * The result is the heaviest words of the text that fit, in the text's own order ("Researching
 * adoption agencies dream family"). Whole sentences were kept before when they carried as much
 * weight, but a sentence carries its function words along, which search never sees: under the
 * quality benchmark's pressure preset (offline probe, LoCoMo conv-26+30 and conv-41) the words
 * alone held 1.3 and 0.7 points fewer characters, at equal R@1 and slightly higher R@10. Filler is
 * dropped even when the target would allow it: the output is at most `target` code points, often
 * less, so a memory that starts to fade sheds its filler first and keeps what it is about. It
 * always meets the target, so the compression cycle never has to retry the local model.
 */
import { codePointLength, sliceCodePoints } from "../../text/code-points";
import { splitClauses, splitSentences } from "../../language/sentences";
import { BinaryHeap } from "./binary-heap";
import type { TagMemo } from "../../language/tagging/tagged-words";
import { analyze, contentLemmas, type Analysis, type Candidate } from "../../language/salience/analysis";

/** A term already kept elsewhere still counts this much: repeating it adds little information. */
const COVERED_WEIGHT = 0.25;

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
export function compressText(text: string, target: number, memo?: TagMemo): string {
  if (Number.isNaN(target)) throw new RangeError("compress target must be a number");
  const limit = Math.floor(target);
  if (codePointLength(text) <= limit) return text;
  const trimmed = text.trim();
  if (limit < 1 || trimmed === "") return "";
  if (codePointLength(trimmed) <= limit) return trimmed;

  const candidates = keepCandidates(analyze(trimmed, memo === undefined ? {} : { memo }));
  const dense = telegraph(candidates, keepWeights(candidates), limit);
  return dense.text !== "" ? dense.text : cutAtWordBoundary(trimmed, limit);
}

/**
 * A summary within `target` code points (docs/design.md, "Context for prompts", the local episode summary): the whole
 * sentences, then clauses, that carry the most weight, in the text's order, never the dense word
 * list compression may choose (a summary is read, not only searched); a cut at a word boundary
 * when no clause fits.
 */
export function summarizeText(text: string, target: number, memo?: TagMemo): string {
  if (Number.isNaN(target)) throw new RangeError("summary target must be a number");
  const limit = Math.floor(target);
  if (codePointLength(text) <= limit) return text;
  const trimmed = text.trim();
  if (limit < 1 || trimmed === "") return "";
  if (codePointLength(trimmed) <= limit) return trimmed;
  // Speaker labels stay: a summary is made of the text's own lines.
  const analysis = analyze(trimmed, memo === undefined ? { keepLabels: true } : { keepLabels: true, memo });
  const weights = keepWeights(keepCandidates(analysis));
  let at = 0;
  const sentences = splitSentences(trimmed).map((s, i) => {
    const u = unit(analysis, at, at + s.length, [i, 0], true);
    at += s.length;
    return u;
  });
  const readable = join(select(sentences, weights, limit).sort(byOrder)).replace(TRAILING_CLAUSE_MARK, "");
  return readable !== "" ? readable : cutAtWordBoundary(trimmed, limit);
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

/** The piece [start, end) of the analysed text; a sentence also as its clauses. */
function unit(analysis: Analysis, start: number, end: number, order: [number, number], withClauses: boolean): Unit {
  const text = analysis.body.slice(start, end);
  if (!withClauses) {
    const terms = contentLemmas(analysis, start, end);
    return { text: text.trim(), order, terms, unique: new Set(terms), clauses: [] };
  }
  let at = start;
  const clauses = splitClauses(text).map((c, j) => {
    const u = unit(analysis, at, at + c.length, [order[0], j], false);
    at += c.length;
    return u;
  });
  const terms = clauses.flatMap((c) => c.terms);
  return { text: text.trim(), order, terms, unique: new Set(terms), clauses };
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

/**
 * What keeping a word is worth to a later question: names ×2, numbers ×2 (a question asks "how
 * many", and a date's year or day is a number), Chinese compounds ×1.2, noun-like words ×1, other
 * content words ×0.6, each times a length factor (longer words are rarer, the usual stand-in for
 * rarity when only the text is known). Two kinds of word weigh only as plain content words: a name
 * that is only addressed (a vocative, "Thanks, Caroline!": who was spoken to, not what the memory
 * is about; its speaker is kept apart) and a day, month or relative time word ("yesterday", "last
 * week": the memory keeps the message's own date). Presence counts, not frequency: a word said
 * twice is kept once. Measured in docs/design.md, "Compression".
 */
function keepWeight(c: Candidate): number {
  const length = codePointLength(c.key);
  const rarity = c.script === "cjk" ? ([0, 0.6, 1, 1.2][length] ?? 1.3) : 0.6 + 0.1 * Math.min(length, 8);
  if (c.kind === "number") return 2;
  if (c.kind === "name") return (c.entity ? 2 : 0.6) * rarity;
  if (c.temporal) return 0.6 * rarity;
  if (c.kind === "compound") return 1.2 * rarity;
  return (c.kind === "noun" ? 1 : 0.6) * rarity;
}

/**
 * The words compression chooses from: extraction's candidates (names, compounds, content words and
 * numbers of two digits and more) plus one-digit numbers ("2 kids"), which extraction leaves out.
 */
function keepCandidates(analysis: Analysis): Candidate[] {
  const { candidates, words } = analysis;
  const known = new Set(candidates.map((c) => c.key));
  const digits: Candidate[] = [];
  words.forEach((w, first) => {
    if (w.script !== "number" || known.has(w.lemma)) return;
    known.add(w.lemma);
    digits.push({
      key: w.lemma,
      parts: [w.lemma],
      display: w.text,
      kind: "number",
      script: "number",
      score: 0,
      first,
      entity: false,
      temporal: false,
      aside: false,
    });
  });
  return [...candidates, ...digits];
}

/** Weights by term norm; a name or compound shares its weight among its parts. */
function keepWeights(candidates: readonly Candidate[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const c of candidates) {
    const w = keepWeight(c) / c.parts.length;
    for (const part of c.parts) weights.set(part, Math.max(weights.get(part) ?? 0, w));
  }
  return weights;
}

/**
 * The heaviest words of the whole text that fit (a name or compound counts as one, so "New York"
 * is never cut to "New"), in text order; stop words are dropped, words are kept as written.
 */
function telegraph(
  candidates: readonly Candidate[],
  weights: ReadonlyMap<string, number>,
  limit: number,
): { text: string; weight: number } {
  const terms = candidates
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
  return codePointLength(dense) <= limit ? { text: dense, weight } : { text: "", weight: 0 };
}
