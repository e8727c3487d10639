import { describe, expect, it } from "vitest";
import { ByteParts } from "../../../src/engine/byte-parts";

/** `bytes` cut at the given offsets into parts of their own buffers. */
function cut(bytes: Uint8Array, at: readonly number[]): Uint8Array[] {
  const edges = [0, ...at, bytes.length];
  return edges.slice(1).map((end, i) => bytes.slice(edges[i], end));
}

describe("bytes read by range from their parts", () => {
  const text = "réseau 记忆网络 🧠 memory, " + "x".repeat(50) + " 遗忘";
  const bytes = new TextEncoder().encode(text);

  it("decode any range as one buffer would, characters split between parts included", () => {
    for (let step = 1; step <= 7; step++) {
      const offsets = Array.from({ length: Math.floor(bytes.length / step) }, (_, i) => (i + 1) * step).filter((o) => o < bytes.length);
      const parts = new ByteParts(cut(bytes, offsets));
      expect(parts.length).toBe(bytes.length);
      expect(parts.text()).toBe(text);
      const from = new TextEncoder().encode("réseau ").length;
      const length = new TextEncoder().encode("记忆网络 🧠").length;
      expect(parts.text(from, length)).toBe("记忆网络 🧠");
    }
  });

  it("copy any range into a buffer of its own, and refuse a range past the end or a broken character", () => {
    const parts = new ByteParts(cut(bytes, [3, 4, 20, 21]));
    for (const [at, length] of [
      [0, bytes.length],
      [2, 3],
      [4, 0],
      [19, 9],
    ] as const) {
      const copy = parts.copy(at, length);
      expect([...copy]).toEqual([...bytes.subarray(at, at + length)]);
      expect(copy.byteOffset).toBe(0);
    }
    expect(() => parts.copy(bytes.length - 2, 5)).toThrow(/past the end/);
    // Byte 2 is the second byte of "é": a copy that starts there is not UTF-8.
    expect(() => parts.text(2, 3)).toThrow();
    expect(parts.text(1, 3)).toBe("és");
  });
});
