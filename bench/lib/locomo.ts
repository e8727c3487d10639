/**
 * LoCoMo-format parsing (any file shaped like snap-research/LoCoMo `data/locomo10.json`, not only the
 * dev split) and the conversion of a conversation into `remember` calls.
 *
 * Pure module: takes an already-parsed JSON value, no Node APIs, runs in workerd.
 */
import { z } from "zod";
import { emptyEvidenceReport, normalizeEvidence, normalizeEvidenceId, type EvidenceReport } from "./locomo-evidence";

export type LocomoCategory = 1 | 2 | 3 | 4 | 5;

/** Category names from the LoCoMo paper; 5 (adversarial, unanswerable) is reported apart. */
export const LOCOMO_CATEGORY_NAMES: Readonly<Record<LocomoCategory, string>> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};

export interface LocomoTurn {
  diaId: string;
  speaker: string;
  text: string;
  /** What is remembered: `text`, plus ` [shares a photo: <blip_caption>]` for image turns. */
  content: string;
}

export interface LocomoSession {
  /** n of `session_n`. */
  index: number;
  /** As written in the file, e.g. "2:47 pm on 9 April, 2021". */
  dateTime: string;
  /** `dateTime` in ms since the epoch, read as UTC (the data has no time zone). */
  timestamp: number;
  turns: LocomoTurn[];
}

export interface LocomoQuestion {
  question: string;
  /** Absent for most category-5 questions. Numbers in the file (years) become strings. */
  answer?: string;
  /** Category 5's trap answer, which the conversation does not support. */
  adversarialAnswer?: string;
  category: LocomoCategory;
  /** Normalised, existing turn ids; never empty. */
  evidence: string[];
}

/**
 * One of the annotators' `observation` facts: what a session told about one speaker ("Caroline
 * attended an LGBTQ support group recently…"), with the turns it comes from.
 */
export interface LocomoFact {
  /** n of `session_n_observation`. */
  session: number;
  speaker: string;
  text: string;
  evidence: string[];
}

export interface LocomoConversation {
  sampleId: string;
  /** [speaker_a, speaker_b] */
  speakers: [string, string];
  /** In session order. */
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
  /** The `observation` facts in session order; empty when the file has none. */
  facts: LocomoFact[];
}

export interface LocomoDataset {
  conversations: LocomoConversation[];
  evidenceReport: EvidenceReport;
}

export class LocomoFormatError extends Error {
  override name = "LocomoFormatError";
}

// Unknown keys (img_url, query, re-download, session_summary, ...) are ignored.
const turnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().nullish(),
});
const qaSchema = z.object({
  question: z.string(),
  answer: z.union([z.string(), z.number()]).nullish(),
  adversarial_answer: z.string().nullish(),
  evidence: z.array(z.string()).default([]),
  category: z.literal([1, 2, 3, 4, 5]),
});
// Sessions are dynamic keys (`session_n`, `session_n_date_time`): checked one by one below.
const conversationSchema = z.looseObject({ speaker_a: z.string(), speaker_b: z.string() });
// `observation`: {session_n_observation: {speaker: [[fact, "D1:3" | ["D1:3", …]], …]}}; optional.
const factSchema = z.tuple([z.string(), z.union([z.string(), z.array(z.string())])]);
const observationSchema = z.record(z.string(), z.record(z.string(), z.array(factSchema)));
const sampleSchema = z.object({
  sample_id: z.string(),
  conversation: conversationSchema,
  qa: z.array(qaSchema),
  observation: observationSchema.optional(),
});
const fileSchema = z.array(sampleSchema);

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * Parses LoCoMo's session date, e.g. "2:47 pm on 9 April, 2021", into ms since the epoch (UTC).
 * Month names may be full or abbreviated; returns null for anything else.
 */
export function parseLocomoDateTime(value: string): number | null {
  const m = /^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})\s*$/i.exec(value);
  if (!m) return null;
  const [, hh, mm, ampm, day, monthName, year] = m;
  if (!hh || !mm || !ampm || !day || !monthName || !year) return null;
  const month = MONTHS.indexOf(monthName.slice(0, 3).toLowerCase());
  const hour12 = Number(hh);
  const minute = Number(mm);
  const d = Number(day);
  if (month < 0 || hour12 < 1 || hour12 > 12 || minute > 59 || d < 1) return null;
  // 12 am is midnight, 12 pm is noon.
  const hour = (hour12 % 12) + (ampm.toLowerCase() === "p" ? 12 : 0);
  const ms = Date.UTC(Number(year), month, d, hour, minute);
  // Reject days past the month's end (Date.UTC would roll "31 June" over to 1 July).
  return new Date(ms).getUTCDate() === d ? ms : null;
}

function fail(where: string, error: z.ZodError): never {
  throw new LocomoFormatError(`${where}: ${z.prettifyError(error)}`);
}

/** The annotators' facts in session order (speakers in the file's order within a session). */
function parseFacts(sampleId: string, observation: z.infer<typeof observationSchema> | undefined): LocomoFact[] {
  const facts: LocomoFact[] = [];
  for (const [key, bySpeaker] of Object.entries(observation ?? {})) {
    const m = /^session_(\d+)_observation$/.exec(key);
    if (!m?.[1]) throw new LocomoFormatError(`${sampleId}.observation: unexpected key "${key}"`);
    const session = Number(m[1]);
    for (const [speaker, list] of Object.entries(bySpeaker)) {
      for (const [text, evidence] of list)
        facts.push({ session, speaker, text, evidence: typeof evidence === "string" ? [evidence] : evidence });
    }
  }
  return facts.sort((a, b) => a.session - b.session);
}

function parseSessions(sampleId: string, conv: Record<string, unknown>): LocomoSession[] {
  const sessions: LocomoSession[] = [];
  for (const [key, value] of Object.entries(conv)) {
    const m = /^session_(\d+)$/.exec(key);
    if (!m?.[1]) continue;
    const index = Number(m[1]);
    const turns = z.array(turnSchema).safeParse(value);
    if (!turns.success) fail(`${sampleId}.${key}`, turns.error);
    const date = z.string().safeParse(conv[`${key}_date_time`]);
    if (!date.success) fail(`${sampleId}.${key}_date_time`, date.error);
    const timestamp = parseLocomoDateTime(date.data);
    if (timestamp === null) {
      throw new LocomoFormatError(`${sampleId}.${key}_date_time: cannot read date "${date.data}"`);
    }
    sessions.push({
      index,
      dateTime: date.data,
      timestamp,
      turns: turns.data.map((t) => ({
        diaId: t.dia_id,
        speaker: t.speaker,
        text: t.text,
        // A caption marks an image turn even where img_url was dropped from the file.
        content: t.blip_caption ? `${t.text} [shares a photo: ${t.blip_caption}]` : t.text,
      })),
    });
  }
  return sessions.sort((a, b) => a.index - b.index);
}

/** Parses a LoCoMo-format JSON value; throws `LocomoFormatError` saying where the shape is wrong. */
export function parseLocomo(value: unknown): LocomoDataset {
  const file = fileSchema.safeParse(value);
  if (!file.success) fail("LoCoMo file", file.error);
  const report = emptyEvidenceReport();
  const conversations = file.data.map((sample): LocomoConversation => {
    const sessions = parseSessions(sample.sample_id, sample.conversation);
    const turnIds = new Map<string, string>();
    for (const s of sessions) for (const t of s.turns) turnIds.set(normalizeEvidenceId(t.diaId) ?? t.diaId, t.diaId);
    const questions: LocomoQuestion[] = [];
    for (const qa of sample.qa) {
      const outcome = normalizeEvidence(qa.evidence, turnIds);
      report.questions += 1;
      report.evidenceEntries += qa.evidence.length;
      report.splitEntries += outcome.split;
      report.reformattedIds += outcome.reformatted;
      report.duplicateIds += outcome.duplicates;
      report.droppedIds += outcome.dropped.length;
      const changed =
        outcome.ids.length === 0 || outcome.ids.length !== qa.evidence.length || outcome.ids.some((id, i) => id !== qa.evidence[i]);
      if (changed) {
        report.changes.push({
          sampleId: sample.sample_id,
          question: qa.question,
          raw: qa.evidence,
          evidence: outcome.ids,
          dropped: outcome.dropped,
        });
      }
      if (outcome.ids.length === 0) {
        report.droppedQuestions += 1;
        continue;
      }
      report.keptQuestions += 1;
      const question: LocomoQuestion = { question: qa.question, category: qa.category, evidence: outcome.ids };
      if (qa.answer !== null && qa.answer !== undefined) question.answer = String(qa.answer);
      if (qa.adversarial_answer !== null && qa.adversarial_answer !== undefined) {
        question.adversarialAnswer = qa.adversarial_answer;
      }
      questions.push(question);
    }
    return {
      sampleId: sample.sample_id,
      speakers: [sample.conversation.speaker_a, sample.conversation.speaker_b],
      sessions,
      questions,
      facts: parseFacts(sample.sample_id, sample.observation),
    };
  });
  return { conversations, evidenceReport: report };
}

/** Every turn of a conversation by its id (evidence lookups for text scoring). */
export function turnsById(conv: LocomoConversation): Map<string, LocomoTurn> {
  return new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t] as const)));
}

export interface RememberMessage {
  /** "user" for speaker_a, "assistant" for speaker_b (see `toRememberCalls`). */
  role: "user" | "assistant";
  name: string;
  content: string;
  /** The session's date, ms since the epoch. */
  timestamp: number;
  /** The turn's dia_id, so recall can return it among an item's source ids. */
  id: string;
}

export interface RememberCall {
  sessionIndex: number;
  messages: RememberMessage[];
}

/**
 * One `remember` call per session, in session order. LoCoMo is a conversation between two people, but
 * the API's messages have chat roles: speaker_a is "user" and speaker_b "assistant" (any other speaker
 * too), an arbitrary but fixed assignment; `name` carries who actually spoke. Empty sessions make no call.
 */
export function toRememberCalls(conv: LocomoConversation): RememberCall[] {
  const [speakerA] = conv.speakers;
  return conv.sessions
    .filter((s) => s.turns.length > 0)
    .map((s) => ({
      sessionIndex: s.index,
      messages: s.turns.map((t) => ({
        role: t.speaker === speakerA ? "user" : "assistant",
        name: t.speaker,
        content: t.content,
        timestamp: s.timestamp,
        id: t.diaId,
      })),
    }));
}
