/**
 * The context block (docs/design.md, "Context for prompts"): text ready to paste into a
 * system prompt, never longer than its token budget. Pure: the agent gathers the pieces (ranked
 * memories, episodes, profile, traces) and this assembles them.
 *
 * Budget: tokens are estimated with src/text/token-estimate.ts, an upper bound (1.5 per CJK
 * character, 0.34 per ASCII character, 1 per other code point), so the block fits a real tokenizer's
 * count too. Pieces are taken whole, in priority order, while the whole block (headers included)
 * fits; the first piece that does not fit ends the block, so a less relevant piece never displaces
 * a more relevant one and nothing is cut in the middle of a word or a character sequence.
 */
import { estimateTokens } from "../text/token-estimate";
import { CONTEXT_FRAME } from "../vocabulary/frames";
import type { Locale } from "../vocabulary/locales";
import type { Energy } from "./energy";
import { conflictMark, itemBody, memoryText, oneLine, traceSentence } from "./format";
import type { Profile } from "./profile-types";
import { PROFILE_HEADER, profilePieces } from "./profile-text";

export interface ContextMemory {
  node_id: number;
  /** Pinned: a standing instruction (docs/design.md, "Pins"), listed first, in a section of its own. */
  pinned: boolean;
  content: string;
  speaker: string | null;
  energy: Energy;
  /** Names of the entities the memory is about. */
  entities: string[];
  conflicts_with: number[];
}

export interface ContextEpisode {
  node_id: number;
  summary: string;
  participants: string[];
  from: number | null;
  to: number | null;
  /** When the submission was remembered: the date shown when its messages carried no times. */
  remembered_at: number;
}

export interface ContextPieces {
  memories: readonly ContextMemory[];
  episodes: readonly ContextEpisode[];
  profile: Profile | null;
  traces: readonly { phrase: string }[];
  /** The query asks about an earlier conversation: episodes come before memories. */
  pastFirst: boolean;
}

export interface ContextBlock {
  text: string;
  usedTokens: number;
  memories: ContextMemory[];
  episodes: ContextEpisode[];
  /** Profile pieces taken (profile-text.ts: the participants, then the lines). */
  profileLines: number;
  traces: { phrase: string }[];
}

type Section = "pinned" | "profile" | "episodes" | "memories" | "traces";
const ORDER: readonly Section[] = ["pinned", "profile", "episodes", "memories", "traces"];

const HEADERS: Readonly<Record<Locale, Record<Section, string>>> = {
  // Pinned, not "instructions": the frame says stored text is information (docs/design.md, "Pins").
  zh: { pinned: "## 置顶记忆", profile: PROFILE_HEADER.zh, episodes: "## 以往对话", memories: "## 相关记忆", traces: "## 曾经知道" },
  en: {
    pinned: "## Pinned memories",
    profile: PROFILE_HEADER.en,
    episodes: "## Previous conversations",
    memories: "## Relevant memories",
    traces: "## Once known",
  },
};

interface Piece {
  section: Section;
  line: string;
  take: (block: ContextBlock) => void;
}

/**
 * `framed`: the context block starts with CONTEXT_FRAME (src/vocabulary/frames.ts, counted in the
 * budget) once it holds anything; the profile's own text does without.
 */
export function assembleContext(pieces: ContextPieces, budgetTokens: number, locale: Locale, framed = true): ContextBlock {
  const ordered = prioritise(pieces, locale);
  const block: ContextBlock = { text: "", usedTokens: 0, memories: [], episodes: [], profileLines: 0, traces: [] };
  const lines = new Map<Section, string[]>();
  for (const piece of ordered) {
    const trial = new Map(lines);
    trial.set(piece.section, [...(lines.get(piece.section) ?? []), piece.line]);
    const body = render(trial, locale);
    const text = framed ? `${CONTEXT_FRAME[locale]}\n${body}` : body;
    const tokens = estimateTokens(text);
    if (tokens > budgetTokens) break;
    lines.set(piece.section, trial.get(piece.section) ?? []);
    block.text = text;
    block.usedTokens = tokens;
    piece.take(block);
  }
  return block;
}

function prioritise(pieces: ContextPieces, locale: Locale): Piece[] {
  const line = (m: ContextMemory): Piece => ({
    section: m.pinned ? "pinned" : "memories",
    line: memoryLine(m, locale),
    take: (b) => b.memories.push(m),
  });
  // Standing instructions first, whatever the query asks about (docs/design.md, "Pins").
  const pinned = pieces.memories.filter((m) => m.pinned).map(line);
  const memories = pieces.memories.filter((m) => !m.pinned).map(line);
  const episodes: Piece[] = pieces.episodes.map((e) => ({
    section: "episodes",
    line: episodeLine(e, locale),
    take: (b) => b.episodes.push(e),
  }));
  const profile: Piece[] = pieces.profile
    ? profilePieces(pieces.profile, locale).map((line) => ({ section: "profile", line, take: (b) => (b.profileLines += 1) }))
    : [];
  const traces: Piece[] = pieces.traces.map((t) => ({
    section: "traces",
    line: `- ${traceSentence(t.phrase, locale)}`,
    take: (b) => b.traces.push(t),
  }));
  return pieces.pastFirst
    ? [...pinned, ...episodes, ...memories, ...profile, ...traces]
    : [...pinned, ...memories, ...profile, ...episodes, ...traces];
}

function render(lines: ReadonlyMap<Section, readonly string[]>, locale: Locale): string {
  return ORDER.flatMap((section) => {
    const body = lines.get(section) ?? [];
    return body.length > 0 ? [[HEADERS[locale][section], ...body].join("\n")] : [];
  }).join("\n\n");
}

function memoryLine(m: ContextMemory, locale: Locale): string {
  const names = m.entities.map(oneLine);
  const entities = names.length === 0 ? "" : locale === "zh" ? `〔${names.join("、")}〕` : ` [${names.join(", ")}]`;
  return `${m.energy} ${itemBody(memoryText(m))}${entities}${m.conflicts_with.length > 0 ? conflictMark(locale) : ""}`;
}

function episodeLine(e: ContextEpisode, locale: Locale): string {
  const dates = e.from === null && e.to === null ? span(e.remembered_at, e.remembered_at) : span(e.from, e.to);
  const who = e.participants.map(oneLine).join(locale === "zh" ? "、" : ", ");
  const about = [who, dates].filter((x) => x !== "");
  const summary = itemBody(e.summary);
  if (about.length === 0) return `- ${summary}`;
  return locale === "zh" ? `- ${summary}（${about.join("；")}）` : `- ${summary} (${about.join("; ")})`;
}

/** A time span as ISO dates: one date when both ends fall on the same day. */
function span(from: number | null, to: number | null): string {
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  if (from === null && to === null) return "";
  const a = day(from ?? to ?? 0);
  const b = day(to ?? from ?? 0);
  return a === b ? a : `${a} – ${b}`;
}
