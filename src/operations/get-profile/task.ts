/**
 * The profile (docs/design.md, "The profile"): derived from the network at read time (a read task,
 * so it sees every write accepted before it), for one participant or for everyone. A reader of the
 * network: it changes nothing, importance included.
 */
import { importanceOf } from "../../memory/importance";
import { buildProfile, entityCandidates, profileEntities, type Profile } from "../../memory/profile";
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

/**
 * The profiles last built for an agent, per request, while its memories are the very same node
 * objects: the graph replaces a node's object on every change and a write adds or removes nodes, so
 * any write makes the next request build again. Keyed by the agent's runtime: it dies with the
 * object, and no agent reaches another's. A warm profile at 10k memories is then a comparison of
 * 10k references instead of a new selection.
 */
const BUILT = new WeakMap<object, { memories: readonly MemoryNode[]; profiles: Map<string, Profile> }>();
/** Requests remembered per agent (participants, lengths, locales) before the list starts again. */
const BUILT_PER_AGENT = 8;

function builtProfile(rt: object, memories: readonly MemoryNode[], request: ProfileRequest, build: () => Profile): Profile {
  let entry = BUILT.get(rt);
  if (!entry || entry.memories.length !== memories.length || entry.memories.some((m, i) => m !== memories[i])) {
    entry = { memories, profiles: new Map() };
    BUILT.set(rt, entry);
  }
  const key = JSON.stringify([request.participant, request.first, request.maxChars, request.locale]);
  let profile = entry.profiles.get(key);
  if (!profile) {
    if (entry.profiles.size >= BUILT_PER_AGENT) entry.profiles.clear();
    entry.profiles.set(key, (profile = build()));
  }
  return profile;
}

/** Two lists of nodes, each newest first (as ofKind gives them), as one list oldest first. */
function oldestFirst(a: readonly MemoryNode[], b: readonly MemoryNode[]): MemoryNode[] {
  const out: MemoryNode[] = [];
  let i = a.length - 1;
  let j = b.length - 1;
  while (i >= 0 || j >= 0) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.id < y.id)) {
      if (x !== undefined) out.push(x);
      i--;
    } else {
      out.push(y);
      j--;
    }
  }
  return out;
}

export async function agentProfile(rt: AgentStores & AgentNetwork, request: ProfileRequest): Promise<Profile> {
  const repos = rt.existingRepos();
  const focus = rt.focus.list();
  const base = { statementsOf: cachedStatements, focus, limits: PROFILE_LIMITS, ...request };
  if (!repos) return buildProfile({ ...base, memories: [] });
  const reader = await networkReader(rt, repos);
  const clock = rt.meta.clock();
  const [segments, memories] = await Promise.all([reader.ofKind("segment", PROFILE_MEMORIES), reader.ofKind("memory", PROFILE_MEMORIES)]);
  const held = oldestFirst(segments, memories);
  const profile = {
    ...builtProfile(rt, held, request, () => buildProfile({ ...base, memories: held })),
    focus: base.focus.map((f) => ({ node_id: f.nodeId, name: f.name })),
  };
  const lineMemories = [...new Set(profile.lines.flatMap((l) => l.memory_ids))];
  const about = new Map<number, number[]>();
  for (const link of await reader.outgoingLinks(lineMemories, RELATION.about))
    about.set(link.source, [...(about.get(link.source) ?? []), link.target]);
  const entityNodes = [...(await reader.load(entityCandidates(profile.lines, about))).values()].filter((n) => n.kind === "entity");
  const strengths = await reader.outgoingStrengths(
    entityNodes.map((n) => n.id),
    clock,
  );
  const entities = new Map(entityNodes.map((node) => [node.id, { node, importance: importanceOf(strengths.get(node.id) ?? []) }]));
  return { ...profile, entities: profileEntities(profile.lines, about, entities) };
}
