/**
 * The one normal form used to compare words, keywords and entity names: NFKC (full-width letters and
 * digits become half-width, compatibility ligatures are expanded), lower case, runs of whitespace
 * collapsed to one space, trimmed. "ＡＬＩＣＥ  Smith " and "alice smith" compare equal.
 */
export function normalizeText(s: string): string {
  return s.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}
