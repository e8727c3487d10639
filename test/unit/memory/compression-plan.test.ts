import { describe, expect, it } from "vitest";
import { planScan } from "../../../src/memory/compression-plan";

describe("compression planning (one scan of one node)", () => {
  const scan = (importance: number, originalLength = 40, currentLength = originalLength) =>
    planScan({ importance, originalLength, currentLength, deleteThreshold: 5 });

  it("compresses a node with one outgoing link of 0.5 to half its original length on its first scan", () => {
    expect(scan(0.5, 40)).toEqual({ action: "compress", target: 20 });
    expect(scan(0.5, 41)).toEqual({ action: "compress", target: 20 });
  });

  it("leaves importance ≥ 1 untouched, however short the content", () => {
    expect(scan(1)).toEqual({ action: "protect" });
    expect(scan(3.2, 2)).toEqual({ action: "protect" });
  });

  it("deletes when the target falls below delete_threshold", () => {
    expect(scan(0.12, 40)).toEqual({ action: "delete", target: 4 });
    expect(scan(0.125, 40)).toEqual({ action: "compress", target: 5 });
    expect(scan(0, 40)).toEqual({ action: "delete", target: 0 });
  });

  it("keeps content that is already within its target", () => {
    expect(scan(0.5, 40, 18)).toEqual({ action: "keep", target: 20 });
    expect(scan(0.5, 40, 20)).toEqual({ action: "keep", target: 20 });
  });
});
