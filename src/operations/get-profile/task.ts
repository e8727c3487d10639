/**
 * The profile (docs/design.md, "The profile"): derived from the network at read time (a read task,
 * so it sees every write accepted before it), for one participant or for everyone. A reader of the
 * network: it changes nothing, importance included.
 */
import { importanceOf } from "../../memory/importance";
import { buildProfile, profileEntities, type Profile } from "../../memory/profile";
import { statementsOf, type Statement } from "../../memory/profile-statements";
import { profileText } from "../../memory/profile-text";
import type { Locale } from "../../vocabulary/locales";
import type { MemoryNode } from "../../vocabulary/records";
import { RELATION } from "../../vocabulary/relations";
import { labelLocale } from "../shared/label-locale";
import { networkReader } from "../../engine/network-reader";
import type { AgentNetwork, AgentStores } from "../../engine/runtime";
import { DEFAULT_PROFILE_CHARS, ProfileQuerySchema, ProfileResultSchema } from "./schemas";
import { defineTask } from "../../engine/define-task";

/** Memories read at most (an agent served from D1 reads its newest ones). */
const PROFILE_MEMORIES = 20_000;
const PROFILE_LIMITS = { participants: 8 };

/**
 * A memory's statements, kept as long as the memory object is: the in-memory graph replaces a
 * node's object on every change (graph.ts), so an entry can never be stale, and it is derived from
 * that node alone. Splitting and tokenising every memory again made a profile of a 10k-node agent
 * cost over 100 ms.
 */
const STATEMENTS = new WeakMap<MemoryNode, readonly Statement[]>();

function cachedStatements(memory: MemoryNode): readonly Statement[] {
  let statements = STATEMENTS.get(memory);
  if (!statements) STATEMENTS.set(memory, (statements = statementsOf(memory)));
  return statements;
}

export const getProfileTask = defineTask({
  lane: "read",
  payload: ProfileQuerySchema,
  result: ProfileResultSchema,
  async run(rt: AgentStores & AgentNetwork, task) {
    const maxChars = task.payload.max_chars ?? DEFAULT_PROFILE_CHARS;
    const locale = await labelLocale(rt, task.payload);
    const profile = await agentProfile(rt, { participant: task.payload.participant ?? null, first: [], maxChars, locale });
    return { status: "done", result: { ...profile, text: profileText(profile, locale), max_chars: maxChars } };
  },
});

export interface ProfileRequest {
  participant: string | null;
  /** Participants whose lines come first. */
  first: readonly string[];
  maxChars: number;
  locale: Locale;
}

export async function agentProfile(rt: AgentStores & AgentNetwork, request: ProfileRequest): Promise<Profile> {
  const repos = rt.existingRepos();
  const focus = rt.focus.list();
  const base = { statementsOf: cachedStatements, focus, limits: PROFILE_LIMITS, ...request };
  if (!repos) return buildProfile({ ...base, memories: [] });
  const reader = await networkReader(rt, repos);
  const clock = rt.meta.clock();
  const [segments, memories] = await Promise.all([reader.ofKind("segment", PROFILE_MEMORIES), reader.ofKind("memory", PROFILE_MEMORIES)]);
  const profile = buildProfile({ ...base, memories: [...segments, ...memories] });
  const lineMemories = [...new Set(profile.lines.flatMap((l) => l.memory_ids))];
  const about = new Map(
    [...(await reader.outgoing(lineMemories, clock))].map(([id, links]) => [
      id,
      links.filter((l) => l.relation === RELATION.about).map((l) => l.target),
    ]),
  );
  const entityNodes = [...(await reader.load([...new Set([...about.values()].flat())])).values()].filter((n) => n.kind === "entity");
  const entityLinks = await reader.outgoing(
    entityNodes.map((n) => n.id),
    clock,
  );
  const entities = new Map(
    entityNodes.map((node) => [node.id, { node, importance: importanceOf((entityLinks.get(node.id) ?? []).map((l) => l.strength)) }]),
  );
  return { ...profile, entities: profileEntities(profile.lines, about, entities) };
}
