/**
 * The entity annotations held to the data they were made on, wherever that data is given: the
 * benchmark reads the data anyway, so these checks run there, not in the unit tests (a user's clone
 * has no ../shared). For every LoCoMo conversation whose annotated texts are all present, and for
 * MADial when all of its annotated texts are, the annotated texts must be exactly those the
 * written sampling rule picks (with its language, split and speaker); for every present text,
 * each required entity must be written in it, and no entity may be its speaker.
 *
 * Pure module.
 */
import { mustForms, refKey, selectAnnotationTexts, type AnnotationData, type EntityAnnotations, type Resolution } from "./annotations";

/** Whether an entity form is written in the text (case-insensitive; title marks and English plural forms aside). */
export function occursIn(form: string, text: string): boolean {
  const t = text.toLowerCase();
  const f = form.replace(/[《》]/g, "").toLowerCase();
  const variants = [f, f.replace(/s$/, ""), f.replace(/y$/, "ies"), `${f}s`];
  return variants.some((v) => v !== "" && t.includes(v));
}

const summary = (t: { key: string; lang: string; split: string; speaker: string }) => `${t.key} ${t.lang}/${t.split} ${t.speaker}`;

/** What is wrong with the annotations on `data` (empty when nothing). */
export function annotationProblems(annotations: EntityAnnotations, data: AnnotationData, resolution: Resolution): string[] {
  const problems: string[] = [];
  const skipped = new Set(resolution.skipped.map((s) => s.ref));
  const annotated = annotations.items.map((i) => ({ key: refKey(i.ref), lang: i.lang, split: i.split, speaker: i.speaker, ref: i.ref }));
  const compare = (what: string, picked: readonly ReturnType<typeof summary>[], own: readonly ReturnType<typeof summary>[]) => {
    if (picked.join("\n") !== own.join("\n")) problems.push(`${what}: the annotated texts are not those the sampling rule picks`);
  };
  for (const conv of data.locomo ?? []) {
    const own = annotated.filter((a) => a.ref.source === "locomo" && a.ref.conv === conv.sampleId);
    if (own.length === 0 || own.some((a) => skipped.has(a.key))) continue;
    const picked = selectAnnotationTexts({ locomo: [conv] }).map((t) => summary({ ...t, key: refKey(t.ref) }));
    compare(`locomo ${conv.sampleId}`, picked, own.map(summary));
  }
  if (data.madial) {
    const own = annotated.filter((a) => a.ref.source !== "locomo");
    if (own.length > 0 && !own.some((a) => skipped.has(a.key))) {
      const picked = selectAnnotationTexts({ madial: data.madial }).map((t) => summary({ ...t, key: refKey(t.ref) }));
      compare("madial", picked, own.map(summary));
    }
  }
  for (const item of resolution.items) {
    for (const forms of mustForms(item)) {
      if (!forms.some((f) => occursIn(f, item.text)))
        problems.push(`${refKey(item.ref)}: "${forms.join(" / ")}" is not written in the text`);
    }
    if ([...mustForms(item).flat(), ...item.ok].some((f) => f.toLowerCase() === item.speaker.toLowerCase())) {
      problems.push(`${refKey(item.ref)}: names its speaker as an entity`);
    }
  }
  return problems;
}
