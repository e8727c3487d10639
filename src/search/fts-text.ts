/**
 * Text prepared for the full-text index (migrations/0001_fts.sql). Documents and queries go through
 * the same tokenizer: English words lower-cased and stemmed ("paintings" → "paint"), Chinese cut
 * into words by Intl.Segmenter (苹果, 公园), stop words dropped. The index then only splits on spaces.
 */
import { tokenize } from "../text/tokenize";

/**
 * Documents already computed, by the (never mutated) node or update they were computed from: a
 * node written once is indexed in D1, in the in-memory BM25 index and counted, from one tokenizing.
 */
const documents = new WeakMap<object, string>();

/** Space-separated index terms of a node: its speaker, content, phrase and keywords. */
export function ftsDocument(parts: { content: string; phrase: string; keywords: readonly string[]; speaker?: string | null }): string {
  const known = documents.get(parts);
  if (known !== undefined) return known;
  const text = [parts.speaker ?? "", parts.content, parts.phrase, parts.keywords.join(" ")].join("\n");
  const document = terms(text).join(" ");
  documents.set(parts, document);
  return document;
}

/** Distinct index terms of a query, in order. */
export function ftsQueryTerms(query: string): string[] {
  return [...new Set(terms(query))];
}

/**
 * An FTS5 MATCH expression: any of the terms (BM25 ranks documents with more and rarer terms
 * first). Each term is quoted, so no user input is read as FTS syntax. Undefined when the query
 * has no searchable term.
 */
export function ftsMatchExpression(terms: readonly string[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
}

/** Query terms in Chinese (or other CJK) script: matched by substring too (see FtsRepo.substrings). */
export function cjkTerms(terms: readonly string[]): string[] {
  return terms.filter((t) => /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u.test(t));
}

function terms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (token.stop || token.script === "other") continue;
    const term = token.norm.trim();
    if (term.length === 0 || (token.script === "latin" && term.length < 2)) continue;
    out.push(term);
  }
  return out;
}
