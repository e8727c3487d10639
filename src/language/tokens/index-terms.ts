/**
 * The terms that text is searched by: one analyzer for memories and queries alike (docs/design.md, "recall(keywords, relations, depth)"),
 * so a word is stemmed, split and stopped the same way on both sides.
 *
 * - English and other space-separated words: normalised and stemmed (tokenize.ts); only function
 *   words are dropped (articles, pronouns, auxiliaries, prepositions, conjunctions, question words:
 *   EN_FUNCTION_WORDS). Content words that are common in chat ("kind", "feel", "first",
 *   "recently") stay: how much a term says is BM25's idf, learned from the agent's own memories,
 *   not a list. One-letter words are dropped; numbers of any length stay (dates, counts).
 * - Hyphenated words give their parts and the parts joined ("self-care" → self, care, selfcare), so
 *   "self-care", "self care" and "selfcare" meet. Every term is one token of the full-text index
 *   (letters, marks and digits only), so the index splits nothing further.
 * - Chinese (and other CJK) text gives the characters and overlapping character pairs of each run
 *   of CJK characters, leaving out those with a function character (的, 了, 我 …: ZH_GLUE), plus the
 *   segmenter's words of three or more characters (用户系统) as whole terms. Characters and pairs
 *   match whatever the word segmenter made of the text, so 用户 finds 用户系统, 登录模块 finds
 *   登录|模块 and 画 finds 绘画; the whole words add precision where the segmenter agrees. This is
 *   the unigram + bigram indexing that Chinese retrieval uses where word segmentation is
 *   unreliable (Kwok 1997; Nie, Gao, Zhang & Zhou 2000).
 */
import { stem } from "./stem";
import { EN_FUNCTION_WORDS } from "./stopwords-en";
import { tokenize, type Token } from "./tokenize";

/**
 * CJK characters that only glue a sentence together (the Chinese counterpart of the English function
 * words): particles, pronouns, demonstratives, question words, prepositions, conjunctions, the
 * copula, negation, degree and frequency adverbs, measure words and small numerals. A character or
 * a pair containing one says nothing of what a memory is about.
 */
const ZH_GLUE = new Set(
  Array.from(
    "的地得了着过吗呢吧啊呀哦嘛啦哈嗯么之我你您他她它们咱谁啥什怎这那哪和与及或而但在从向对把被让给于是有不没也都就还又很太更最才只个些一两几",
  ),
);

/** What joins the parts of one word ("self-care", "rock'n'roll"): the full-text index splits there. */
const INNER = /[^\p{L}\p{M}\p{N}]+/u;
const APOSTROPHE = /['’]/u;
const CJK_RUN = /[\p{Script=Han}\u3040-\u30ff\u31f0-\u31ff\uac00-\ud7af]+/gu;

/** Terms of `text` in order, repeated as often as they occur (term frequencies count). */
export function indexTerms(text: string): string[] {
  const out: string[] = [];
  let cjk = false;
  for (const token of tokenize(text)) {
    if (token.script === "cjk") {
      cjk = true;
      pushCjkWord(token, out);
    } else pushTerms(token, out);
  }
  if (cjk) for (const run of text.normalize("NFKC").matchAll(CJK_RUN)) pushGrams(run[0], out);
  return out;
}

/** The distinct terms of a query, in order of first occurrence. */
export function queryTerms(text: string): string[] {
  return [...new Set(indexTerms(text))];
}

function pushTerms(token: Token, out: string[]): void {
  switch (token.script) {
    case "cjk":
      return;
    case "number":
      // Index tokens only (digits): "3.5" gives 3 and 5, as the full-text index splits it.
      for (const digits of token.norm.split(/[.,]/u)) if (digits !== "") out.push(digits);
      return;
    case "latin":
      pushLatin(token, out);
      return;
    case "other":
      if (EN_FUNCTION_WORDS.has(token.norm)) return;
      for (const part of token.norm.split(INNER)) if (part.length >= 2) out.push(part);
      return;
  }
}

function isFunctionWord(token: Token): boolean {
  const lower = token.text.toLowerCase().replace(/’/g, "'");
  return EN_FUNCTION_WORDS.has(lower) || EN_FUNCTION_WORDS.has(lower.replace(/'s$/, "")) || EN_FUNCTION_WORDS.has(token.norm);
}

function pushLatin(token: Token, out: string[]): void {
  if (isFunctionWord(token)) return;
  // A contraction or elision keeps its head only ("it'll" → it, a function word; "o'clock" → o).
  const norm = token.norm.split(APOSTROPHE)[0] ?? "";
  const parts = norm.split(INNER).filter((p) => p !== "");
  if (parts.length <= 1) {
    const [word] = parts;
    if (word !== undefined && word.length >= 2 && !EN_FUNCTION_WORDS.has(word)) out.push(word);
    return;
  }
  for (const part of parts) {
    const term = stem(part);
    if (term.length >= 2 && !EN_FUNCTION_WORDS.has(part)) out.push(term);
  }
  const joined = stem(parts.join(""));
  if (joined.length >= 2) out.push(joined);
}

/** A segmenter word of three or more characters as a whole term (shorter ones are grams already). */
function pushCjkWord(token: Token, out: string[]): void {
  if (!token.stop && Array.from(token.norm).length >= 3) out.push(token.norm);
}

/** The characters and character pairs of one run of CJK characters, whatever the segmenter made of it. */
function pushGrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  for (const c of chars) if (!ZH_GLUE.has(c)) out.push(c);
  for (let i = 0; i + 1 < chars.length; i++) {
    const a = chars[i] ?? "";
    const b = chars[i + 1] ?? "";
    if (!ZH_GLUE.has(a) && !ZH_GLUE.has(b)) out.push(a + b);
  }
}
