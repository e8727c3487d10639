/**
 * LoCoMo evidence-id normalisation. A few evidence entries in LoCoMo are malformed: "D:2:7" (extra
 * colon), "D3:04" (zero-padded turn), several ids in one string ("D2:6; D3:1", "D4:1 D2:2",
 * "D1:2,D1:4"), and some name turns that do not exist. The README: normalise them, drop ids that do not
 * exist and questions left without evidence; this module does the first two and counts what it did.
 */

/** Canonical form "D<session>:<turn>" without zero padding, or null when `piece` is not an id. */
export function normalizeEvidenceId(piece: string): string | null {
  // Tolerate stray brackets, quotes or a trailing period around an id, but nothing inside it.
  const core = piece.trim().replace(/^[^0-9A-Za-z]+|[^0-9A-Za-z]+$/g, "");
  const m = /^D:?(\d+):(\d+)$/i.exec(core);
  if (!m?.[1] || !m[2]) return null;
  return `D${Number(m[1])}:${Number(m[2])}`;
}

/** The pieces of one evidence entry: ids may be separated by `;`, `,` or whitespace. */
export function splitEvidence(raw: string): string[] {
  return raw.split(/[;,\s]+/).filter((p) => p.length > 0);
}

export interface EvidenceOutcome {
  /** Existing turn ids, in the order given, without duplicates. */
  ids: string[];
  /** Entries that held more than one id. */
  split: number;
  /** Ids rewritten to the canonical form ("D:2:7" → "D2:7", "D3:04" → "D3:4"). */
  reformatted: number;
  /** Pieces that are not ids, or ids of turns the conversation does not have. */
  dropped: string[];
  /** Ids listed more than once for the same question. */
  duplicates: number;
}

/**
 * Normalises the raw evidence list of one question against the conversation's turns.
 * `turnIds` maps the canonical form of each turn id to the turn's own id (which is what the benchmark
 * sends as message id, so evidence is always expressed in the conversation's own spelling).
 */
export function normalizeEvidence(raw: readonly string[], turnIds: ReadonlyMap<string, string>): EvidenceOutcome {
  const out: EvidenceOutcome = { ids: [], split: 0, reformatted: 0, dropped: [], duplicates: 0 };
  const seen = new Set<string>();
  for (const entry of raw) {
    const pieces = splitEvidence(entry);
    if (pieces.length > 1) out.split += 1;
    for (const piece of pieces) {
      const canonical = normalizeEvidenceId(piece);
      const id = canonical === null ? undefined : turnIds.get(canonical);
      if (id === undefined) {
        out.dropped.push(piece);
        continue;
      }
      if (id !== piece) out.reformatted += 1;
      if (seen.has(id)) {
        out.duplicates += 1;
        continue;
      }
      seen.add(id);
      out.ids.push(id);
    }
  }
  return out;
}

/** Totals over a whole file, reported by the loader and the benchmark. */
export interface EvidenceReport {
  /** Questions in the file. */
  questions: number;
  /** Questions kept (at least one existing evidence turn). */
  keptQuestions: number;
  /** Raw evidence entries (strings) in the file. */
  evidenceEntries: number;
  /** Entries that held several ids and were split. */
  splitEntries: number;
  /** Ids rewritten to the canonical form. */
  reformattedIds: number;
  /** Duplicate ids removed within a question. */
  duplicateIds: number;
  /** Pieces dropped: not an id, or naming no turn of the conversation. */
  droppedIds: number;
  /** Questions dropped because no evidence was left (including those that had none to begin with). */
  droppedQuestions: number;
  /** Every question whose evidence changed or that was dropped, for inspection. */
  changes: EvidenceChange[];
}

export interface EvidenceChange {
  sampleId: string;
  question: string;
  raw: string[];
  /** The evidence kept; empty when the question was dropped. */
  evidence: string[];
  dropped: string[];
}

export function emptyEvidenceReport(): EvidenceReport {
  return {
    questions: 0,
    keptQuestions: 0,
    evidenceEntries: 0,
    splitEntries: 0,
    reformattedIds: 0,
    duplicateIds: 0,
    droppedIds: 0,
    droppedQuestions: 0,
    changes: [],
  };
}
