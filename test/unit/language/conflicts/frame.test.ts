import { beforeAll, describe, expect, it } from "vitest";
import { frameOf } from "../../../../src/language/conflicts/frame";
import { loadTaggers } from "../../../../src/language/tagging/tagged-words";

describe("the frame of one clause", () => {
  beforeAll(loadTaggers);

  it("reads the subject, the slot, the object, a negation, a change and the past, in English and Chinese", () => {
    expect(frameOf("I moved to Berlin", ["alice"], undefined)).toMatchObject({
      slot: "residence",
      subject: new Set(["alice"]),
      object: new Set(["berlin"]),
      negated: false,
      saidChange: true,
      past: false,
    });
    expect(frameOf("Bob doesn't like tea", [], undefined)).toMatchObject({ slot: "preference", subject: new Set(["bob"]), negated: true });
    expect(frameOf("I used to live in Rome", ["mina"], undefined)).toMatchObject({ slot: "residence", past: true });
    expect(frameOf("我今年十岁", ["小明"], undefined)).toMatchObject({ slot: "age", count: 10, anchor: "今年" });
  });

  it("gives a clause with nothing to compare no frame", () => {
    expect(frameOf("", [], undefined)).toBeNull();
    expect(frameOf("Thanks!", [], undefined)).toBeNull();
  });
});
