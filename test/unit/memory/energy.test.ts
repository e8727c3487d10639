import { describe, expect, it } from "vitest";
import { energyOf } from "../../../src/memory/energy";

describe("the pure pieces", () => {
  it("energy indicators switch exactly at 0.7 and 0.3 of min(importance, 1)", () => {
    expect([2, 1, 0.7000001, 0.7, 0.5, 0.3000001, 0.3, 0.1, 0].map(energyOf)).toEqual(["●", "●", "●", "○", "○", "○", "◌", "◌", "◌"]);
  });
});
