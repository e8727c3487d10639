/**
 * The entity benchmark's hand annotations (bench/quality/annotations/README.md): which texts of the
 * dev data were annotated, by a fixed sampling rule, and the entities a careful reader names in each.
 * The file stores references, never texts (LoCoMo may not be copied into the project): the texts are
 * resolved here from the data the quality bench is given.
 *
 * Pure module: takes already-parsed data, no Node APIs, runs in workerd (annotations-load.ts reads
 * the files by path).
 */
import { z } from "zod";
import type { LocomoConversation } from "../lib/locomo";
import { isUserLine, parseDialogueLine, type DialogueLine, type MadialMemory } from "../lib/madial";
import { TUNING_CONVERSATIONS } from "./split";

/** Texts sampled from each source: every LoCoMo conversation, the MADial records, the MADial lines. */
export const TEXTS_PER_SOURCE = 40;

const nonEmpty = z
  .string()
  .min(1)
  .refine((s) => s.trim() === s, "no surrounding whitespace");

const refSchema = z.discriminatedUnion("source", [
  z.strictObject({ source: z.literal("locomo"), conv: nonEmpty, dia_id: nonEmpty }),
  z.strictObject({ source: z.literal("madial-memory"), id: nonEmpty }),
  z.strictObject({ source: z.literal("madial-dialogue"), id: nonEmpty, line: z.number().int().nonnegative() }),
]);
export type TextRef = z.infer<typeof refSchema>;

/** One entity a good extractor must find: one name, or several equivalent forms (any one counts). */
const mustSchema = z.union([nonEmpty, z.array(nonEmpty).min(2)]);

const itemSchema = z.strictObject({
  ref: refSchema,
  lang: z.enum(["en", "zh"]),
  split: z.enum(["tune", "heldback"]),
  /** Who said it: the speaker's own name is neither a hit nor junk. */
  speaker: nonEmpty,
  must: z.array(mustSchema),
  /** Acceptable extras and alias forms; anything else extracted is junk. */
  ok: z.array(nonEmpty),
  note: nonEmpty.optional(),
});
export type AnnotatedItem = z.infer<typeof itemSchema>;

export const entityAnnotationsSchema = z.strictObject({
  version: z.literal(1),
  guidelines: nonEmpty,
  items: z.array(itemSchema),
});
export type EntityAnnotations = z.infer<typeof entityAnnotationsSchema>;

export type Lang = AnnotatedItem["lang"];
export type Split = AnnotatedItem["split"];

export class AnnotationError extends Error {
  override name = "AnnotationError";
}

export function parseEntityAnnotations(value: unknown): EntityAnnotations {
  const parsed = entityAnnotationsSchema.safeParse(value);
  if (!parsed.success) throw new AnnotationError(`entity annotations: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A stable key per text: "locomo:conv-26:D1:3", "madial-memory:7", "madial-dialogue:12:5". */
export function refKey(ref: TextRef): string {
  switch (ref.source) {
    case "locomo":
      return `locomo:${ref.conv}:${ref.dia_id}`;
    case "madial-memory":
      return `madial-memory:${ref.id}`;
    case "madial-dialogue":
      return `madial-dialogue:${ref.id}:${ref.line}`;
  }
}

/** Each must entity as its list of forms. */
export const mustForms = (item: AnnotatedItem): string[][] => item.must.map((m) => (typeof m === "string" ? [m] : m));

/** A MADial dialogue with its lines parsed; `line` indexes `lines` as `test-turn` does (0 is "<BOD>"). */
export interface MadialDialogue {
  id: string;
  lines: (DialogueLine | null)[];
}

const dialogueFileSchema = z.array(
  z.object({ id: z.union([z.string(), z.number()]).transform((v) => String(v)), dialogue: z.array(z.string()) }),
);

export function parseMadialDialogues(value: unknown): MadialDialogue[] {
  const parsed = dialogueFileSchema.safeParse(value);
  if (!parsed.success) throw new AnnotationError(`MADial dialogue file: ${z.prettifyError(parsed.error)}`);
  return parsed.data.map((d) => ({ id: d.id, lines: d.dialogue.map(parseDialogueLine) }));
}

/** The data the texts come from; a source left out is not resolved (its items are skipped). */
export interface AnnotationData {
  locomo?: readonly LocomoConversation[];
  madial?: { memories: readonly MadialMemory[]; dialogues: readonly MadialDialogue[]; userName: string };
}

export interface SourceText {
  ref: TextRef;
  lang: Lang;
  split: Split;
  speaker: string;
  /** Exactly what the benchmark remembers for this ref. */
  text: string;
}

/**
 * Systematic sample: stride k = ⌊length / n⌋, the middle element of each of the first n strides
 * (positions j·k + ⌊k/2⌋). Every part of the source is represented and nothing is picked by hand.
 */
export function systematicSample<T>(xs: readonly T[], n: number): T[] {
  const k = Math.floor(xs.length / n);
  if (k < 1) return [...xs];
  return Array.from({ length: n }, (_x, j) => xs[j * k + Math.floor(k / 2)]).filter((x): x is T => x !== undefined);
}

const byNumericId = <T extends { id: string }>(xs: readonly T[]): T[] =>
  [...xs].sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));

/** The first half (rounded up) of a source's sample, in id order, is for tuning; the rest is held back. */
const halves = <T>(xs: readonly T[]): { x: T; split: Split }[] =>
  xs.map((x, i) => ({ x, split: i < Math.ceil(xs.length / 2) ? "tune" : "heldback" }));

function locomoTexts(conversations: readonly LocomoConversation[], n: number): SourceText[] {
  return conversations.flatMap((conv) => {
    const turns = conv.sessions.flatMap((s) => s.turns);
    const split: Split = TUNING_CONVERSATIONS.includes(conv.sampleId) ? "tune" : "heldback";
    return systematicSample(turns, n).map((t): SourceText => ({
      ref: { source: "locomo", conv: conv.sampleId, dia_id: t.diaId },
      lang: "en",
      split,
      speaker: t.speaker,
      text: t.content,
    }));
  });
}

/** Every spoken line of the dialogues (markers left out), dialogues in id order, lines in order. */
function dialogueUtterances(dialogues: readonly MadialDialogue[]): { id: string; line: number; speaker: string; text: string }[] {
  return byNumericId(dialogues).flatMap((d) =>
    d.lines.flatMap((l, line) => {
      if (!l || l.text === "") return [];
      const spoken = isUserLine(l) || l.tag.toLowerCase() === "assistant";
      return spoken ? [{ id: d.id, line, speaker: l.tag, text: l.text }] : [];
    }),
  );
}

/**
 * The annotated texts by the rule: `n` per LoCoMo conversation (turns in session order), `n` MADial
 * memory records (id order) and `n` MADial dialogue lines (dialogues in id order, markers left out).
 */
export function selectAnnotationTexts(data: AnnotationData, n: number = TEXTS_PER_SOURCE): SourceText[] {
  const out = data.locomo ? locomoTexts(data.locomo, n) : [];
  if (data.madial) {
    const { userName } = data.madial;
    for (const { x, split } of halves(systematicSample(byNumericId(data.madial.memories), n))) {
      out.push({ ref: { source: "madial-memory", id: x.id }, lang: "zh", split, speaker: userName, text: x.content });
    }
    for (const { x, split } of halves(systematicSample(dialogueUtterances(data.madial.dialogues), n))) {
      out.push({ ref: { source: "madial-dialogue", id: x.id, line: x.line }, lang: "zh", split, speaker: x.speaker, text: x.text });
    }
  }
  return out;
}

/** Looks a ref up in the data: its text and speaker, or null when the source is given but has no such text. */
export function lookUpRef(ref: TextRef, data: AnnotationData): { speaker: string; text: string } | null | undefined {
  switch (ref.source) {
    case "locomo": {
      if (!data.locomo) return undefined;
      const conv = data.locomo.find((c) => c.sampleId === ref.conv);
      const turn = conv?.sessions.flatMap((s) => s.turns).find((t) => t.diaId === ref.dia_id);
      return turn ? { speaker: turn.speaker, text: turn.content } : null;
    }
    case "madial-memory": {
      if (!data.madial) return undefined;
      const memory = data.madial.memories.find((m) => m.id === ref.id);
      return memory ? { speaker: data.madial.userName, text: memory.content } : null;
    }
    case "madial-dialogue": {
      if (!data.madial) return undefined;
      const line = data.madial.dialogues.find((d) => d.id === ref.id)?.lines[ref.line];
      return line && line.text !== "" ? { speaker: line.tag, text: line.text } : null;
    }
  }
}

export type ResolvedItem = AnnotatedItem & { text: string };

/** An annotated text the data given does not hold as annotated (another file, another split). */
export interface SkippedItem {
  ref: string;
  reason: "no such text" | "another speaker";
}

export interface Resolution {
  items: ResolvedItem[];
  skipped: SkippedItem[];
}

/**
 * The annotated items with their texts, for the sources the data holds (items of a source not given
 * are left out, uncounted). An item whose text the data does not hold, or holds with another
 * speaker, is skipped and counted: any LoCoMo or MADial file may be given, and the annotations
 * were made on the dev split (annotations-check.ts holds them to it where its texts are present).
 */
export function resolveAnnotations(annotations: EntityAnnotations, data: AnnotationData): Resolution {
  const items: ResolvedItem[] = [];
  const skipped: SkippedItem[] = [];
  for (const item of annotations.items) {
    const found = lookUpRef(item.ref, data);
    if (found === undefined) continue;
    if (found === null) skipped.push({ ref: refKey(item.ref), reason: "no such text" });
    else if (found.speaker !== item.speaker) skipped.push({ ref: refKey(item.ref), reason: "another speaker" });
    else items.push({ ...item, text: found.text });
  }
  return { items, skipped };
}
