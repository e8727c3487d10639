import { describe, expect, it } from "vitest";
import { advanceClock, breakLevel, cyclesUntilBreak, levelOf, PINNED_LEVEL, strengthAt } from "../../../src/memory/strength";

describe("strength under decay", () => {
  it("1.0 × 0.97^n first falls below 0.01 at n = 152", () => {
    expect(0.97 ** 151).toBeGreaterThan(0.01);
    expect(0.97 ** 152).toBeLessThan(0.01);
    expect(cyclesUntilBreak(1, 0.97, 0.01)).toBe(152);
  });

  it("a stored level gives strength × decay^n after n clock steps", () => {
    let clock = 0;
    const level = levelOf(0.5, clock);
    for (let n = 1; n <= 40; n++) {
      clock = advanceClock(clock, 0.97);
      expect(strengthAt(level, clock)).toBeCloseTo(0.5 * 0.97 ** n, 12);
    }
  });

  it("follows a changed decay rate from the cycle it changes", () => {
    let clock = 0;
    const level = levelOf(1, clock);
    for (let n = 0; n < 10; n++) clock = advanceClock(clock, 0.97);
    for (let n = 0; n < 10; n++) clock = advanceClock(clock, 0.5);
    expect(strengthAt(level, clock)).toBeCloseTo(0.97 ** 10 * 0.5 ** 10, 14);
  });

  it("a link breaks exactly when its strength is below the threshold", () => {
    let clock = 0;
    const level = levelOf(1, 0);
    for (let n = 0; n < 151; n++) clock = advanceClock(clock, 0.97);
    expect(level < breakLevel(clock, 0.01)).toBe(false);
    clock = advanceClock(clock, 0.97);
    expect(level < breakLevel(clock, 0.01)).toBe(true);
  });

  it("pinned links stay at 1 and never break; decay 1 changes nothing", () => {
    expect(strengthAt(PINNED_LEVEL, 1e6)).toBe(1);
    expect(PINNED_LEVEL < breakLevel(1e6, 0.01)).toBe(false);
    expect(advanceClock(3, 1)).toBe(3);
    expect(() => levelOf(0, 0)).toThrow(RangeError);
    expect(() => advanceClock(0, 0)).toThrow(RangeError);
  });
});
