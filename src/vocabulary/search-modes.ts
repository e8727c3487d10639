/** How a search ranks memories: by words (BM25), by meaning (vectors) or both fused (docs/design.md, "Search"). */
export const SEARCH_MODES = ["keyword", "vector", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];
