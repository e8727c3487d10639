/**
 * What a preset's agents are asked beyond the two query modes, once their main questions are done
 * (recall and search change nothing, so the agents are the same ones):
 *
 * - `ablations` (on `default`): the question mode again with parts of recall's scoring switched
 *   off through the agent's parameters (docs/design.md §2), one step at a time, from the memory's
 *   own text to everything: so every component's contribution is a measured number. The last step
 *   is the default itself, whose answers are the preset's own.
 * - `search` (on `default`): the search endpoint in its three modes (keyword, vector, hybrid)
 *   with the question as query, top 20: recall's entry points measured alone, and the check that
 *   fusing them scores no lower than the better of the two.
 * - `retention` (on `no-forgetting`, LoCoMo): the network as remembered, then DESIGN §2 decay and
 *   compression cycles up to RETENTION_CYCLES, asked after each point: the retention curve, with
 *   the characters held at each point.
 */
import type { AgentApi, ConfigPatch, SearchRequest } from "../driver/agent-api";
import type { RetrievedItem } from "../lib/metrics";
import type { Lang } from "../lib/tokens";
import { DEFAULT_PARAMS } from "../../src/config/params";
import { askAll, RECALL_LIMIT } from "./ask";
import { RETENTION_CYCLES } from "./presets";

export type Extra = "ablations" | "search" | "retention";

/** Recall's scoring parameters as DESIGN §2 sets them. */
const RECALL_DEFAULTS = {
  recall_neighbour_weight: DEFAULT_PARAMS.recall_neighbour_weight,
  recall_entity_weight: DEFAULT_PARAMS.recall_entity_weight,
  recall_speaker_weight: DEFAULT_PARAMS.recall_speaker_weight,
  recall_time_weight: DEFAULT_PARAMS.recall_time_weight,
  recall_graph_prior: DEFAULT_PARAMS.recall_graph_prior,
  recall_vectors: DEFAULT_PARAMS.recall_vectors,
} satisfies ConfigPatch;

const OFF = {
  neighbours: { recall_neighbour_weight: 0 },
  entities: { recall_entity_weight: 0 },
  speakerTime: { recall_speaker_weight: 0, recall_time_weight: 0 },
  prior: { recall_graph_prior: 0 },
  vectors: { recall_vectors: false },
} satisfies Record<string, ConfigPatch>;

export interface AblationStep {
  name: string;
  /** The recall parameters of the step (each step sets all of them). */
  params: ConfigPatch;
}

/** Cumulative: each step adds one component to the one before. */
export const ABLATION_STEPS: readonly AblationStep[] = [
  {
    name: "text only (BM25 over the memory's own text)",
    params: { ...RECALL_DEFAULTS, ...OFF.neighbours, ...OFF.entities, ...OFF.speakerTime, ...OFF.prior, ...OFF.vectors },
  },
  { name: "+ neighbours (上文/下文)", params: { ...RECALL_DEFAULTS, ...OFF.entities, ...OFF.speakerTime, ...OFF.prior, ...OFF.vectors } },
  { name: "+ linked entities (相关)", params: { ...RECALL_DEFAULTS, ...OFF.speakerTime, ...OFF.prior, ...OFF.vectors } },
  { name: "+ speaker and time", params: { ...RECALL_DEFAULTS, ...OFF.prior, ...OFF.vectors } },
  { name: "+ graph prior (focus path, importance)", params: { ...RECALL_DEFAULTS, ...OFF.vectors } },
  { name: "+ vectors (= default)", params: RECALL_DEFAULTS },
];

/** The answers of every step but the last (the caller's own default answers are the last). */
export async function askAblations(
  agent: AgentApi,
  texts: readonly string[],
  lang: Lang,
  progress: (step: string, done: number, total: number) => void,
): Promise<RetrievedItem[][][]> {
  const answers: RetrievedItem[][][] = [];
  for (const step of ABLATION_STEPS.slice(0, -1)) {
    await agent.configure(step.params);
    answers.push((await askAll(agent, texts, lang, "question", (d, t) => progress(step.name, d, t))).items);
  }
  await agent.configure(RECALL_DEFAULTS);
  return answers;
}

export const SEARCH_MODES = ["keyword", "vector", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** The search endpoint's answers per mode (null when the build has no search endpoint). */
export async function askSearchModes(
  agent: AgentApi,
  texts: readonly string[],
  progress: (mode: string, done: number, total: number) => void,
): Promise<Record<SearchMode, RetrievedItem[][]> | null> {
  const out: Record<SearchMode, RetrievedItem[][]> = { keyword: [], vector: [], hybrid: [] };
  for (const mode of SEARCH_MODES) {
    for (const [i, text] of texts.entries()) {
      const request: SearchRequest = { query: text.slice(0, 2000), mode, top_k: RECALL_LIMIT };
      const answer = await agent.search(request);
      if (!answer) return null;
      out[mode].push(answer.value.items.map((item) => ({ sourceIds: item.source_message_ids ?? [], text: item.content })));
      progress(mode, i + 1, texts.length);
    }
  }
  return out;
}

export interface RetentionPoint {
  cycles: number;
  items: RetrievedItem[][];
  held: number;
  remembered: number;
}

/**
 * The retention curve of one agent: DESIGN §2's decay rate restored, then compression cycles up to
 * each of RETENTION_CYCLES (the first point, 0, is the caller's own answers), each point asked
 * once the queue is idle.
 */
export async function askRetention(
  agent: AgentApi,
  texts: readonly string[],
  lang: Lang,
  progress: (cycles: number, done: number, total: number) => void,
): Promise<RetentionPoint[]> {
  await agent.configure({ decay_rate: DEFAULT_PARAMS.decay_rate });
  const points: RetentionPoint[] = [];
  let done = 0;
  for (const cycles of RETENTION_CYCLES.filter((c) => c > 0)) {
    await agent.compress(cycles - done);
    done = cycles;
    const stats = await agent.idleStats();
    const answers = await askAll(agent, texts, lang, "question", (d, t) => progress(cycles, d, t));
    points.push({ cycles, items: answers.items, held: stats.characters.held, remembered: stats.characters.remembered });
  }
  return points;
}
