import { describe, expect, it } from "vitest";
import { LruMap } from "../../../src/language/lru-map";

describe("LruMap, the parse caches' bound", () => {
  it("makes a value once per key, keeps the most recently used and drops the oldest past its capacity", () => {
    const made: string[] = [];
    const lru = new LruMap<string, string>(2);
    const get = (k: string) => lru.getOrSet(k, (key) => (made.push(key), key.toUpperCase()));
    expect([get("a"), get("b"), get("a")]).toEqual(["A", "B", "A"]);
    expect(made).toEqual(["a", "b"]);
    get("c"); // over capacity: "b" is the least recently used, "a" was just read
    get("a");
    expect(made).toEqual(["a", "b", "c"]);
    get("b");
    expect(made).toEqual(["a", "b", "c", "b"]);
  });
});
