/**
 * The conflict pairs that queued remembers will probably ask about (src/engine/verdicts-ahead.ts
 * asks their verdicts ahead of their turn). A remember's check pairs each new memory with the
 * CANDIDATES_PER_ENTITY most recent memories about each entity it is about (conflict-check.ts);
 * for a queued remember whose digest is known, that is foreseen from the network as it stands
 * and the segments of the remembers queued before it: the focus is replayed over their segments
 * and each is about the entities in focus that it mentions, as its remember will link it; the
 * memories about an entity are the network's and then, newer, those segments. A few more candidates than a check takes are foreseen, since the remembers in between
 * may supersede some, and an update among the queued remembers (the model's verdict if it has
 * come, else the classical rules' guess) moves the earlier memory's entities to the later one, as
 * its check will. What is foreseen is only ever asked, never written: a pair that was not foreseen
 * is asked in its turn.
 */
import { memoryText } from "../../memory/format";
import type { ConflictPair, ConflictVerdict, ModelMessage, WindowDigest } from "../../models/types";
import { entityKey } from "../../language/entities/entity-key";
import { touchFocus, type FocusEntry } from "../../memory/focus-lru";
import { mentionRelations } from "../../language/entities/mentions";
import { RELATION } from "../../vocabulary/relations";
import { loadTaggersFor } from "../../language/tagging/tagged-words";
import type { NetworkReader } from "../../engine/network-reader";
import { NOTHING_FORESEEN, type Foreseen } from "../../engine/verdicts-ahead";
import { CANDIDATES_PER_ENTITY, isMemory, nodesAbout } from "./conflict-check";

/** Candidates foreseen per entity beyond CANDIDATES_PER_ENTITY (some may be superseded by then). */
const FORESIGHT_SLACK = 1;

/** A segment's speaker as its node will have it: the one name of its messages, else none (remember-plan.ts). */
export function segmentSpeaker(messageIndexes: readonly number[], messages: readonly ModelMessage[]): string | null {
  const speakers = new Set(messageIndexes.map((index) => messages.find((m) => m.index === index)?.name ?? null));
  const [speaker] = speakers;
  return speakers.size === 1 && speaker ? speaker : null;
}

export interface QueuedConversation {
  messages: readonly ModelMessage[];
  digest: WindowDigest;
}

/** The focus as it stands before the queued remembers (what their segments link to). */
export interface FocusNow {
  entries: readonly FocusEntry[];
  limit: number;
}

interface QueuedSegment {
  /** The segment's text, and as a pair shows it (with its speaker). */
  text: string;
  shown: string;
  /** Entity keys mentioned, with the name spoken. */
  mentioned: Map<string, string>;
  /** A segment of the next queued remember. */
  next: boolean;
}

export async function foreseenPairs(
  reader: NetworkReader,
  queued: readonly QueuedConversation[],
  focus: FocusNow,
  clock: number,
  verdicts: {
    /** The model's verdict, if it has come. */
    verdictOf(pair: Pick<ConflictPair, "earlier" | "later">): ConflictVerdict | undefined;
    /** The model's verdict if it has come, else a guess at it. */
    likelyVerdict(pair: Pick<ConflictPair, "earlier" | "later">): ConflictVerdict;
  },
): Promise<Foreseen> {
  const segments: QueuedSegment[] = queued.flatMap(({ messages, digest }, at) =>
    digest.segments.map((segment, i) => {
      const mentioned = new Map<string, string>();
      for (const name of digest.extractions[i]?.entities ?? []) {
        const key = entityKey(name);
        if (key && !mentioned.has(key)) mentioned.set(key, name);
      }
      const shown = memoryText({ content: segment.text, speaker: segmentSpeaker(segment.messageIndexes, messages) });
      return { text: segment.text, shown, mentioned, next: at === 0 };
    }),
  );
  const keys = [...new Set(segments.flatMap((s) => [...s.mentioned.keys()]))];
  if (segments.length === 0) return NOTHING_FORESEEN;
  await loadTaggersFor(segments.map((s) => s.shown));
  const found = await reader.findEntities(keys);
  for (const f of focus.entries) if (!found.has(f.key)) found.set(f.key, { nodeId: f.nodeId, name: f.name });
  const wanted = CANDIDATES_PER_ENTITY + FORESIGHT_SLACK;
  const about = await nodesAbout(reader, new Set([...found.values()].map((e) => e.nodeId)), clock);
  const ids = [...found.values()].flatMap((e) => (about.get(e.nodeId) ?? []).slice(0, 3 * wanted));
  const nodes = await reader.load(ids);
  /** Per entity key, the memories about it as pairs show them, newest last; and the other way. */
  const memories = new Map<string, string[]>();
  const keysOf = new Map<string, Set<string>>();
  const addAbout = (key: string, text: string): void => {
    const list = memories.get(key) ?? [];
    list.push(text);
    memories.set(key, list);
    const set = keysOf.get(text) ?? new Set<string>();
    set.add(key);
    keysOf.set(text, set);
  };
  for (const [key, entity] of found) {
    const newestFirst = (about.get(entity.nodeId) ?? []).map((id) => nodes.get(id)).filter(isMemory);
    // More than a check takes: those that updates leave in place come next.
    for (const node of newestFirst.slice(0, 3 * wanted).reverse()) addAbout(key, memoryText(node));
  }
  const takeOver = (earlier: string, later: string): void => {
    for (const key of keysOf.get(earlier) ?? []) {
      memories.set(
        key,
        (memories.get(key) ?? []).filter((t) => t !== earlier),
      );
      if (!keysOf.get(later)?.has(key)) addAbout(key, later);
    }
    keysOf.delete(earlier);
  };
  // Updates judged in the running check and not applied yet (it applies them next).
  const judged: [string, string][] = [];
  for (const list of memories.values())
    list.forEach((later, j) => {
      for (const earlier of list.slice(0, j)) if (verdicts.verdictOf({ earlier, later }) === "update") judged.push([earlier, later]);
    });
  for (const [earlier, later] of judged) takeOver(earlier, later);
  // New entities get ids of their own below any node's, as the plan would give them ids above.
  const placeholder = new Map<string, number>();
  const nodeIdOf = (key: string): number => {
    const known = found.get(key)?.nodeId ?? placeholder.get(key);
    if (known !== undefined) return known;
    placeholder.set(key, -(placeholder.size + 1));
    return -placeholder.size;
  };
  // The focus replayed segment by segment, as planFocus does: a segment is about the entities in
  // focus after it that it mentions (src/operations/remember/task.ts, mentionRelations).
  let current: FocusEntry[] = [...focus.entries];
  const pairs = new Map<string, ConflictPair>();
  let next = 0;
  for (const segment of segments) {
    const mentioned = [...segment.mentioned].map(([key, name]) => ({ nodeId: nodeIdOf(key), key, name: found.get(key)?.name ?? name }));
    current = touchFocus(current, mentioned, focus.limit).focus;
    const relations = mentionRelations(current.map((f) => ({ segment: segment.text, entity: segment.mentioned.get(f.key) ?? f.name })));
    const aboutKeys = current.filter((_f, i) => relations[i] === RELATION.about).map((f) => f.key);
    const earliers = new Set<string>();
    for (const key of aboutKeys) {
      for (const earlier of (memories.get(key) ?? []).slice(-wanted)) {
        const id = JSON.stringify([earlier, segment.shown]);
        const pair = pairs.get(id) ?? { earlier, later: segment.shown, entities: [] };
        const name = found.get(key)?.name ?? segment.mentioned.get(key) ?? key;
        if (!pair.entities.includes(name)) pair.entities.push(name);
        pairs.set(id, pair);
        earliers.add(earlier);
      }
    }
    for (const key of aboutKeys) addAbout(key, segment.shown);
    // An update (judged, or likely): the segment takes over the earlier memory's entities (link-moves.ts).
    for (const earlier of earliers)
      if (verdicts.likelyVerdict({ earlier, later: segment.shown }) === "update") takeOver(earlier, segment.shown);
    if (segment.next) next = pairs.size;
  }
  return { pairs: [...pairs.values()].map((p) => ({ ...p, entities: p.entities.sort() })), next };
}
