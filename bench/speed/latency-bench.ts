/**
 * recall and search latency on an agent of a given size.
 *
 * recall: two keywords from the stream's vocabulary, depth 2, limit 20, focus full (the agent was
 * just fed, so its focus holds focus_limit entities; the number is reported). search: one free-text
 * query per sample in each mode (keyword, vector, hybrid), top_k 20. Each sample is interleaved with
 * a floor ping (floor.ts). If the search endpoint answers 404 it is not on this build: the search
 * part is skipped with a note and the rest of the run goes on.
 *
 * context: one free-text query per sample, budget 1,024 tokens, the default sections. profile: the
 * whole profile and the stream's user's (PROFILE_PARTICIPANT), at the API's default length, derived
 * from the network at every request (docs/design.md, "The profile", decides not to cache it; this
 * is the measurement behind that), each after WARM_UP requests (warm).
 */
import type { AgentApi, SearchRequest } from "../driver/agent-api";
import { DEFAULT_HEDGE_MS } from "../driver/agent-api";
import { memoriesOf } from "../driver/schemas";
import { percentiles } from "../lib/aggregate";
import { sampleWithFloor, type LatencySummary } from "./floor";
import { keywordQueries, searchQueries } from "./streams";

export const SEARCH_MODES: readonly SearchRequest["mode"][] = ["keyword", "vector", "hybrid"];
export const SEARCH_MISSING = "search endpoint not available (404)";

export interface RecallLatency {
  depth: number;
  limit: number;
  focus: number;
  meanItems: number;
  meanReached: number;
  latency: LatencySummary;
}

export interface ContextLatency {
  budget: number;
  meanMemories: number;
  meanUsedTokens: number;
  latency: LatencySummary;
  profile: ProfileLatency;
  /** One participant's profile (PROFILE_PARTICIPANT). */
  participantProfile: ProfileLatency & { participant: string };
}

export type ProfileLatency = LatencySummary & { meanEntities: number; meanLines: number; meanChars: number };

/** The user of the speed bench's English stream (streams.ts). */
export const PROFILE_PARTICIPANT = "Sam";

export type SearchLatency = { skipped: string } | { skipped: null; modes: Record<string, LatencySummary & { meanItems: number }> };

const WARM_UP = 10;
const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, x) => a + x, 0) / xs.length);

/**
 * The stall guard's threshold for this agent: 20 × the warm-up median, at least the default, so a
 * large agent's slow but honest answers are not re-sent.
 */
function calibrateHedge(agent: AgentApi, warmUpMs: readonly number[]): void {
  agent.hedgeAfterMs = Math.max(DEFAULT_HEDGE_MS, 20 * (percentiles(warmUpMs)?.p50 ?? 0));
}

export async function recallLatency(agent: AgentApi, samples: number, focus: number, step: (t: string) => void): Promise<RecallLatency> {
  const queries = keywordQueries("en", samples + WARM_UP, 7);
  const request = (i: number) => ({ keywords: queries[i] ?? [], depth: 2, limit: 20 });
  const warm: number[] = [];
  for (let i = 0; i < WARM_UP; i += 1) warm.push((await agent.recall(request(samples + i))).ms);
  calibrateHedge(agent, warm);
  const items: number[] = [];
  const reached: number[] = [];
  const { summary } = await sampleWithFloor(
    agent,
    samples,
    async (i) => {
      const r = await agent.recall(request(i));
      items.push(memoriesOf(r.value).length);
      reached.push(r.value.reached_nodes);
      return r.ms;
    },
    (d, t) => step(`${agent.agentId}: recall ${d}/${t}`),
  );
  return { depth: 2, limit: 20, focus, meanItems: mean(items), meanReached: mean(reached), latency: summary };
}

export async function searchLatency(agent: AgentApi, samples: number, step: (t: string) => void): Promise<SearchLatency> {
  const queries = searchQueries("en", samples + WARM_UP, 11);
  const modes: Record<string, LatencySummary & { meanItems: number }> = {};
  for (const mode of SEARCH_MODES) {
    const request = (i: number): SearchRequest => ({ query: queries[i] ?? "", mode, top_k: 20 });
    const warm: number[] = [];
    for (let i = 0; i < WARM_UP; i += 1) {
      const r = await agent.search(request(samples + i));
      if (r === null) return { skipped: SEARCH_MISSING };
      warm.push(r.ms);
    }
    calibrateHedge(agent, warm);
    const items: number[] = [];
    const { summary } = await sampleWithFloor(
      agent,
      samples,
      async (i) => {
        const r = await agent.search(request(i));
        if (r === null) throw new Error(`${agent.agentId}: search answered 404 after answering before`);
        items.push(r.value.items.length);
        return r.ms;
      },
      (d, t) => step(`${agent.agentId}: search (${mode}) ${d}/${t}`),
    );
    modes[mode] = { ...summary, meanItems: mean(items) };
  }
  return { skipped: null, modes };
}

export const CONTEXT_BUDGET = 1024;

export async function contextLatency(agent: AgentApi, samples: number, step: (t: string) => void): Promise<ContextLatency> {
  const queries = searchQueries("en", samples + WARM_UP, 13);
  const request = (i: number) => ({
    query: queries[i] ?? "",
    budget_tokens: CONTEXT_BUDGET,
    include: ["memories" as const, "episodes" as const, "traces" as const],
    locale: "en" as const,
  });
  const warm: number[] = [];
  for (let i = 0; i < WARM_UP; i += 1) warm.push((await agent.context(request(samples + i))).ms);
  calibrateHedge(agent, warm);
  const memories: number[] = [];
  const tokens: number[] = [];
  const context = await sampleWithFloor(
    agent,
    samples,
    async (i) => {
      const r = await agent.context(request(i));
      memories.push(r.value.memories.length);
      tokens.push(r.value.used_tokens);
      return r.ms;
    },
    (d, t) => step(`${agent.agentId}: context ${d}/${t}`),
  );
  return {
    budget: CONTEXT_BUDGET,
    meanMemories: mean(memories),
    meanUsedTokens: mean(tokens),
    latency: context.summary,
    ...(await profileLatency(agent, samples, step)),
  };
}

/** Warm latency of the whole profile and of one participant's (see the module comment). */
export async function profileLatency(
  agent: AgentApi,
  samples: number,
  step: (t: string) => void,
): Promise<Pick<ContextLatency, "profile" | "participantProfile">> {
  const measure = async (participant: string | undefined): Promise<ProfileLatency> => {
    const ask = () => agent.profile(participant === undefined ? {} : { participant });
    const warm: number[] = [];
    for (let i = 0; i < WARM_UP; i += 1) warm.push((await ask()).ms);
    calibrateHedge(agent, warm);
    const entities: number[] = [];
    const lines: number[] = [];
    const chars: number[] = [];
    const { summary } = await sampleWithFloor(
      agent,
      samples,
      async () => {
        const r = await ask();
        entities.push(r.value.entities.length);
        lines.push(r.value.lines.length);
        chars.push([...r.value.text].length);
        return r.ms;
      },
      (d, t) => step(`${agent.agentId}: profile${participant === undefined ? "" : ` (${participant})`} ${d}/${t}`),
    );
    return { ...summary, meanEntities: mean(entities), meanLines: mean(lines), meanChars: mean(chars) };
  };
  const profile = await measure(undefined);
  const participantProfile = { ...(await measure(PROFILE_PARTICIPANT)), participant: PROFILE_PARTICIPANT };
  return { profile, participantProfile };
}
