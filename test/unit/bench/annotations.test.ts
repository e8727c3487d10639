// The entity benchmark's hand annotations (bench/quality/annotations/), run inside workerd: the file
// parses, every reference resolves to a text of the dev data beside the clone (../shared/bench, which CI
// provides: no skip), and the annotated texts are exactly those the written sampling rule picks.
import { describe, expect, it } from "vitest";
import {
  mustForms,
  parseEntityAnnotations,
  parseMadialDialogues,
  refKey,
  resolveAnnotations,
  selectAnnotationTexts,
  systematicSample,
  type AnnotationData,
} from "../../../bench/quality/annotations";
import { parseLocomo } from "../../../bench/lib/locomo";
import { parseMadial } from "../../../bench/lib/madial";
import annotationsText from "../../../bench/quality/annotations/entities.json?raw";
import locomoText from "../../../../shared/bench/locomo/locomo-dev.json?raw";
import madialMemoryText from "../../../../shared/bench/madial/madial-zh-dev-memory.json?raw";
import madialDialogueText from "../../../../shared/bench/madial/madial-zh-dev-dialogue.json?raw";

function devData(): AnnotationData {
  const madial = parseMadial(JSON.parse(madialMemoryText), JSON.parse(madialDialogueText));
  expect(madial.userNames).toHaveLength(1);
  return {
    locomo: parseLocomo(JSON.parse(locomoText)).conversations,
    madial: {
      memories: madial.memories,
      dialogues: parseMadialDialogues(JSON.parse(madialDialogueText)),
      userName: madial.userNames[0] ?? "",
    },
  };
}

const annotations = parseEntityAnnotations(JSON.parse(annotationsText));
const data = devData();
// Resolved inside the tests, so that a bad reference fails a test rather than the whole file.
const resolved = () => resolveAnnotations(annotations, data);

/** Whether an entity form is written in the text (case-insensitive; title marks and English plural forms aside). */
function occursIn(form: string, text: string): boolean {
  const t = text.toLowerCase();
  const f = form.replace(/[《》]/g, "").toLowerCase();
  const variants = [f, f.replace(/s$/, ""), f.replace(/y$/, "ies"), `${f}s`];
  return variants.some((v) => v !== "" && t.includes(v));
}

describe("entity annotations: the file", () => {
  it("resolves every reference to a non-empty text of the dev data, with the same speaker", () => {
    const items = resolved();
    expect(items).toHaveLength(annotations.items.length);
    for (const item of items) expect(item.text.trim(), refKey(item.ref)).not.toBe("");
  });

  it("has unique references", () => {
    const keys = annotations.items.map((i) => refKey(i.ref));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("has at least 150 texts, both languages in both splits, and texts without any entity", () => {
    expect(annotations.items.length).toBeGreaterThanOrEqual(150);
    const count = (lang: string, split: string) => annotations.items.filter((i) => i.lang === lang && i.split === split).length;
    for (const lang of ["en", "zh"])
      for (const split of ["tune", "heldback"]) expect(count(lang, split), `${lang}/${split}`).toBeGreaterThan(0);
    expect(annotations.items.filter((i) => i.must.length === 0).length).toBeGreaterThan(0);
  });

  it("annotates exactly the texts the sampling rule picks, with the rule's language, split and speaker", () => {
    const picked = selectAnnotationTexts(data).map((t) => ({ key: refKey(t.ref), lang: t.lang, split: t.split, speaker: t.speaker }));
    const annotated = annotations.items.map((i) => ({ key: refKey(i.ref), lang: i.lang, split: i.split, speaker: i.speaker }));
    expect(annotated).toEqual(picked);
  });

  it("has no empty or padded string, no duplicate within an item, nothing both required and acceptable", () => {
    for (const item of annotations.items) {
      const forms = [...mustForms(item).flat(), ...item.ok];
      for (const f of forms) expect(f.trim() === f && f.length > 0, `${refKey(item.ref)}: "${f}"`).toBe(true);
      const lower = forms.map((f) => f.toLowerCase());
      expect(new Set(lower).size, `${refKey(item.ref)} repeats a form`).toBe(lower.length);
    }
  });

  it("names every required entity as the text writes it (one form at least) and never the speaker", () => {
    const items = resolved();
    const unwritten = items.flatMap((item) =>
      mustForms(item)
        .filter((forms) => !forms.some((f) => occursIn(f, item.text)))
        .map((forms) => `${refKey(item.ref)}: ${forms.join(" / ")}`),
    );
    expect(unwritten).toEqual([]);
    const speakers = items.filter((item) =>
      [...mustForms(item).flat(), ...item.ok].some((f) => f.toLowerCase() === item.speaker.toLowerCase()),
    );
    expect(speakers.map((i) => refKey(i.ref))).toEqual([]);
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

  it("refuses a reference the data does not hold, and a speaker it contradicts", () => {
    const missing = file([{ ...item, ref: { source: "madial-memory", id: "no-such-id" } }]);
    expect(() => resolveAnnotations(parseEntityAnnotations(missing), data)).toThrow(/no such text/);
    const first = annotations.items[0];
    expect(first).toBeDefined();
    if (!first) return;
    expect(() => resolveAnnotations(parseEntityAnnotations(file([{ ...first, speaker: "Someone Else" }])), data)).toThrow(/speaker/);
    // Items of a source the bench was not given are left out, not failed.
    expect(resolveAnnotations(annotations, { locomo: data.locomo }).every((i) => i.lang === "en")).toBe(true);
  });
});
