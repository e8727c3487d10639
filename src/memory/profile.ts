/**
 * The profile (docs/design.md, "The profile"): what the network says about the people in it, derived
 * at read time, never a second store, so it forgets as the network does. Its participants (by the
 * messages they wrote, counted over the memories still held), for each of them the statements that
 * together say the most about them within a length (profile-selection.ts), each backed by the memory
 * it comes from, the entities those memories are about, and the focus. Pure.
 */
import type { MemoryNode } from "../vocabulary/records";
import type { Locale } from "../vocabulary/locales";
import { nameTerms, spokenParts, type Statement } from "./profile-statements";
import { chooseStatements } from "./profile-selection";
import { PROFILE_LINE_OVERHEAD, profileFrameLength, profileText } from "./profile-text";
import type { Profile, ProfileEntity, ProfileLine } from "./profile-types";

export type { Profile, ProfileEntity, ProfileLine };

export interface ProfileInput {
  /** Every memory (segments, explicit memories) still held. */
  memories: readonly MemoryNode[];
  /** A memory's statements (profile-statements.ts), as the reader keeps them. */
  statementsOf: (memory: MemoryNode) => readonly Statement[];
  focus: readonly { nodeId: number; name: string }[];
  /** Only this participant; null: every participant. */
  participant: string | null;
  /** Participants whose lines come first (those of the conversation at hand). */
  first: readonly string[];
  /** Code points the profile's text may take. */
  maxChars: number;
  locale: Locale;
  limits: { participants: number };
}

/** A participant as the request names them: exactly, else ignoring case and width. */
export function matchParticipant(names: readonly string[], wanted: string): string | null {
  const fold = (s: string) => s.normalize("NFKC").trim().toLowerCase();
  return names.find((n) => n === wanted) ?? names.find((n) => fold(n) === fold(wanted)) ?? null;
}

export function countParticipants(memories: readonly MemoryNode[]): { name: string; messages: number }[] {
  const counts = new Map<string, number>();
  const add = (name: string, n: number) => counts.set(name, (counts.get(name) ?? 0) + n);
  for (const m of memories) {
    if (m.kind !== "segment") continue;
    if (m.speaker) add(m.speaker, m.sourceMessageIds.length);
    else for (const part of spokenParts(m)) add(part.speaker, 1);
  }
  return [...counts]
    .map(([name, messages]) => ({ name, messages }))
    .sort((a, b) => b.messages - a.messages || a.name.localeCompare(b.name));
}

/** The profile without its entities (profileEntities adds them from the lines' links). */
export function buildProfile(input: ProfileInput): Profile {
  // Oldest first: lines are given in conversation order (sorted only when the caller did not).
  const held = input.memories.filter((m) => m.supersededBy === null);
  if (held.some((m, i) => i > 0 && (held[i - 1]?.id ?? 0) > m.id)) held.sort((a, b) => a.id - b.id);
  const all = countParticipants(held);
  const participants = all.slice(0, input.limits.participants);
  const names = all.map((p) => p.name);
  const participant = input.participant === null ? null : (matchParticipant(names, input.participant) ?? input.participant);
  const about = participant === null ? participants.map((p) => p.name) : names.includes(participant) ? [participant] : [];
  const named = input.first.flatMap((f) => matchParticipant(about, f) ?? []);
  const order = [...new Set([...named, ...about])];
  const wanted = new Set(order);
  const statements: Statement[] = [];
  const sessions: number[] = [];
  const sessionIds = new Map<string, number>();
  for (const m of held) {
    const key = m.sourceTaskId ?? `m${m.id}`;
    let session = sessionIds.get(key);
    for (const st of input.statementsOf(m)) {
      if (!wanted.has(st.speaker)) continue;
      if (session === undefined) sessionIds.set(key, (session = sessionIds.size));
      statements.push(st);
      sessions.push(session);
    }
  }
  const frame = profileFrameLength({ participant, participants, speakers: order }, input.locale);
  const chosen = chooseStatements(statements, sessions, {
    budget: Math.max(0, input.maxChars - frame),
    lineOverhead: PROFILE_LINE_OVERHEAD,
    ignore: nameTerms(names),
  });
  const rank = new Map(order.map((name, i) => [name, i]));
  const lines = chosen
    .map((i) => statements[i])
    .filter((s): s is Statement => s !== undefined)
    .sort((a, b) => (rank.get(a.speaker) ?? 0) - (rank.get(b.speaker) ?? 0))
    .map((s) => ({ participant: s.speaker, text: s.text, memory_ids: [s.memoryId] }));
  const profile: Profile = {
    participant,
    participants,
    lines,
    entities: [],
    focus: input.focus.map((f) => ({ node_id: f.nodeId, name: f.name })),
  };
  // The frame counted every speaker's heading; the text is never longer, but the budget is a promise.
  while (profile.lines.length > 0 && [...profileText(profile, input.locale)].length > input.maxChars) profile.lines.pop();
  return profile;
}

/** At most this many entities: those the most lines are about. */
const MAX_ENTITIES = 12;

/**
 * The entities that can be among the profile's (profileEntities): those named by the most lines,
 * ties with the last one included, at most twice MAX_ENTITIES (further ties by id), so importance
 * is read for these only.
 */
export function entityCandidates(lines: readonly ProfileLine[], aboutOf: ReadonlyMap<number, readonly number[]>): number[] {
  const count = new Map<number, number>();
  for (const line of lines)
    for (const memory of line.memory_ids) for (const target of aboutOf.get(memory) ?? []) count.set(target, (count.get(target) ?? 0) + 1);
  const ranked = [...count].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const last = ranked[MAX_ENTITIES - 1]?.[1] ?? 0;
  return ranked.filter(([, n], i) => i < MAX_ENTITIES || (n === last && i < 2 * MAX_ENTITIES)).map(([id]) => id);
}

/**
 * The entities the profile's memories are about (关于), those named by the most lines first, then
 * by importance.
 */
export function profileEntities(
  lines: readonly ProfileLine[],
  aboutOf: ReadonlyMap<number, readonly number[]>,
  entities: ReadonlyMap<number, { node: MemoryNode; importance: number }>,
): ProfileEntity[] {
  const memoriesOf = new Map<number, Set<number>>();
  for (const line of lines)
    for (const memory of line.memory_ids)
      for (const target of aboutOf.get(memory) ?? []) {
        if (!entities.has(target)) continue;
        const set = memoriesOf.get(target) ?? new Set<number>();
        set.add(memory);
        memoriesOf.set(target, set);
      }
  return [...memoriesOf]
    .flatMap(([id, memories]) => {
      const e = entities.get(id);
      return e ? [{ node_id: id, name: e.node.content, importance: e.importance, memory_ids: [...memories].sort((a, b) => a - b) }] : [];
    })
    .sort((a, b) => b.memory_ids.length - a.memory_ids.length || b.importance - a.importance || a.node_id - b.node_id)
    .slice(0, MAX_ENTITIES);
}
