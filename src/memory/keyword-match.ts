/**
 * Keyword matching for recall (docs/design.md §5): a node matches a keyword when its content, phrase or
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
  /** Who said it: "what did Isabella say about X" matches Isabella's own words. */
  speaker?: string | null;
}

interface PreparedKeyword {
  cjk: boolean;
  norm: string;
  terms: string[];
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;

export interface PreparedText {
  text: string;
  terms: ReadonlySet<string>;
}

/** The normalised text of a node and its terms: what every keyword is matched against. */
export function prepareText(node: MatchableText): PreparedText {
  const text = normalizeText(`${node.speaker ?? ""}\n${node.content}\n${node.phrase}\n${node.keywords.join("\n")}`);
  return { text, terms: new Set(contentTerms(text).concat(text.split(/\s+/u))) };
}

/**
 * prepareText computed once per node object. This memo of a pure function is keyed by object
 * identity (so nothing is shared between agents) and held weakly: a node object whose content
 * changes is replaced, so an entry never goes stale.
 */
const textMemo = new WeakMap<MatchableText, PreparedText>();

function prepare(node: MatchableText): PreparedText {
  let entry = textMemo.get(node);
  if (!entry) {
    entry = prepareText(node);
    textMemo.set(node, entry);
  }
  return entry;
}

/** Prepared texts by node id and, for each term, the nodes that have it (src/memory/term-index.ts). */
export interface TermLookup {
  prepared(id: number): PreparedText | undefined;
  withTerm(term: string): ReadonlySet<number> | undefined;
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
   * empty one.
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

  /**
   * The keywords matched by each of `nodes` that matches any (node id → keyword indexes): what
   * match() gives node by node. With a term index, an English keyword is looked up in it and only
   * its few matching nodes are visited, instead of every node recall reached; Chinese keywords
   * (substrings) still read every node's text.
   */
  hitsAmong(nodes: ReadonlyMap<number, { node: MatchableText }>, index?: TermLookup): Map<number, Set<number>> {
    const hits = new Map<number, Set<number>>();
    const hit = (id: number, keyword: number) => {
      const set = hits.get(id);
      if (set) set.add(keyword);
      else hits.set(id, new Set([keyword]));
    };
    this.prepared.forEach((keyword, k) => {
      if (index && !keyword.cjk) {
        const postings = keyword.terms.map((t) => index.withTerm(t));
        if (postings.some((p) => p === undefined)) return;
        const sets = (postings as ReadonlySet<number>[]).sort((a, b) => a.size - b.size);
        const [smallest, ...rest] = sets;
        for (const id of smallest ?? []) if (nodes.has(id) && rest.every((set) => set.has(id))) hit(id, k);
        return;
      }
      for (const [id, { node }] of nodes) {
        const { text, terms } = index?.prepared(id) ?? prepare(node);
        if (matches(keyword, text, terms)) hit(id, k);
      }
    });
    return hits;
  }
}

const NO_MATCH: ReadonlySet<number> = new Set<number>();

function matches(keyword: PreparedKeyword, text: string, terms: ReadonlySet<string>): boolean {
  if (keyword.cjk) return text.includes(keyword.norm) || keyword.terms.every((t) => text.includes(t));
  for (const term of keyword.terms) if (!terms.has(term)) return false;
  return true;
}
