/**
 * MADial-Bench (Chinese memory-augmented dialogue) parsing: memory records and test items.
 *
 * Memory file: `[{time, scene, emotion, event, user-id, id}]`. Dialogue file:
 * `[{dialogue: ["<BOD>\n", "<Lina>:\"...\"\n", "<Assistant>:\"...\"\n", ..., "<EOD>\n"], test-turn: [i, ...],
 * relevant-id: [gold, ...], user-id, id}]`. `test-turn` indexes `dialogue` directly (index 0 is "<BOD>")
 * and points at the assistant line that should bring up a memory; some dialogues list several test
 * turns, of which the first is used (the README asks for one query per dialogue: the two user lines
 * before test-turn). Lines may start with a space, may lack the closing quote or the newline.
 *
 * Pure module: takes already-parsed JSON values, no Node APIs, runs in workerd.
 */
import { z } from "zod";

export interface MadialMemory {
  /** The record's id, as a string (the message id sent to `remember`). */
  id: string;
  time: string;
  event: string;
  /** What is remembered and what text scoring compares against: `time + " " + event`. */
  content: string;
  /** `time` as ms since the epoch (UTC), when it is a date. */
  timestamp?: number;
}

export interface MadialItem {
  /** The dialogue's id, as a string. */
  id: string;
  /** The user lines before the first test turn (two, or one when only one precedes it), joined by "\n". */
  query: string;
  queryLines: string[];
  /** The index in `dialogue` of the test turn used. */
  testTurn: number;
  /** `relevant-id[0]`: the memory the assistant should bring up. */
  goldId: string;
  /** All of `relevant-id` that exist among the memory records, gold first. */
  relevantIds: string[];
}

export interface MadialReport {
  memories: number;
  dialogues: number;
  items: number;
  /** Dialogues without a usable test item, and why. */
  dropped: { id: string; reason: string }[];
  /** Items whose query has only one user line (no second one before the test turn). */
  singleLineQueries: number;
  /** Dialogues listing more than one test turn (only the first is used). */
  multipleTestTurns: number;
  /** `relevant-id` entries (besides a missing gold, which drops the item) naming no memory record. */
  missingRelevantIds: number;
}

export interface MadialDataset {
  memories: MadialMemory[];
  items: MadialItem[];
  /** The user's speaker tags seen in the dialogues (e.g. ["Lina"]), removed as names in text scoring. */
  userNames: string[];
  report: MadialReport;
}

export class MadialFormatError extends Error {
  override name = "MadialFormatError";
}

const idSchema = z.union([z.string(), z.number()]).transform((v) => String(v));
const memorySchema = z.array(z.object({ id: idSchema, time: z.string(), event: z.string() }));
const dialogueSchema = z.array(
  z.object({
    id: idSchema,
    dialogue: z.array(z.string()),
    "test-turn": z.union([z.number().int(), z.array(z.number().int())]),
    "relevant-id": z.union([idSchema, z.array(idSchema)]),
  }),
);

const MARKERS = new Set(["bod", "eod"]);
const ASSISTANT = "assistant";

export interface DialogueLine {
  /** The tag without brackets: "Lina", "Assistant", "BOD", "EOD". */
  tag: string;
  /** The utterance without tag, colon, surrounding quotes or whitespace ("" for markers). */
  text: string;
}

/** Splits a dialogue line `<Tag>:"text"`; null when the line has no `<Tag>`. */
export function parseDialogueLine(line: string): DialogueLine | null {
  const m = /^\s*<([^>]+)>\s*[:：]?\s*([\s\S]*)$/.exec(line);
  if (!m?.[1] || m[2] === undefined) return null;
  const text = m[2]
    .trim()
    .replace(/^["“”「『]/, "")
    .replace(/["“”」』]$/, "")
    .trim();
  return { tag: m[1].trim(), text };
}

/** A user line: tagged, and neither a marker nor the assistant. */
export function isUserLine(line: DialogueLine): boolean {
  const tag = line.tag.toLowerCase();
  return !MARKERS.has(tag) && tag !== ASSISTANT;
}

function fail(where: string, error: z.ZodError): never {
  throw new MadialFormatError(`${where}: ${z.prettifyError(error)}`);
}

function dateMs(time: string): number | undefined {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(time.trim());
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

export function parseMadialMemories(value: unknown): MadialMemory[] {
  const parsed = memorySchema.safeParse(value);
  if (!parsed.success) fail("MADial memory file", parsed.error);
  return parsed.data.map((r) => {
    const memory: MadialMemory = { id: r.id, time: r.time, event: r.event, content: `${r.time} ${r.event}` };
    const ts = dateMs(r.time);
    if (ts !== undefined) memory.timestamp = ts;
    return memory;
  });
}

/** Parses both files; the memory records are needed to check the gold ids. */
export function parseMadial(memoryValue: unknown, dialogueValue: unknown): MadialDataset {
  const memories = parseMadialMemories(memoryValue);
  const known = new Set(memories.map((m) => m.id));
  const parsed = dialogueSchema.safeParse(dialogueValue);
  if (!parsed.success) fail("MADial dialogue file", parsed.error);
  const report: MadialReport = {
    memories: memories.length,
    dialogues: parsed.data.length,
    items: 0,
    dropped: [],
    singleLineQueries: 0,
    multipleTestTurns: 0,
    missingRelevantIds: 0,
  };
  const userNames = new Set<string>();
  const items: MadialItem[] = [];
  for (const d of parsed.data) {
    const lines = d.dialogue.map(parseDialogueLine);
    for (const l of lines) if (l && isUserLine(l)) userNames.add(l.tag);
    const turns = Array.isArray(d["test-turn"]) ? d["test-turn"] : [d["test-turn"]];
    const relevant = Array.isArray(d["relevant-id"]) ? d["relevant-id"] : [d["relevant-id"]];
    if (turns.length > 1) report.multipleTestTurns += 1;
    const drop = (reason: string): void => void report.dropped.push({ id: d.id, reason });
    const testTurn = turns[0];
    const goldId = relevant[0];
    if (testTurn === undefined || testTurn < 0 || testTurn >= d.dialogue.length) {
      drop(`test-turn ${String(testTurn)} outside the dialogue`);
      continue;
    }
    if (goldId === undefined || !known.has(goldId)) {
      drop(`gold id ${String(goldId)} is not a memory record`);
      continue;
    }
    const before = lines.slice(0, testTurn).filter((l): l is DialogueLine => l !== null && isUserLine(l));
    const queryLines = before.slice(-2).map((l) => l.text);
    if (queryLines.length === 0) {
      drop("no user line before the test turn");
      continue;
    }
    if (queryLines.length === 1) report.singleLineQueries += 1;
    const relevantIds = relevant.filter((id) => known.has(id));
    report.missingRelevantIds += relevant.length - relevantIds.length;
    items.push({ id: d.id, query: queryLines.join("\n"), queryLines, testTurn, goldId, relevantIds });
  }
  report.items = items.length;
  return { memories, items, userNames: [...userNames], report };
}

export interface MadialRememberMessage {
  role: "user";
  name?: string;
  content: string;
  timestamp?: number;
  id: string;
}

/**
 * Every memory record as one `remember` message (`content` = time + event, `id` = record id). The
 * records are facts about the user, so the role is "user" and `name` the user's tag when known.
 */
export function toMadialMessages(memories: readonly MadialMemory[], userName?: string): MadialRememberMessage[] {
  return memories.map((m) => {
    const msg: MadialRememberMessage = { role: "user", content: m.content, id: m.id };
    if (userName !== undefined) msg.name = userName;
    if (m.timestamp !== undefined) msg.timestamp = m.timestamp;
    return msg;
  });
}
