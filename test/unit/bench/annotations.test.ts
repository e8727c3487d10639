// The entity benchmark's hand annotations (bench/quality/annotations/): the committed file's shape, the
// sampling rule, resolving references against whatever data is given (texts absent are skipped and
// counted), and the checks that hold the annotations to the data where their texts are present
// (annotations-check.ts). Fixtures of our own (locomo-sample.ts): the dev data is checked by the
// benchmark itself, which reads it anyway (a user's clone has no ../shared).
import { describe, expect, it } from "vitest";
import {
  mustForms,
  parseEntityAnnotations,
  refKey,
  resolveAnnotations,
  selectAnnotationTexts,
  systematicSample,
  type AnnotationData,
  type EntityAnnotations,
} from "../../../bench/quality/annotations";
import { annotationProblems, occursIn } from "../../../bench/quality/annotations-check";
import { loadEntityAnnotations } from "../../../bench/quality/annotations-load";
import { loadLocomo } from "../../../bench/lib/load";
import { writeLocomoSample } from "./locomo-sample";
import type { MadialDialogue } from "../../../bench/quality/annotations";
import annotationsText from "../../../bench/quality/annotations/entities.json?raw";

const OTHER_LOCOMO = writeLocomoSample();
const committed = parseEntityAnnotations(JSON.parse(annotationsText));
const locomo = loadLocomo(OTHER_LOCOMO).conversations;

const dialogues: MadialDialogue[] = [
  {
    id: "1",
    lines: [
      null,
      { tag: "Mia", text: "我今天去公园放风筝了。" },
      { tag: "Assistant", text: "听起来很开心！" },
      { tag: "Mia", text: "风筝是红色的。" },
    ],
  },
];
const data: AnnotationData = {
  locomo,
  madial: {
    memories: [
      { id: "1", time: "2023-05-01", event: "Mia在公园放风筝。", content: "2023-05-01 Mia在公园放风筝。" },
      { id: "2", time: "2023-06-01", event: "Mia养了一只猫。", content: "2023-06-01 Mia养了一只猫。" },
    ],
    dialogues,
    userName: "Mia",
  },
};

/** Annotations of exactly the texts the rule picks from `data`, with `must` from `mustOf`. */
function annotationsOf(d: AnnotationData, mustOf: (text: string, speaker: string) => string[]): EntityAnnotations {
  return {
    version: 1,
    guidelines: "fixture",
    items: selectAnnotationTexts(d).map((t) => ({
      ref: t.ref,
      lang: t.lang,
      split: t.split,
      speaker: t.speaker,
      must: mustOf(t.text, t.speaker),
      ok: [],
    })),
  };
}

/** The capitalised words and the Chinese nouns 风筝/猫 of a text, its speaker aside: what the fixture's "annotator" names. */
const names = (text: string, speaker: string): string[] => [
  ...new Set(
    [...(text.match(/\b[A-Z][a-z]{2,}\b/g) ?? []), ...["风筝", "猫"].filter((w) => text.includes(w))].filter((w) => !speaker.includes(w)),
  ),
];

describe("entity annotations: the committed file", () => {
  it("parses, with unique references, at least 150 texts, both languages in both splits, and texts without any entity", () => {
    const keys = committed.items.map((i) => refKey(i.ref));
    expect(new Set(keys).size).toBe(keys.length);
    expect(committed.items.length).toBeGreaterThanOrEqual(150);
    const count = (lang: string, split: string) => committed.items.filter((i) => i.lang === lang && i.split === split).length;
    for (const lang of ["en", "zh"])
      for (const split of ["tune", "heldback"]) expect(count(lang, split), `${lang}/${split}`).toBeGreaterThan(0);
    expect(committed.items.filter((i) => i.must.length === 0).length).toBeGreaterThan(0);
  });

  it("has no empty or padded string, no duplicate within an item, nothing both required and acceptable", () => {
    for (const item of committed.items) {
      const forms = [...mustForms(item).flat(), ...item.ok];
      for (const f of forms) expect(f.trim() === f && f.length > 0, `${refKey(item.ref)}: "${f}"`).toBe(true);
      const lower = forms.map((f) => f.toLowerCase());
      expect(new Set(lower).size, `${refKey(item.ref)} repeats a form`).toBe(lower.length);
    }
  });
});

describe("entity annotations: schema and rule", () => {
  const item = { ref: { source: "madial-memory", id: "1" }, lang: "zh", split: "tune", speaker: "Lina", must: ["猫"], ok: [] };
  const file = (items: unknown[]) => ({ version: 1, guidelines: "g", items });

  it("accepts a well-formed item and rejects empty names, single-form alternatives and unknown sources", () => {
    expect(parseEntityAnnotations(file([item])).items).toHaveLength(1);
    expect(() => parseEntityAnnotations(file([{ ...item, must: [""] }]))).toThrow(/entity annotations/);
    expect(() => parseEntityAnnotations(file([{ ...item, ok: [" 猫"] }]))).toThrow(/whitespace/);
    expect(() => parseEntityAnnotations(file([{ ...item, must: [["猫"]] }]))).toThrow();
    expect(() => parseEntityAnnotations(file([{ ...item, ref: { source: "other", id: "1" } }]))).toThrow();
    expect(() => parseEntityAnnotations({ ...file([item]), version: 2 })).toThrow();
  });

  it("samples the middle of each stride", () => {
    const xs = Array.from({ length: 25 }, (_x, i) => i);
    expect(systematicSample(xs, 5)).toEqual([2, 7, 12, 17, 22]);
    expect(systematicSample(xs, 4)).toEqual([3, 9, 15, 21]);
    expect(systematicSample([1, 2], 5)).toEqual([1, 2]);
  });

  it("picks LoCoMo turns per conversation (all held back outside the tuning split) and MADial records and spoken lines", () => {
    const picked = selectAnnotationTexts(data, 4).map((t) => `${refKey(t.ref)} ${t.lang}/${t.split} ${t.speaker}`);
    expect(picked).toEqual([
      "locomo:conv-x1:D1:3 en/heldback Priya",
      "locomo:conv-x1:D2:1 en/heldback Tom",
      "locomo:conv-x1:D2:5 en/heldback Tom",
      "locomo:conv-x1:D3:3 en/heldback Priya",
      "locomo:conv-x2:D1:2 en/heldback Omar",
      "locomo:conv-x2:D1:4 en/heldback Omar",
      "locomo:conv-x2:D2:2 en/heldback Omar",
      "locomo:conv-x2:D2:4 en/heldback Omar",
      "madial-memory:1 zh/tune Mia",
      "madial-memory:2 zh/heldback Mia",
      "madial-dialogue:1:1 zh/tune Mia",
      "madial-dialogue:1:2 zh/tune Assistant",
      "madial-dialogue:1:3 zh/heldback Mia",
    ]);
  });
});

describe("entity annotations: resolving against the data given", () => {
  const annotations = annotationsOf(data, names);

  it("resolves every text the data holds, with its text", () => {
    const { items, skipped } = resolveAnnotations(annotations, data);
    expect(skipped).toEqual([]);
    expect(items).toHaveLength(annotations.items.length);
    expect(items[0]).toMatchObject({ speaker: "Priya", text: locomo[0]?.sessions[0]?.turns[0]?.content });
  });

  it("skips and counts texts the data does not hold or holds with another speaker; leaves out sources not given", () => {
    const moved = {
      ...annotations,
      items: [
        { ...annotations.items[0], ref: { source: "locomo", conv: "conv-26", dia_id: "D1:1" } },
        { ...annotations.items[1], speaker: "Someone Else" },
        ...annotations.items.slice(2),
      ],
    } as EntityAnnotations;
    const { items, skipped } = resolveAnnotations(moved, data);
    expect(skipped).toEqual([
      { ref: "locomo:conv-26:D1:1", reason: "no such text" },
      { ref: "locomo:conv-x1:D1:2", reason: "another speaker" },
    ]);
    expect(items).toHaveLength(annotations.items.length - 2);
    expect(resolveAnnotations(annotations, { locomo }).items.every((i) => i.lang === "en")).toBe(true);
    expect(items.some((i) => i.lang === "zh")).toBe(true);
  });

  it("loads a LoCoMo file holding none of the dev conversations: every committed LoCoMo text is skipped, nothing fails", () => {
    const { items, skipped } = loadEntityAnnotations({ locomo: OTHER_LOCOMO });
    expect(items).toEqual([]);
    expect(skipped.length).toBe(committed.items.filter((i) => i.ref.source === "locomo").length);
    expect(skipped.every((s) => s.reason === "no such text")).toBe(true);
  });
});

describe("entity annotations: held to the data that holds their texts", () => {
  const annotations = annotationsOf(data, names);
  const problems = (a: EntityAnnotations) => annotationProblems(a, data, resolveAnnotations(a, data));

  it("finds nothing wrong with annotations of the rule's texts whose entities are written in them", () => {
    expect(annotations.items.some((i) => i.must.length > 0)).toBe(true);
    expect(problems(annotations)).toEqual([]);
  });

  it("reports a text the rule does not pick, a split the rule does not give, an entity not written, the speaker as an entity", () => {
    const items = annotations.items;
    const first = items[0];
    const mia = items.findIndex((i) => i.ref.source === "madial-memory");
    if (!first || mia < 0) throw new Error("fixture");
    expect(problems({ ...annotations, items: items.slice(1) })).toEqual([
      "locomo conv-x1: the annotated texts are not those the sampling rule picks",
    ]);
    expect(problems({ ...annotations, items: items.map((i, n) => (n === mia ? { ...i, split: "heldback" as const } : i)) })).toEqual([
      "madial: the annotated texts are not those the sampling rule picks",
    ]);
    expect(problems({ ...annotations, items: [{ ...first, must: ["Zanzibar"] }, ...items.slice(1)] })).toEqual([
      'locomo:conv-x1:D1:1: "Zanzibar" is not written in the text',
    ]);
    expect(problems({ ...annotations, items: [{ ...first, ok: ["priya"] }, ...items.slice(1)] })).toEqual([
      "locomo:conv-x1:D1:1: names its speaker as an entity",
    ]);
  });

  it("matches entity forms as written, title marks and English plurals aside", () => {
    expect(occursIn("《红楼梦》", "我在读红楼梦")).toBe(true);
    expect(occursIn("candles", "I make a candle")).toBe(true);
    expect(occursIn("puppy", "two puppies")).toBe(true);
    expect(occursIn("Marigold", "I named her Rose")).toBe(false);
  });
});
