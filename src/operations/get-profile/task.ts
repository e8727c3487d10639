/**
 * The agent's profile (docs/design.md, "Context for prompts"): derived from the network at read time (a read task,
 * so it sees every write accepted before it). Measured cheap enough not to cache: one pass over
 * the memories and the entities' links of the in-memory graph.
 */
import { assembleContext } from "../../memory/context-block";
import { buildProfile, type Profile } from "../../memory/profile";
import { labelLocale } from "../shared/label-locale";
import { networkReader } from "../../engine/network-reader";
import type { AgentNetwork, AgentStores } from "../../engine/runtime";
import { ProfileQuerySchema, ProfileResultSchema } from "./schemas";
import { defineTask } from "../../engine/define-task";

/** Memories counted for participants at most (an agent served from D1 reads its newest ones). */
const PROFILE_MEMORIES = 20_000;
const PROFILE_LIMITS = { participants: 8, entities: 8, memoriesPerEntity: 2 };

export const getProfileTask = defineTask({
  lane: "read",
  payload: ProfileQuerySchema,
  result: ProfileResultSchema,
  async run(rt: AgentStores & AgentNetwork, task) {
    const profile = await agentProfile(rt);
    const text = assembleContext(
      { memories: [], episodes: [], profile, traces: [], pastFirst: false },
      Number.MAX_SAFE_INTEGER,
      await labelLocale(rt, task.payload),
      false,
    ).text;
    return { status: "done", result: { ...profile, text } };
  },
});

export async function agentProfile(rt: AgentStores & AgentNetwork): Promise<Profile> {
  const repos = rt.existingRepos();
  const focus = rt.focus.list();
  if (!repos) return buildProfile({ memories: [], entities: [], focus, limits: PROFILE_LIMITS });
  const reader = await networkReader(rt, repos);
  const clock = rt.meta.clock();
  // An expired memory is gone for every read (docs/design.md, "Expiry is a purge at a time set in advance").
  const live = { filter: {}, now: rt.now() };
  const [segments, memories, entities] = await Promise.all([
    reader.ofKind("segment", PROFILE_MEMORIES, live),
    reader.ofKind("memory", PROFILE_MEMORIES, live),
    reader.ofKind("entity", PROFILE_MEMORIES),
  ]);
  const links = await reader.outgoing(
    entities.map((e) => e.id),
    clock,
  );
  return buildProfile({
    memories: [...segments, ...memories],
    entities: entities.map((node) => ({ node, links: links.get(node.id) ?? [] })),
    focus,
    limits: PROFILE_LIMITS,
  });
}
