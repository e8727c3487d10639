/**
 * The context block (docs/design.md, "Context for prompts"): the memories recall ranks for a query (or for the
 * latest messages), each with its energy indicator and entities, conflicts marked, the latest
 * episodes when the query asks about an earlier conversation, "once knew" traces, and the profile
 * when asked, assembled within a token budget (src/memory/context-block.ts). A read.
 */
import { assembleContext, type ContextEpisode, type ContextMemory } from "../../memory/context-block";
import { energyOf } from "../../memory/energy";
import { episodeMetaOf } from "../../memory/episode";
import { importanceOf } from "../../memory/importance";
import { asksAboutThePast } from "../../memory/past-question";
import { MAX_PINS } from "../../config/params";
import { RELATION } from "../../vocabulary/relations";
import { labelLocale } from "../shared/label-locale";
import { networkReader } from "../../engine/network-reader";
import type { AgentModels, AgentNetwork, AgentStores } from "../../engine/runtime";
import { ContextQuerySchema, ContextResultSchema, type ContextQuery, type ContextResult } from "./schemas";
import { DEFAULT_PROFILE_CHARS } from "../get-profile/schemas";
import { defineTask } from "../../engine/define-task";
import { agentProfile } from "../get-profile/task";
import { runRecall } from "../recall/task";

/** What the context block uses of the agent's runtime (a recall and the profile). */
type Runtime = AgentStores & AgentNetwork & Pick<AgentModels, "model" | "embedder" | "queryVectors">;

/**
 * Memories recall ranks for the block: enough that the budget, not the list, ends the block (a
 * memory line rarely costs under 10 tokens), within recall's own limit of 100.
 */
const memoriesFor = (budgetTokens: number): number => Math.min(100, Math.max(10, Math.ceil(budgetTokens / 10)));
/** Latest episodes offered when the query asks about an earlier conversation. */
const LATEST_EPISODES = 2;
/** Latest turns that make the query when messages are given instead. */
const QUERY_TURNS = 3;

export const getContextTask = defineTask({
  lane: "read",
  payload: ContextQuerySchema,
  result: ContextResultSchema,
  async run(rt: Runtime, task) {
    return { status: "done", result: await buildContext(rt, task.payload) };
  },
});

/** The query of a context request: given, or the latest turns' text. */
export function contextQuery(request: Pick<ContextQuery, "query" | "messages">): string {
  if (request.query) return request.query;
  return (request.messages ?? [])
    .slice(-QUERY_TURNS)
    .map((m) => m.content)
    .join("\n");
}

async function buildContext(rt: Runtime, request: ContextQuery): Promise<ContextResult> {
  const query = contextQuery(request);
  const include = new Set(request.include);
  const empty: ContextResult = {
    query,
    budget_tokens: request.budget_tokens,
    used_tokens: 0,
    text: "",
    memories: [],
    episodes: [],
    profile: null,
    traces: [],
  };
  const repos = rt.existingRepos();
  if (!repos) return empty;
  const reader = await networkReader(rt, repos);
  const clock = rt.meta.clock();
  const locale = await labelLocale(rt, request);
  const recall = await runRecall(rt, {
    keywords: [],
    ...(query.trim() !== "" ? { query } : {}),
    expand: false,
    relations: [],
    limit: memoriesFor(request.budget_tokens),
    start: "hybrid",
    locale,
    kinds: ["segment", "memory"],
  });
  // Standing instructions first (docs/design.md, "Pins"): every pinned memory, whatever the query, then what recall ranks.
  const pinned = include.has("memories")
    ? (await reader.find({ pinned: true, supersededBy: null }, MAX_PINS)).map((n) => ({
        node_id: n.id,
        content: n.content,
        speaker: n.speaker,
        source_message_ids: n.sourceMessageIds,
        message_time: n.messageTime,
        pinned: true,
      }))
    : [];
  const listed = new Set(pinned.map((m) => m.node_id));
  const shown = [...pinned, ...recall.memories.filter((m) => !listed.has(m.node_id)).map((m) => ({ ...m, pinned: false }))];
  const ids = shown.map((m) => m.node_id);
  const outgoing = await reader.outgoing(ids, clock);
  const targets = [
    ...new Set([...outgoing.values()].flatMap((links) => links.filter((l) => l.relation === RELATION.about).map((l) => l.target))),
  ];
  const entities = await reader.load(targets);
  const memories: ContextMemory[] = include.has("memories")
    ? shown.map((m) => {
        const links = outgoing.get(m.node_id) ?? [];
        return {
          node_id: m.node_id,
          pinned: m.pinned,
          content: m.content,
          speaker: m.speaker,
          energy: energyOf(importanceOf(links.map((l) => l.strength))),
          entities: links.flatMap((l) => {
            const e = l.relation === RELATION.about ? entities.get(l.target) : undefined;
            return e?.kind === "entity" ? [e.content] : [];
          }),
          conflicts_with: links.filter((l) => l.relation === RELATION.contradicts).map((l) => l.target),
        };
      })
    : [];
  const pastFirst = asksAboutThePast(query);
  const episodes: ContextEpisode[] =
    include.has("episodes") && pastFirst
      ? (await reader.ofKind("episode", LATEST_EPISODES * 4))
          .filter((e) => e.supersededBy === null)
          .slice(0, LATEST_EPISODES)
          .map((e) => {
            const meta = episodeMetaOf(e);
            return {
              node_id: e.id,
              summary: e.content,
              participants: meta.participants.map((p) => p.name),
              from: meta.from,
              to: meta.to,
              remembered_at: e.createdAt,
            };
          })
      : [];
  // The participants of the conversation at hand come first in the profile, the latest speaker
  // first (docs/design.md, "The profile").
  const first = [...new Set((request.messages ?? []).flatMap((m) => (m.name ? [m.name] : [])).reverse())];
  const profile = include.has("profile")
    ? await agentProfile(rt, { participant: null, first, maxChars: DEFAULT_PROFILE_CHARS, locale })
    : null;
  const traces = include.has("traces") ? recall.traces.map((t) => ({ phrase: t.phrase })) : [];
  const block = assembleContext({ memories, episodes, profile, traces, pastFirst }, request.budget_tokens, locale);
  const byId = new Map(shown.map((m) => [m.node_id, m]));
  const episodeSources = new Map((await reader.load(block.episodes.map((e) => e.node_id))).entries());
  return {
    ...empty,
    used_tokens: block.usedTokens,
    text: block.text,
    memories: block.memories.map((m) => ({
      ...m,
      importance: importanceOf((outgoing.get(m.node_id) ?? []).map((l) => l.strength)),
      source_message_ids: byId.get(m.node_id)?.source_message_ids ?? [],
      message_time: byId.get(m.node_id)?.message_time ?? null,
    })),
    episodes: block.episodes.map((e) => ({ ...e, source_message_ids: episodeSources.get(e.node_id)?.sourceMessageIds ?? [] })),
    profile: block.profileLines > 0 ? profile : null,
    traces: block.traces,
  };
}
