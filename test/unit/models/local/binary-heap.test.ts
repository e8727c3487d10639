import { describe, expect, it } from "vitest";
import { BinaryHeap } from "../../../../src/models/local/binary-heap";

describe("the compressor's candidate heap", () => {
  it("pops in order, ties in insertion order, across interleaved pushes and pops", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    type Item = { gain: number; seq: number };
    const heap = new BinaryHeap<Item>((a, b) => a.gain > b.gain || (a.gain === b.gain && a.seq < b.seq));
    const shadow: Item[] = [];
    let seq = 0;
    for (let step = 0; step < 2000; step++) {
      if (random() < 0.6 || shadow.length === 0) {
        const item = { gain: Math.floor(random() * 20), seq: seq++ };
        heap.push(item);
        shadow.push(item);
      } else {
        shadow.sort((a, b) => b.gain - a.gain || a.seq - b.seq);
        expect(heap.pop()).toBe(shadow.shift());
      }
      expect(heap.size).toBe(shadow.length);
    }
  });
});
