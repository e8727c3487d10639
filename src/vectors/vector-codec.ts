/**
 * Vectors as SQLite BLOBs: `dimensions` IEEE-754 float32 values, little-endian, nothing else (no
 * header), so a blob is exactly `dimensions * 4` bytes and a dimension mismatch shows in its size.
 *
 * Every Workers host is little-endian, where the bytes are copied as they are (fast enough to load
 * tens of thousands of vectors on wake); a big-endian host goes through DataView, so the stored
 * format never depends on the machine that wrote it.
 *
 * Also the checks every index applies to what it stores and reads back: dimensions, finite values,
 * node ids, kinds, topK.
 */
import { NODE_KINDS, type NodeKind } from "../vocabulary/node-kinds";

const BYTES_PER_VALUE = Float32Array.BYTES_PER_ELEMENT;

/** True when the host stores a float32 in the blob's byte order (checked once, a constant). */
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Throws unless `vector` has exactly `dimensions` finite values (a NaN would poison every score). */
export function checkVector(vector: Float32Array, dimensions: number, what = "vector"): void {
  if (vector.length !== dimensions) {
    throw new RangeError(`${what} has ${vector.length} dimensions, the index has ${dimensions}`);
  }
  for (let i = 0; i < vector.length; i += 1) {
    if (!Number.isFinite(vector[i])) throw new RangeError(`${what} has a non-finite value at ${i}`);
  }
}

/** Checks records before any is written: an invalid one writes nothing. */
export function checkRecords(records: readonly { nodeId: number; kind: unknown; vector: Float32Array }[], dimensions: number): void {
  for (const r of records) {
    checkNodeId(r.nodeId);
    parseKind(r.kind);
    checkVector(r.vector, dimensions, `vector of node ${r.nodeId}`);
  }
}

/** The blob of a vector: a new buffer of exactly `vector.length * 4` bytes. */
export function encodeVector(vector: Float32Array): ArrayBuffer {
  if (HOST_IS_LITTLE_ENDIAN) return vector.slice().buffer;
  const out = new ArrayBuffer(vector.length * BYTES_PER_VALUE);
  const view = new DataView(out);
  for (let i = 0; i < vector.length; i += 1) view.setFloat32(i * BYTES_PER_VALUE, vector[i] ?? 0, true);
  return out;
}

/** Writes a blob's values into `target` from `offset` (no allocation: used to fill the index matrix). */
export function decodeVectorInto(blob: ArrayBuffer, dimensions: number, target: Float32Array, offset: number): void {
  if (blob.byteLength !== dimensions * BYTES_PER_VALUE) {
    throw new RangeError(`stored vector has ${blob.byteLength} bytes, expected ${dimensions * BYTES_PER_VALUE} (${dimensions} dimensions)`);
  }
  if (offset < 0 || offset + dimensions > target.length) throw new RangeError("decode target is too small");
  if (HOST_IS_LITTLE_ENDIAN) {
    target.set(new Float32Array(blob), offset);
    return;
  }
  const view = new DataView(blob);
  for (let i = 0; i < dimensions; i += 1) target[offset + i] = view.getFloat32(i * BYTES_PER_VALUE, true);
}

/** The vector a blob holds; throws when the blob does not hold exactly `dimensions` values. */
export function decodeVector(blob: ArrayBuffer, dimensions: number): Float32Array {
  const out = new Float32Array(dimensions);
  decodeVectorInto(blob, dimensions, out, 0);
  return out;
}

/** Every node kind, in the order of kind codes. */

/** A stored kind as the domain type; throws on anything else (rows are parsed, not trusted). */
export function parseKind(value: unknown): NodeKind {
  const kind = NODE_KINDS.find((k) => k === value);
  if (kind === undefined) throw new TypeError(`unknown vector kind ${JSON.stringify(value)}`);
  return kind;
}

/** Node ids are SQLite integers: anything else cannot round-trip through a row or a Vectorize id. */
export function checkNodeId(nodeId: number): void {
  if (!Number.isSafeInteger(nodeId) || nodeId < 0) throw new RangeError(`invalid node id ${nodeId}`);
}

/** A kind's position in a kind mask. */
export function kindCode(kind: NodeKind): number {
  return NODE_KINDS.indexOf(kind);
}

/** The kinds a query accepts as a mask indexed by kindCode (all kinds when absent, none when empty). */
export function kindMask(kinds: readonly NodeKind[] | undefined): Uint8Array {
  return Uint8Array.from(NODE_KINDS, (k) => (kinds === undefined || kinds.includes(k) ? 1 : 0));
}

/** topK is a count of hits: 0 asks for none (an empty answer, not an error). */
export function checkTopK(topK: number): void {
  if (!Number.isSafeInteger(topK) || topK < 0) throw new RangeError(`topK must be a non-negative integer, got ${topK}`);
}
