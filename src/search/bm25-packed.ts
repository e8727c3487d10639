/**
 * A BM25 index's content as arrays, as the object's copy of the network keeps it
 * (src/engine/graph-snapshot.ts), and read as it is stored: a wake's first search finds a token's
 * postings by binary search instead of waiting for thousands of maps to be built (bm25-index.ts
 * builds them at the index's first change, which a read never makes).
 */

export interface PackedBm25 {
  /** The distinct tokens, ascending (JavaScript's string order). */
  tokens: readonly string[];
  /** Token i's postings are docs[offsets[i] … offsets[i + 1]) with their term frequencies in tfs; ids ascending. */
  offsets: Int32Array;
  docs: Int32Array;
  tfs: Int32Array;
  /** The documents, ids ascending, and their lengths in tokens. */
  docIds: Int32Array;
  lengths: Int32Array;
}

/** Where `value` is in the ascending `list` (between `from` and `to`), or -1. */
function find<T extends number | string>(list: ArrayLike<T>, value: T, from = 0, to = list.length): number {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = list[mid] as T;
    if (at === value) return mid;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Reading a packed index: what Bm25Index asks of its postings while it has not changed. */
export class PackedPostings {
  readonly totalLength: number;

  constructor(readonly packed: PackedBm25) {
    let total = 0;
    for (const length of packed.lengths) total += length;
    this.totalLength = total;
  }

  get documents(): number {
    return this.packed.docIds.length;
  }

  /** The token's index, or -1 when no document holds it. */
  token(token: string): number {
    return find(this.packed.tokens, token);
  }

  /** How many documents hold token `t` (an index from token()). */
  documentFrequency(t: number): number {
    return t < 0 ? 0 : (this.packed.offsets[t + 1] ?? 0) - (this.packed.offsets[t] ?? 0);
  }

  /** The documents holding token `t`, ids ascending. */
  docsOf(t: number): Int32Array {
    return t < 0 ? new Int32Array(0) : this.packed.docs.subarray(this.packed.offsets[t], this.packed.offsets[t + 1]);
  }

  /** Occurrences of token `t` in document `id` (0: none). */
  frequency(t: number, id: number): number {
    if (t < 0) return 0;
    const at = find(this.packed.docs, id, this.packed.offsets[t], this.packed.offsets[t + 1]);
    return at < 0 ? 0 : (this.packed.tfs[at] ?? 0);
  }

  /** Document `id`'s length in tokens (0: not indexed). */
  lengthOf(id: number): number {
    const at = find(this.packed.docIds, id);
    return at < 0 ? 0 : (this.packed.lengths[at] ?? 0);
  }

  /** Every posting, token by token: what the maps are built from at the index's first change. */
  *postings(): Generator<[token: string, docs: Int32Array, tfs: Int32Array]> {
    const { tokens, offsets, docs, tfs } = this.packed;
    for (let t = 0; t < tokens.length; t++) {
      yield [tokens[t] ?? "", docs.subarray(offsets[t], offsets[t + 1]), tfs.subarray(offsets[t], offsets[t + 1])];
    }
  }
}
