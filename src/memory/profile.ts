/**
 * The agent's profile (docs/design.md, "Context for prompts"): a view derived from the network at read time, never a
 * second store, so it forgets as the network does. Its main participants (by the messages they
 * wrote, counted over the memories still held), its most important entities (by importance, the
 * sum of their link strengths) each with its strongest memories, and the focus. Pure.
 *
 * An entity's memories are those that name it (关于) before those it was merely in focus for (相关),
 * strongest first within each: an entity in focus gains links to every later segment, and the
 * profile should say what is known about it, not what was said while it was on the agent's mind.
 */
import type { MemoryNode } from "../vocabulary/records";
import { RELATION } from "../vocabulary/relations";
import { importanceOf } from "./importance";

export interface ProfileEntity {
  node_id: number;
  name: string;
  importance: number;
  memories: { node_id: number; content: string; strength: number }[];
}

export interface Profile {
  participants: { name: string; messages: number }[];
  entities: ProfileEntity[];
  focus: { node_id: number; name: string }[];
}

export interface ProfileInput {
  /** Every memory (segments, explicit memories) still held, with its source message ids. */
  memories: readonly MemoryNode[];
  /** Every entity with its outgoing links (target, relation, strength). */
  entities: readonly { node: MemoryNode; links: readonly { target: number; relation: string; strength: number }[] }[];
  focus: readonly { nodeId: number; name: string }[];
  limits: { participants: number; entities: number; memoriesPerEntity: number };
}

/** "Name: text" lines, as the segmenter writes a segment joining several speakers' messages. */
const SPEAKER_LINE = /^([^:：\n]{1,40})[:：]/u;

export function buildProfile(input: ProfileInput): Profile {
  const counts = new Map<string, number>();
  const add = (name: string, n: number) => counts.set(name, (counts.get(name) ?? 0) + n);
  for (const m of input.memories) {
    if (m.kind !== "segment") continue;
    if (m.speaker) add(m.speaker, m.sourceMessageIds.length);
    else for (const line of m.content.split("\n")) add(SPEAKER_LINE.exec(line)?.[1]?.trim() ?? m.role ?? "user", 1);
  }
  const participants = [...counts]
    .map(([name, messages]) => ({ name, messages }))
    .sort((a, b) => b.messages - a.messages || a.name.localeCompare(b.name))
    .slice(0, input.limits.participants);
  const held = new Map(input.memories.filter((m) => m.supersededBy === null).map((m) => [m.id, m]));
  const entities = input.entities
    .map(({ node, links }) => ({ node, links, importance: importanceOf(links.map((l) => l.strength)) }))
    .sort((a, b) => b.importance - a.importance || a.node.id - b.node.id)
    .slice(0, input.limits.entities)
    .map(({ node, links, importance }) => ({
      node_id: node.id,
      name: node.content,
      importance,
      memories: links
        .flatMap((l) => {
          const memory = held.get(l.target);
          return memory
            ? [{ node_id: memory.id, content: memory.content, strength: l.strength, named: l.relation === RELATION.about }]
            : [];
        })
        .sort((a, b) => Number(b.named) - Number(a.named) || b.strength - a.strength || b.node_id - a.node_id)
        .slice(0, input.limits.memoriesPerEntity)
        .map(({ named: _named, ...memory }) => memory),
    }));
  return { participants, entities, focus: input.focus.map((f) => ({ node_id: f.nodeId, name: f.name })) };
}
