/**
 * English names of the server's relation vocabulary, keyed by the stored name a node view carries
 * (src/vocabulary/relations.ts). Copied, not imported: the page reads the API like any client and
 * imports no server code (docs/architecture.md); web/test/unit/labels-forecast.test.ts fails when the
 * server's vocabulary gains a relation this table lacks. The page's interface is English, so it
 * names relations in English whatever language the agent's memories (and the stored names) are in.
 */
export const RELATION_NAMES: Readonly<Record<string, string>> = {
  下文: "next",
  上文: "previous",
  关于: "about",
  相关: "related",
  更正: "corrects",
  被更正: "corrected by",
  矛盾: "contradicts",
  包含: "contains",
  属于: "part of",
  因为: "because",
  所以: "therefore",
  导致: "causes",
  引用: "cites",
  基于: "based on",
};

/** The English name of a stored relation; one the table does not know is shown as stored. */
export function relationName(stored: string): string {
  return RELATION_NAMES[stored] ?? stored;
}
