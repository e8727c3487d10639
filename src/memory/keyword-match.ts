/**
 * Keyword matching for recall (DESIGN §5): a node matches a keyword when its content, phrase or
 * keywords contain it. English keywords compare by stemmed content terms (all terms of a
 * multi-word keyword must be present), so "paintings" matches "painting"; Chinese keywords compare
 * by substring, because a word segmenter may cut 用户系统 differently in a query and in a memory.
 */
import { contentTerms } from "../text/tokenize";
import { normalizeText } from "../text/normalize";

export interface MatchableText {
  content: string;
  phrase: string;
  keywords: readonly string[];
  /** Who said it: "what did Caroline say about X" matches Caroline's own words. */
  speaker?: string | null;
}

interface PreparedKeyword {
  cjk: boolean;
  norm: string;
  terms: string[];
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;

interface PreparedText {
  text: string;
  terms: ReadonlySet<string>;
}

/**
 * The normalised text and terms of a node, computed once per node object. This memo of a pure
 * function is keyed by object identity (so nothing is shared between agents) and held weakly: the
 * in-memory graph replaces a node object when its content changes, so an entry never goes stale.
 */
const textMemo = new WeakMap<MatchableText, PreparedText>();

function prepare(node: MatchableText): PreparedText {
  let entry = textMemo.get(node);
  if (!entry) {
    const text = normalizeText(`${node.speaker ?? ""}\n${node.content}\n${node.phrase}\n${node.keywords.join("\n")}`);
    entry = { text, terms: new Set(contentTerms(text).concat(text.split(/\s+/u))) };
    textMemo.set(node, entry);
  }
  return entry;
}

export class KeywordMatcher {
  private readonly prepared: PreparedKeyword[];

  constructor(keywords: readonly string[]) {
    this.prepared = keywords
      .map((k) => normalizeText(k))
      .filter((norm) => norm.length > 0)
      .map((norm) => {
        const terms = contentTerms(norm);
        // A keyword made only of stop words ("he") still matches itself as a plain token.
        return { cjk: CJK.test(norm), norm, terms: terms.length > 0 ? terms : [norm] };
      });
  }

  get size(): number {
    return this.prepared.length;
  }

  /**
   * Indexes of the keywords that `node` matches: a fresh set when there are any, else a shared
   * empty one (recall asks this of every node it reached, and most match nothing).
   */
  match(node: MatchableText): ReadonlySet<number> {
    if (this.prepared.length === 0) return NO_MATCH;
    const { text, terms } = prepare(node);
    let matched: Set<number> | undefined;
    for (let index = 0; index < this.prepared.length; index++) {
      const keyword = this.prepared[index];
      if (keyword && matches(keyword, text, terms)) (matched ??= new Set()).add(index);
    }
    return matched ?? NO_MATCH;
  }
}

const NO_MATCH: ReadonlySet<number> = new Set<number>();

function matches(keyword: PreparedKeyword, text: string, terms: ReadonlySet<string>): boolean {
  if (keyword.cjk) return text.includes(keyword.norm) || keyword.terms.every((t) => text.includes(t));
  for (const term of keyword.terms) if (!terms.has(term)) return false;
  return true;
}
