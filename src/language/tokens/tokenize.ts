/**
 * Word tokens for Chinese, English and mixed text ("我用JWT做登录"). Latin and other space-separated
 * scripts are cut by a regular expression; CJK words come from `Intl.Segmenter('zh')` (ICU's
 * dictionary segmenter, available in workerd), followed by a small repair pass for the places where
 * that dictionary is known to be too coarse (我的, 很高) or too fine (模|块, 服务|器): see `peel` and
 * `repairCjk`.
 */
import { normalizeText } from "../../text/normalize";
import { stem } from "./stem";
import { EN_STOP_WORDS } from "./stopwords-en";
import { ZH_STOP_WORDS } from "./stopwords-zh";

export type Script = "latin" | "cjk" | "number" | "other";

export interface Token {
  /** The verbatim surface text. */
  text: string;
  /** The comparison form: normalised (NFKC, lower case), possessive removed and stemmed for Latin. */
  norm: string;
  script: Script;
  /** True for stop words: they are never keywords or entities. */
  stop: boolean;
}

/**
 * Word runs: letters, marks and digits, joined by inner apostrophes/hyphens ("don't", "e-mail") and
 * by inner decimal points/commas between digits ("3.5", "1,000").
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’\-][\p{L}\p{M}\p{N}]+|(?<=\p{N})[.,]\p{N}+)*/gu;
const CJK_RUN = /[\p{Script=Han}\u3040-\u30ff\u31f0-\u31ff\uac00-\ud7af]+/gu;
const HAS_CJK = /[\p{Script=Han}\u3040-\u30ff\u31f0-\u31ff\uac00-\ud7af]/u;
const HAS_LATIN = /\p{Script=Latin}/u;
const NUMBER = /^[\p{N}.,]+$/u;
const POSSESSIVE = /['’]s$/;
const ASCII = /^[\x00-\x7f]*$/;
/** Characters NFKC changes inside CJK text (compatibility ideographs, radicals, half-width forms). */
const CJK_COMPAT = /[\u2e80-\u2fdf\u3000-\u303f\u3200-\u33ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/u;
/** Chinese numerals with an optional measure word (三个, 两次, 第一): counted things, not keywords. */
const ZH_NUMERAL = /^[第]?[一二三四五六七八九十百千万亿两零几半]+[个次天年月日号点分岁本件位条只张把块元周期]?$/u;

/** Only the segmenter is cached: it is immutable. Results are never cached across inputs. */
const SEGMENTER = new Intl.Segmenter("zh", { granularity: "word" });

/**
 * Tokens of `text` in order; punctuation, symbols and whitespace are not tokens. Text with CJK
 * characters goes through the segmenter once as a whole (each `segment()` call has a set-up cost);
 * its CJK words are kept and everything between them is tokenized by the regular expression.
 */
export function tokenize(text: string): Token[] {
  if (!HAS_CJK.test(text)) return wordTokens(text);
  const tokens: Token[] = [];
  let cjk: string[] = [];
  let other = "";
  const flushCjk = (): void => {
    if (cjk.length > 0) tokens.push(...repairCjk(cjk.flatMap(peel)).map(cjkToken));
    cjk = [];
  };
  const flushOther = (): void => {
    if (other !== "") tokens.push(...wordTokens(other));
    other = "";
  };
  for (const { segment } of SEGMENTER.segment(text)) {
    if (!HAS_CJK.test(segment)) {
      flushCjk();
      other += segment;
      continue;
    }
    flushOther();
    let last = 0; // a segment mixing CJK and other characters is rare; split it by script
    for (const run of segment.matchAll(CJK_RUN)) {
      if (run.index > last) {
        flushCjk();
        other = segment.slice(last, run.index);
        flushOther();
      }
      cjk.push(run[0]);
      last = run.index + run[0].length;
    }
    if (last < segment.length) {
      flushCjk();
      other = segment.slice(last);
    }
  }
  flushCjk();
  flushOther();
  return tokens;
}

function wordTokens(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(WORD)) tokens.push(wordToken(m[0]));
  return tokens;
}

/**
 * The content terms of `text` in order (duplicates kept): the `norm` of every non-stop token, minus
 * one-letter Latin tokens and one-digit numbers. A single CJK character is kept when it is not a stop
 * word: the Chinese stop list holds every common single-character particle, pronoun, preposition,
 * light verb, adverb, numeral and measure word, so what survives is mostly a noun (花, 猫, 鱼).
 */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const t of tokenize(text)) if (isContent(t)) terms.push(t.norm);
  return terms;
}

/** Whether a token counts as a content term (see `contentTerms`). */
export function isContent(t: Token): boolean {
  if (t.stop) return false;
  if ((t.script === "latin" || t.script === "number") && t.norm.length < 2) return false;
  return t.norm !== "";
}

/** A token of a non-CJK word ("Isabella's", "3.5", "Москва"). */
function wordToken(word: string): Token {
  const lower = ASCII.test(word) ? word.toLowerCase() : normalizeText(word).replace(/’/g, "'");
  if (NUMBER.test(lower)) return { text: word, norm: lower, script: "number", stop: false };
  if (!HAS_LATIN.test(lower)) {
    return { text: word, norm: lower, script: "other", stop: EN_STOP_WORDS.has(lower) };
  }
  const bare = lower.replace(POSSESSIVE, "");
  const norm = stem(bare);
  const stop = EN_STOP_WORDS.has(lower) || EN_STOP_WORDS.has(bare) || EN_STOP_WORDS.has(norm);
  return { text: word, norm, script: "latin", stop };
}

function cjkToken(text: string): Token {
  const norm = CJK_COMPAT.test(text) ? normalizeText(text) : text;
  return { text, norm, script: "cjk", stop: ZH_STOP_WORDS.has(norm) || ZH_NUMERAL.test(norm) };
}

/** Pronouns and particles that ICU glues onto the next or previous word (我的, 你有, 很高, 的是). */
const PEEL_LEADING = new Set(Array.from("我你他她它的很"));
const PEEL_TRAILING = new Set(Array.from("的了吗呢吧啊呀"));
const PEEL_KEEP = new Set(["目的", "的确", "他人", "你好", "我国", "很多"]);

function peel(word: string): string[] {
  if (word.length < 2 || ZH_STOP_WORDS.has(word) || PEEL_KEEP.has(word)) return [word];
  const first = word.charAt(0);
  if (PEEL_LEADING.has(first)) return [first, ...peel(word.slice(1))];
  const last = word.charAt(word.length - 1);
  if (PEEL_TRAILING.has(last)) return [...peel(word.slice(0, -1)), last];
  return [word];
}

/** Characters that end compound nouns and that ICU often leaves on their own (服务|器, 优先|级). */
const NOUN_SUFFIX = new Set(
  Array.from("器库云级块组室方型式性化率员者表端层区部类版码图网站局馆院所处科队量线费品号机法业场店园厂房台系界圈群栏页框键包件项程题"),
);

/**
 * Rejoins what ICU split too finely: a content word followed by a noun-suffix character (服务|器 →
 * 服务器, 模|块 → 模块) and two adjacent single content characters (画|画 → 画画, 重|构 → 重构).
 * Joined words stay at most four characters.
 */
function repairCjk(words: string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const prev = out[out.length - 1];
    if (prev !== undefined && canJoin(prev, w)) out[out.length - 1] = prev + w;
    else out.push(w);
  }
  return out;
}

function canJoin(prev: string, next: string): boolean {
  if (next.length !== 1 || prev.length + 1 > 4 || ZH_STOP_WORDS.has(prev)) return false;
  if (NOUN_SUFFIX.has(next)) return true;
  return prev.length === 1 && !ZH_STOP_WORDS.has(next);
}
