/**
 * Bytes stored in parts (the object's copy of the network: rows of ≤ 1 MiB, graph-snapshot-store.ts),
 * read by range without first joining them into one buffer: a wake at the largest cached size would
 * otherwise hold its ~45 MB twice, and the copy's allocation alone triggers a collection.
 */
export class ByteParts {
  readonly length: number;
  private readonly starts: number[] = [];

  constructor(private readonly parts: readonly Uint8Array[]) {
    let at = 0;
    for (const part of parts) {
      this.starts.push(at);
      at += part.length;
    }
    this.length = at;
  }

  /** The pieces of [at, at + length) in order, each a view into its part. */
  private *pieces(at: number, length: number): Generator<Uint8Array> {
    const end = at + length;
    for (let i = 0; i < this.parts.length && at < end; i++) {
      const part = this.parts[i] ?? new Uint8Array(0);
      const start = this.starts[i] ?? 0;
      if (start + part.length <= at) continue;
      const from = at - start;
      const to = Math.min(part.length, end - start);
      yield part.subarray(from, to);
      at = start + to;
    }
  }

  /** A copy of [at, at + length) in a buffer of its own (aligned for any typed array at its start). */
  copy(at: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    let filled = 0;
    for (const piece of this.pieces(at, length)) {
      out.set(piece, filled);
      filled += piece.length;
    }
    if (filled !== length) throw new RangeError(`bytes ${at}…${at + length} are past the end (${this.length})`);
    return out;
  }

  /** [at, at + length) decoded as UTF-8 (a character split between two parts included); all of it by default. */
  text(at = 0, length = this.length - at): string {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
    let text = "";
    let read = 0;
    for (const piece of this.pieces(at, length)) {
      text += decoder.decode(piece, { stream: true });
      read += piece.length;
    }
    if (read !== length) throw new RangeError(`bytes ${at}…${at + length} are past the end (${this.length})`);
    return text + decoder.decode();
  }
}
