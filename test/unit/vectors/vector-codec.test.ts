import { describe, expect, it } from "vitest";
import { decodeVector, encodeVector } from "../../../src/vectors/vector-codec";

describe("vector codec", () => {
  it("round-trips float32 values exactly, little-endian, 4 bytes each", () => {
    const values = new Float32Array([0, -0, 1, -1.5, 3.4028234663852886e38, 1.401298464324817e-45, Infinity, NaN, 0.1]);
    const blob = encodeVector(values);
    expect(blob.byteLength).toBe(36);
    expect([...new Uint8Array(encodeVector(new Float32Array([1, -2])))]).toEqual([0, 0, 128, 63, 0, 0, 0, 192]);
    const back = decodeVector(blob, 9);
    expect([...back].map((x, i) => Object.is(x, values[i]))).toEqual(Array(9).fill(true));
  });

  it("copies a subarray's own values, and refuses a blob of the wrong size", () => {
    const whole = new Float32Array([1, 2, 3, 4]);
    expect([...decodeVector(encodeVector(whole.subarray(1, 3)), 2)]).toEqual([2, 3]);
    expect(() => decodeVector(new ArrayBuffer(12), 4)).toThrow("stored vector has 12 bytes, expected 16 (4 dimensions)");
  });
});
