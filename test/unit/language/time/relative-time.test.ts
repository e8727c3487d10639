import { describe, expect, it } from "vitest";
import { resolveRelativeTimes, resolveTimeValue } from "../../../../src/language/time/relative-time";

const REFERENCE = Date.UTC(2025, 10, 5, 10, 0, 0); // Wednesday 2025-11-05

describe("relative times and composed memories (pure)", () => {
  it("resolves relative times in English and Chinese against the message time", () => {
    const at = (text: string) => resolveRelativeTimes(text, REFERENCE).resolved.map((r) => `${r.expression}=${r.value}`);
    expect(at("I saw her yesterday and will again tomorrow.")).toEqual(["yesterday=2025-11-04", "tomorrow=2025-11-06"]);
    expect(at("last Friday, this Friday, next Monday, the day before yesterday")).toEqual([
      "last Friday=2025-10-31",
      "this Friday=2025-11-07",
      "next Monday=2025-11-10",
      "the day before yesterday=2025-11-03",
    ]);
    expect(at("three days ago, in 2 weeks, last month, next year")).toEqual([
      "three days ago=2025-11-02",
      "in 2 weeks=2025-11-17",
      "last month=2025-10",
      "next year=2026",
    ]);
    expect(at("我昨天去了超市，前天在家，上周五开会，下周一出差，三天前下雨，去年搬家，上个月很忙")).toEqual([
      "昨天=2025-11-04",
      "前天=2025-11-03",
      "上周五=2025-10-31",
      "下周一=2025-11-10",
      "三天前=2025-11-02",
      "去年=2024",
      "上个月=2025-10",
    ]);
    expect(resolveRelativeTimes("我昨天去了超市", REFERENCE).text).toBe("我昨天（2025-11-04）去了超市");
    expect(resolveRelativeTimes("We met last week.", REFERENCE).text).toBe("We met last week (the week of 2025-10-27).");
    // A bare weekday says nothing about the week: left alone.
    expect(resolveRelativeTimes("We meet on Friday, 周五见", REFERENCE).resolved).toEqual([]);
    expect(resolveTimeValue("昨天", REFERENCE).text).toBe("2025-11-04");
    expect(resolveTimeValue("yesterday evening", REFERENCE).text).toBe("yesterday (2025-11-04) evening");
    // Dates are UTC calendar days: late on the 5th UTC is still the 5th.
    expect(resolveTimeValue("today", Date.UTC(2025, 10, 5, 23, 59)).text).toBe("2025-11-05");
  });
});
