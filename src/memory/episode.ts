/**
 * Episodes (docs/design.md, "Context for prompts"): every remembered submission also yields one episode node, the
 * summary of what was talked about, with its participants and time span, linked to its segments
 * both ways (episode → segment 包含, segment → episode 属于) at `link_initial_strength`. It is a node
 * like any other: it decays, is compressed and forgotten. Pure: the summary comes from the model.
 */
import { z } from "zod";
import { PHRASE_MAX_CODE_POINTS } from "../models/types";
import { codePointLength, sliceCodePoints } from "../text/code-points";
import { newNode, type MemoryNode, type NewLink } from "../vocabulary/records";
import { RELATION } from "../vocabulary/relations";
import { levelOf } from "./strength";

/** An episode's summary is at most this many code points. */
export const EPISODE_SUMMARY_MAX = 200;

/** Keywords kept on an episode: the submission's most frequent segment keywords. */
const EPISODE_KEYWORDS = 12;

export interface EpisodeMeta {
  /** Speakers by the number of messages they wrote, most first (a role when a message has no name). */
  participants: { name: string; messages: number }[];
  /** The span of the messages' own times (ms), when they had any. */
  from: number | null;
  to: number | null;
  segments: number;
  messages: number;
}

export interface EpisodeMessage {
  role: string;
  name?: string | undefined;
  timestamp?: number | undefined;
}

export interface EpisodeInput {
  id: number;
  taskId: string;
  epoch: number;
  now: number;
  clock: number;
  linkInitialStrength: number;
  summary: string;
  messages: readonly EpisodeMessage[];
  /** The submission's segments, in order. */
  segments: readonly MemoryNode[];
}

/** The episode's participants and time span (pure). */
export function episodeMeta(messages: readonly EpisodeMessage[], segments: number): EpisodeMeta {
  const counts = new Map<string, number>();
  for (const m of messages) {
    const name = m.name ?? m.role;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const times = messages.flatMap((m) => (m.timestamp === undefined ? [] : [m.timestamp]));
  return {
    participants: [...counts].map(([name, n]) => ({ name, messages: n })).sort((a, b) => b.messages - a.messages),
    from: times.length > 0 ? Math.min(...times) : null,
    to: times.length > 0 ? Math.max(...times) : null,
    segments,
    messages: messages.length,
  };
}

export function planEpisode(input: EpisodeInput): { node: MemoryNode; links: NewLink[] } {
  const meta = episodeMeta(input.messages, input.segments.length);
  const keywordCounts = new Map<string, number>();
  for (const s of input.segments) for (const k of s.keywords) keywordCounts.set(k, (keywordCounts.get(k) ?? 0) + 1);
  const keywords = [...keywordCounts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, EPISODE_KEYWORDS)
    .map(([k]) => k);
  const node = newNode({
    id: input.id,
    kind: "episode",
    name: null,
    content: input.summary,
    originalLength: codePointLength(input.summary),
    phrase: sliceCodePoints(input.summary, 0, PHRASE_MAX_CODE_POINTS),
    keywords,
    role: null,
    speaker: null,
    sourceMessageIds: [...new Set(input.segments.flatMap((s) => s.sourceMessageIds))],
    sourceTaskId: input.taskId,
    messageTime: meta.from,
    createdAt: input.now,
    meta: { ...meta },
  });
  const level = levelOf(input.linkInitialStrength, input.clock);
  const link = (source: number, target: number, relation: string): NewLink => ({
    source,
    target,
    relation,
    level,
    epoch: input.epoch,
    createdAt: input.now,
  });
  const links = input.segments.flatMap((s) => [link(input.id, s.id, RELATION.contains), link(s.id, input.id, RELATION.partOf)]);
  return { node, links };
}

const StoredMeta = z.object({
  participants: z.array(z.object({ name: z.string(), messages: z.number() })).catch([]),
  from: z.number().nullable().catch(null),
  to: z.number().nullable().catch(null),
  segments: z.number().catch(0),
  messages: z.number().catch(0),
});

/** An episode node's meta as stored (participants, span), read back through its schema. */
export function episodeMetaOf(node: Pick<MemoryNode, "meta">): EpisodeMeta {
  const parsed = StoredMeta.safeParse(node.meta ?? {});
  return parsed.success ? parsed.data : { participants: [], from: null, to: null, segments: 0, messages: 0 };
}
