/**
 * Content words for text scoring and BM25, and an approximate token count for budgets.
 *
 * The rule is the one in the benchmark README, kept in one place so that the BM25 baseline, the text
 * scorer and any driver tokenise identically:
 * - English: lower-case `[a-z0-9]+` tokens; drop stop words and the conversation's speaker names; keep
 *   tokens longer than one character; then light stemming (see `lightStem`).
 * - Chinese: words from `Intl.Segmenter('zh', {granularity: 'word'})` that are word-like, minus a
 *   function-word list. Single Han characters are kept (a Chinese character is a morpheme, the
 *   "length > 1" rule is for English letters). Non-Han segments inside Chinese text (names, dates,
 *   numbers) go through the English rule so that "Lina" is removed as a name in both languages.
 *
 * Pure module: no Node APIs, runs in workerd.
 */

export type Lang = "en" | "zh";

// A classic English stop-word list (NLTK's, plus the contraction fragments that `[a-z0-9]+` produces
// from "we'll", "they're", "I've", "don't"). Stop words are checked before stemming.
const EN_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all am an and any are aren as at be because been before being " +
    "below between both but by can couldn did didn do does doesn doing don down during each few for " +
    "from further had hadn has hasn have haven having he her here hers herself him himself his how i " +
    "if in into is isn it its itself just ll me mightn more most mustn my myself needn no nor not now " +
    "of off on once only or other our ours ourselves out over own re same shan she should shouldn so " +
    "some such than that the their theirs them themselves then there these they this those through to " +
    "too under until up ve very was wasn we were weren what when where which while who whom why will " +
    "with won wouldn you your yours yourself yourselves would could also yes yeah oh hey hi ok okay " +
    "let us"
  ).split(" "),
);

// Chinese function words: pronouns, particles, auxiliaries, conjunctions, prepositions and the
// commonest adverbs of degree; the Chinese counterpart of the English stop-word list.
const ZH_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    "的 了 着 过 地 得 之 所 是 在 和 与 及 或 而 但 但是 并 并且 因为 所以 如果 虽然 然后 还是 就是 " +
    "我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 自己 我要 我想 我会 我的 你的 他的 她的 " +
    "这 那 这个 那个 这些 那些 这样 那样 这么 那么 这里 那里 哪 哪里 什么 怎么 怎么样 为什么 " +
    "吗 呢 吧 啊 呀 哦 嗯 哈 哈哈 啦 嘛 哇 嘿 喔 噢 耶 " +
    "也 都 就 还 又 再 才 很 太 更 最 真 真的 非常 特别 超级 一 一个 一些 一下 一点 有点 " +
    "有 没 没有 不 别 要 会 能 可以 可能 应该 想 让 把 被 给 对 从 向 跟 对于 关于 为 为了 " +
    "上 下 里 中 个 些 次 种 嗯嗯 好的"
  ).split(" "),
);

const HAN = /\p{Script=Han}/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Light stemming: strip one of -ing, -ed, -es, -s when at least three characters remain.
 * -es only after s, x, z, ch, sh ("classes" → "class", but "games" → "game" via -s); -s never after
 * another s ("class" stays). Deliberately crude: it only has to make "paints"/"painted"/"painting" meet.
 */
export function lightStem(word: string): string {
  const strip = (n: number): string | null => (word.length - n >= 3 ? word.slice(0, -n) : null);
  if (word.endsWith("ing")) return strip(3) ?? word;
  if (word.endsWith("ed")) return strip(2) ?? word;
  if (/(s|x|z|ch|sh)es$/.test(word)) return strip(2) ?? word;
  if (word.endsWith("s") && !word.endsWith("ss")) return strip(1) ?? word;
  return word;
}

/** Lower-case `[a-z0-9]+` tokens of a name list, to remove names the way they are tokenised. */
function nameTokens(names: readonly string[]): ReadonlySet<string> {
  return new Set(names.flatMap((n) => n.toLowerCase().match(/[a-z0-9]+/g) ?? []));
}

function englishWords(text: string, names: ReadonlySet<string>, stem = true): string[] {
  const out: string[] = [];
  for (const token of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (token.length <= 1 || EN_STOP_WORDS.has(token) || names.has(token)) continue;
    if (!stem) {
      out.push(token);
      continue;
    }
    const stemmed = lightStem(token);
    // A stem can collide with a name ("carolines" → "isabella"): remove it as well.
    if (names.has(stemmed)) continue;
    out.push(stemmed);
  }
  return out;
}

// One segmenter per process: constructing it loads ICU data.
let segmenter: Intl.Segmenter | undefined;

function chineseWords(text: string, names: ReadonlySet<string>, stem = true): string[] {
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  const out: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) continue;
    if (HAN.test(segment)) {
      const word = segment.toLowerCase();
      if (!ZH_FUNCTION_WORDS.has(word)) out.push(word);
    } else {
      out.push(...englishWords(segment, names, stem));
    }
  }
  return out;
}

/**
 * Content words of `text`, in order and with repetitions (BM25 needs term frequencies; the text
 * scorer turns them into a set). `names` are the conversation's speaker names.
 */
export function contentWords(text: string, lang: Lang, names: readonly string[] = []): string[] {
  const nameSet = nameTokens(names);
  return lang === "en" ? englishWords(text, nameSet) : chineseWords(text, nameSet);
}

/**
 * Recall keywords a client would extract from a question: its distinct content words in order, by
 * the same rule but unstemmed (the API stems on its side; "paintings" stays a word, not "painting")
 * and with names kept (people are what this product's entity nodes are named after). At most
 * `max` (the API's limit): the last ones, nearest the end of the text, which in a dialogue is the
 * line just before the test turn.
 */
export function queryKeywords(text: string, lang: Lang, max = 32): string[] {
  const words = lang === "en" ? englishWords(text, new Set(), false) : chineseWords(text, new Set(), false);
  return [...new Set(words)].slice(-max);
}

/** The distinct content words of `text`, for the item-vs-evidence match rule. */
export function contentWordSet(text: string, lang: Lang, names: readonly string[] = []): Set<string> {
  return new Set(contentWords(text, lang, names));
}

/**
 * Approximate token count for text budgets: every CJK character (Han, kana, Hangul) counts as one
 * token (close to what BPE tokenisers give for Chinese); all other characters, spaces included, count
 * ≈4 to a token, rounded up. Pure English text is therefore ceil(length / 4).
 */
export function approxTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (CJK_CHAR.test(ch)) cjk += 1;
    else other += 1;
  }
  return cjk + Math.ceil(other / 4);
}
