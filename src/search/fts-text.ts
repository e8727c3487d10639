/**
 * Text prepared for the full-text index (migrations/0001_fts.sql). Documents and queries go through
 * the same analyzer (src/language/tokens/index-terms.ts): English words lower-cased and stemmed ("paintings" →
 * "paint"), only function words dropped, hyphenated words by their parts too; Chinese as characters
 * and character pairs (plus segmenter words of three characters and more), so a word matches
 * however the segmenter cut it. The index then only splits on spaces.
 *
 * A node's document is its fields' terms (docs/design.md, "recall(keywords, relations, depth)"): its speaker, its own text (content,
 * phrase and keywords) and its time (month, day and year of its messages). BM25 over the document
 * is the keyword search; recall weighs the fields apart (src/memory/field-score.ts), from the same
 * terms, so both read one set of statistics.
 */
import { indexTerms, queryTerms } from "../language/tokens/index-terms";

/** A node's terms by field; `length` is the document's length (all of them). */
export interface DocumentFields {
  /** Own text: content, phrase and keywords; term → occurrences. */
  text: ReadonlyMap<string, number>;
  speaker: ReadonlySet<string>;
  time: ReadonlySet<string>;
  length: number;
  /** The full-text document: every term, space-separated. */
  document: string;
}

export interface DocumentParts {
  content: string;
  phrase: string;
  keywords: readonly string[];
  speaker?: string | null;
  /** The messages' own time (ms since the epoch). */
  messageTime?: number | null;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/**
 * Month, day and year of a time (UTC), what a question says of a date ("on 7 July, 2023", "in
 * May 2023"). Empty when there is no time.
 */
export function timeTerms(ms: number | null | undefined): string[] {
  if (ms === null || ms === undefined) return [];
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return [];
  return [MONTHS[date.getUTCMonth()] ?? "", String(date.getUTCDate()), String(date.getUTCFullYear())].filter((t) => t !== "");
}

/**
 * Fields already computed, by the (never mutated) node or update they were computed from: a node
 * written once is indexed in D1, in the in-memory index and scored by recall from one analysis.
 */
const fieldMemo = new WeakMap<object, DocumentFields>();

export function documentFields(parts: DocumentParts): DocumentFields {
  const known = fieldMemo.get(parts);
  if (known) return known;
  const kept = keptTerms.get(parts);
  if (kept !== undefined) {
    keptTerms.delete(parts);
    return primeDocumentFields(parts, kept === "" ? [] : kept.split(" "));
  }
  return primeDocumentFields(parts, indexTerms([parts.content, parts.phrase, parts.keywords.join(" ")].join("\n")));
}

/**
 * The fields of `parts` from its own terms (content, phrase and keywords) analysed before, kept for
 * it: a graph's snapshot stores them (src/engine/graph-snapshot.ts), so a wake does not run the
 * analyzer over every node again.
 */
function primeDocumentFields(parts: DocumentParts, own: readonly string[]): DocumentFields {
  const speaker = indexTerms(parts.speaker ?? "");
  const time = timeTerms(parts.messageTime);
  const text = new Map<string, number>();
  for (const t of own) text.set(t, (text.get(t) ?? 0) + 1);
  const all = [...speaker, ...own, ...time];
  const fields: DocumentFields = {
    text,
    speaker: new Set(speaker),
    time: new Set(time),
    length: all.length,
    document: all.join(" "),
  };
  fieldMemo.set(parts, fields);
  return fields;
}

/** Own terms kept as a copy of the network stored them (space-separated), analysed on first need. */
const keptTerms = new WeakMap<object, string>();

/** `parts`' own terms as documentFields analysed them before (a wake from the object's copy). */
export function keepOwnTerms(parts: DocumentParts, terms: string): void {
  keptTerms.set(parts, terms);
}

/**
 * `parts`' full-text document as it was indexed (D1's nodes_fts), for documentFields: its own terms
 * are the document between its speaker's terms and its time's, kept when both ends are what they
 * would be now (a node's text is never changed without its document: updateText writes both).
 */
export function keepDocument(parts: DocumentParts, document: string, speakers = new Map<string, string[]>()): void {
  if (fieldMemo.has(parts)) return;
  const all = document === "" ? [] : document.split(" ");
  const speaker = speakerTerms(parts.speaker ?? "", speakers);
  const time = timeTerms(parts.messageTime);
  if (all.length < speaker.length + time.length) return;
  if (speaker.some((t, i) => all[i] !== t) || time.some((t, i) => all[all.length - time.length + i] !== t)) return;
  keptTerms.set(parts, all.slice(speaker.length, all.length - time.length).join(" "));
}

/**
 * A speaker's terms, analysed once per `memo` (few names, many nodes each). The memo is the
 * caller's, one per load of one agent's nodes: a cache by name shared by the isolate would let one
 * tenant's timing tell which names another's memories hold.
 */
function speakerTerms(speaker: string, memo: Map<string, string[]>): string[] {
  let terms = memo.get(speaker);
  if (!terms) {
    terms = indexTerms(speaker);
    memo.set(speaker, terms);
  }
  return terms;
}

/** The own terms of `parts` in order, as documentFields analysed them (the document between speaker and time). */
export function ownTerms(parts: DocumentParts): string[] {
  const { document, length } = documentFields(parts);
  if (length === 0) return [];
  const all = document.split(" ");
  return all.slice(indexTerms(parts.speaker ?? "").length, all.length - timeTerms(parts.messageTime).length);
}

/** Space-separated index terms of a node: its speaker, content, phrase, keywords and time. */
export function ftsDocument(parts: DocumentParts): string {
  return documentFields(parts).document;
}

/** Distinct index terms of a query, in order. */
export function ftsQueryTerms(query: string): string[] {
  return queryTerms(query);
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
