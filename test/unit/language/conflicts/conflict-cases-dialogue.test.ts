// The dialogue conflict cases' shape (test/conflict-cases-dialogue.ts). How the conflict judges do on
// them is measured with the main table in test/conflicts.test.ts; this file only holds the table to
// what issue 22 asks of it, without running any judge.
import { describe, expect, it } from "vitest";
import { CONFLICT_CASES } from "../../../conflict-cases";
import { DIALOGUE_CONFLICT_CASES } from "../../../conflict-cases-dialogue";

const cases = DIALOGUE_CONFLICT_CASES;
const conflict = (c: (typeof cases)[number]) => c.expected === "update" || c.expected === "contradiction";

describe("dialogue conflict cases", () => {
  it("has at least 40 cases with unique ids of the form dlg-en-NN / dlg-zh-NN, none reused from the main table", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const c of cases) expect(c.id).toMatch(/^dlg-(en|zh)-\d{2}$/);
    const ids = [...cases, ...CONFLICT_CASES].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("holds at least 15 Chinese cases, 25 that are no conflict and 10 real updates or contradictions", () => {
    expect(cases.filter((c) => c.id.startsWith("dlg-zh-")).length).toBeGreaterThanOrEqual(15);
    expect(cases.filter((c) => !conflict(c)).length).toBeGreaterThanOrEqual(25);
    expect(cases.filter(conflict).length).toBeGreaterThanOrEqual(10);
    for (const lang of ["dlg-en-", "dlg-zh-"]) {
      const own = cases.filter((c) => c.id.startsWith(lang));
      expect(own.some(conflict), lang).toBe(true);
      expect(
        own.some((c) => !conflict(c)),
        lang,
      ).toBe(true);
    }
  });

  it("covers every dialogue kind that is never a conflict, and gives none of them a conflict verdict", () => {
    for (const kind of ["agreement", "acknowledgement", "confirmation", "question", "preference"] as const) {
      const own = cases.filter((c) => c.kind === kind);
      expect(own.length, kind).toBeGreaterThan(0);
      expect(own.filter(conflict).map((c) => c.id)).toEqual([]);
    }
  });

  it("writes each turn with its speaker first and names what pairs them", () => {
    for (const c of cases) {
      for (const text of [c.earlier, c.later]) expect(text, c.id).toMatch(/^[^\s:]+: \S/);
      expect(c.entities.length, c.id).toBeGreaterThan(0);
      expect(c.earlier).not.toBe(c.later);
    }
  });
});
