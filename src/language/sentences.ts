/**
 * Lossless sentence and clause splitting for Chinese and English. Every function returns verbatim
 * pieces whose concatenation is exactly the input: a boundary keeps its punctuation, closing quotes
 * and following whitespace with the piece before it, so the next piece starts at a visible character.
 */

const CLOSERS = `"'”’»)）」』】\\]`;

/**
 * Sentence ends: CJK terminators (no space needed), ASCII terminators followed by whitespace, the
 * end of text or a CJK character ("好的!我明白"), and line breaks.
 */
const SENTENCE_END = new RegExp(
  `[。！？…]+[${CLOSERS}]*\\s*` + `|[.!?]+[${CLOSERS}]*(?:\\s+|$|(?=[\\p{Script=Han}\\u3040-\\u30ff]))` + `|\\s*\\n\\s*`,
  "gu",
);

/** Clause ends: CJK clause punctuation, or ASCII , ; : followed by whitespace (not "1,000", "10:30"). */
const CLAUSE_END = new RegExp(`[，；：、]+[${CLOSERS}]*\\s*|[,;:]+[${CLOSERS}]*(?:\\s+|$)`, "gu");

/** English conjunctions that open a new clause; the cut goes before them. */
const CONJUNCTION = /\s(?=(?:and|but|so|because)\s)/gi;

const WORD_BEFORE = /([\p{L}.]+)$/u;
const UPPER = /\p{Lu}/u;

/** Words after which a period does not end a sentence. */
const ABBREVIATIONS = new Set("mr mrs ms dr prof sr jr st vs etc e.g i.e eg ie u.s a.m p.m no fig inc ltd co mt ft approx".split(" "));

/** Splits `text` into sentences. */
export function splitSentences(text: string): string[] {
  return cutAt(text, boundaries(text, SENTENCE_END, isFalsePeriod));
}

/**
 * Splits one sentence into clauses at , ; : ，；：、 and before English "and"/"but"/"so"/"because"
 * when both sides have at least three words (so "salt and pepper" stays whole).
 */
export function splitClauses(sentence: string): string[] {
  const cuts = boundaries(sentence, CLAUSE_END, () => false);
  for (const m of sentence.matchAll(CONJUNCTION)) {
    const at = m.index + 1;
    const before = lastPieceStart(cuts, at);
    if (wordCount(sentence.slice(before, at)) >= 3 && wordCount(firstClauseAfter(sentence, at)) >= 4) {
      cuts.push(at);
    }
  }
  cuts.sort((a, b) => a - b);
  return cutAt(sentence, cuts);
}

/** End offsets of every match of `pattern` that is a real boundary. */
function boundaries(text: string, pattern: RegExp, isFalse: (text: string, at: number) => boolean): number[] {
  const cuts: number[] = [];
  for (const m of text.matchAll(pattern)) {
    if (m[0].startsWith(".") && isFalse(text, m.index)) continue;
    cuts.push(m.index + m[0].length);
  }
  return cuts;
}

/** A period after an abbreviation ("Mr.") or a single-letter initial ("J. K. Rowling") ends nothing. */
function isFalsePeriod(text: string, at: number): boolean {
  const word = WORD_BEFORE.exec(text.slice(Math.max(0, at - 12), at))?.[1] ?? "";
  if (word.length === 1 && UPPER.test(word)) return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}

/**
 * Cuts `text` at the given offsets. Pieces that would hold only whitespace are glued to a neighbour,
 * so every piece has visible text (unless the whole input is whitespace).
 */
function cutAt(text: string, cuts: readonly number[]): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    if (cut <= start || cut >= text.length) continue;
    const piece = text.slice(start, cut);
    if (piece.trim() === "") continue; // leading whitespace joins the next piece
    pieces.push(piece);
    start = cut;
  }
  const rest = text.slice(start);
  if (rest === "") return pieces;
  if (rest.trim() === "" && pieces.length > 0) pieces[pieces.length - 1] += rest;
  else pieces.push(rest);
  return pieces;
}

function lastPieceStart(cuts: readonly number[], at: number): number {
  let start = 0;
  for (const cut of cuts) if (cut <= at && cut > start) start = cut;
  return start;
}

function firstClauseAfter(text: string, at: number): string {
  const rest = text.slice(at);
  const end = rest.search(/[,;:，；：、.!?。！？]/);
  return end < 0 ? rest : rest.slice(0, end);
}

function wordCount(s: string): number {
  return s.split(/\s+/).filter((w) => w !== "").length;
}
