/**
 * One preset on one dataset: an agent per LoCoMo conversation (one for all of MADial), fed, then
 * asked every question in both query modes. Recall changes nothing (docs/design.md §5), so both modes ask
 * the same agent and the ingestion is shared by them.
 */
import type { Config } from "../driver/schemas";
import type { CategorisedScores } from "../lib/aggregate";
import {
  locomoEvidence,
  locomoScoringOptions,
  madialEvidence,
  madialScoringOptions,
  scoreLocomoConversation,
  scoreMadial,
} from "../lib/evaluate";
import { toRememberCalls, type LocomoConversation, type LocomoQuestion } from "../lib/locomo";
import { toMadialMessages, type MadialDataset, type MadialItem } from "../lib/madial";
import type { RetrievedItem } from "../lib/metrics";
import { AgentApi, type Message } from "../driver/agent-api";
import type { HttpClient } from "../driver/http";
import { counter, type Stats } from "../driver/schemas";
import { askAll, QUERY_MODES, type QueryMode } from "./ask";
import { agentId } from "./batches";
import { ABLATION_STEPS, askAblations, askRetention, askSearchModes, SEARCH_MODES, type SearchMode } from "./extras";
import { askContexts, emptyContextRows, scoreContexts, type ContextAnswers, type ContextRows } from "./context-block";
import { ingest } from "./ingest";
import type { Preset } from "./presets";
import { checkSummaries, conflictMarks, type ConflictMarks, type SummaryCheck } from "./meaning";
import { askLocomoProfiles, askMadialProfile, type MadialProfile, type ProfileTexts } from "./profile-bench";

/** Counters summed over a preset's agents once their queues were idle. */
export interface Held {
  agents: number;
  nodes: number;
  segments: number;
  entities: number;
  links: number;
  danglingLinks: number;
  charactersHeld: number;
  charactersRemembered: number;
  cycles: number;
  nodesCompressed: number;
  nodesDeleted: number;
  nodesEvicted: number;
}

export interface PresetRun {
  preset: Preset;
  /** Parameters in force on the first agent, as the API answered PUT /config. */
  config: Config;
  ingestionMs: number;
  messages: number;
  rememberCalls: number;
  extraCycles: number;
  held: Held;
  rows: Record<QueryMode, CategorisedScores[]>;
  /** LoCoMo, question mode: the rows of each conversation (sample id), for the tuning/held-back split. */
  byConversation: Map<string, CategorisedScores[]>;
  /** LoCoMo: characters held and remembered by each conversation's agent after ingestion (sample id). */
  charactersByConversation: Map<string, { held: number; remembered: number }>;
  latenciesMs: Record<QueryMode, number[]>;
  emptyQueries: Record<QueryMode, number>;
  /** Per ablation step (ABLATION_STEPS order), question mode; empty when not asked. */
  ablations: CategorisedScores[][];
  /** Per search mode; null when not asked or the build has no search endpoint. */
  searchModes: Record<SearchMode, CategorisedScores[]> | null;
  /** The retention curve (RETENTION_CYCLES), question mode; empty when not asked. */
  retention: { cycles: number; rows: CategorisedScores[]; held: number; remembered: number }[];
  /** The context block's scores per budget (question as query); null unless the preset asks for it. */
  context: ContextRows | null;
  /** Memories with a conflict mark after ingestion, summed over the agents (meaning.ts). */
  conflicts: ConflictMarks;
  /** Episode summaries checked against the texts told (meaning.ts). */
  summaries: SummaryCheck;
  /** LoCoMo: the profiles of each conversation's agent (sample id); empty unless the preset asks. */
  profiles: Map<string, ProfileTexts>;
  /** MADial: its user's profile; null unless the preset asks. */
  madialProfile: MadialProfile | null;
}

/** What feedAndAsk collected beyond the two query modes, unscored. */
interface ExtraAnswers {
  ablations: RetrievedItem[][][];
  searchModes: Record<SearchMode, RetrievedItem[][]> | null;
  retention: { cycles: number; items: RetrievedItem[][]; held: number; remembered: number }[];
}

export type Step = (text: string) => void;

function emptyRun(preset: Preset): PresetRun {
  return {
    preset,
    config: {},
    ingestionMs: 0,
    messages: 0,
    rememberCalls: 0,
    extraCycles: 0,
    held: {
      agents: 0,
      nodes: 0,
      segments: 0,
      entities: 0,
      links: 0,
      danglingLinks: 0,
      charactersHeld: 0,
      charactersRemembered: 0,
      cycles: 0,
      nodesCompressed: 0,
      nodesDeleted: 0,
      nodesEvicted: 0,
    },
    rows: { question: [], keywords: [] },
    byConversation: new Map(),
    charactersByConversation: new Map(),
    latenciesMs: { question: [], keywords: [] },
    emptyQueries: { question: 0, keywords: 0 },
    ablations: [],
    searchModes: null,
    retention: [],
    context: preset.contextBlock ? emptyContextRows() : null,
    conflicts: { memories: 0, marked: 0 },
    summaries: { episodes: 0, wordBags: 0, examples: [] },
    profiles: new Map(),
    madialProfile: null,
  };
}

/** Adds one agent's conflict marks and summary check (after its ingestion) to `run`. */
async function addMeaning(run: PresetRun, agent: AgentApi, submissions: readonly (readonly Message[])[]): Promise<void> {
  const marks = await conflictMarks(agent);
  run.conflicts.memories += marks.memories;
  run.conflicts.marked += marks.marked;
  const summaries = await checkSummaries(agent, submissions.flat());
  run.summaries.episodes += summaries.episodes;
  run.summaries.wordBags += summaries.wordBags;
  run.summaries.examples.push(...summaries.examples.slice(0, 3 - run.summaries.examples.length));
}

function addStats(held: Held, s: Stats): void {
  held.agents += 1;
  held.nodes += s.nodes.total;
  held.segments += s.nodes.segments;
  held.entities += s.nodes.entities;
  held.links += s.links.total;
  held.danglingLinks += s.links.dangling;
  held.charactersHeld += s.characters.held;
  held.charactersRemembered += s.characters.remembered;
  held.cycles += counter(s, "cycles");
  held.nodesCompressed += counter(s, "nodes_compressed");
  held.nodesDeleted += counter(s, "nodes_deleted");
  held.nodesEvicted += counter(s, "nodes_evicted");
}

/**
 * Feeds `agent`, asks `texts` in both modes, the preset's extras and (when the preset wants them)
 * context blocks, and adds everything to `run`; returns the recalled items per mode, the extras and
 * the blocks, in the order of `texts`, for the caller to score.
 */
async function feedAndAsk(
  run: PresetRun,
  agent: AgentApi,
  submissions: readonly (readonly Message[])[],
  texts: readonly string[],
  lang: "en" | "zh",
  step: Step,
  retention: boolean,
): Promise<{ items: Record<QueryMode, RetrievedItem[][]>; extras: ExtraAnswers; contexts: ContextAnswers | null; stats: Stats }> {
  const fed = await ingest(agent, run.preset, submissions, (d, t) => step(`remember ${d}/${t}`));
  await addMeaning(run, agent, submissions);
  if (run.held.agents === 0) run.config = fed.config;
  run.ingestionMs += fed.ms;
  run.messages += fed.messages;
  run.rememberCalls += fed.rememberCalls;
  run.extraCycles += fed.extraCycles;
  addStats(run.held, fed.stats);
  const items: Record<QueryMode, RetrievedItem[][]> = { question: [], keywords: [] };
  for (const mode of QUERY_MODES) {
    const answers = await askAll(agent, texts, lang, mode, (d, t) => step(`recall (${mode}) ${d}/${t}`));
    items[mode] = answers.items;
    run.latenciesMs[mode].push(...answers.latenciesMs);
    run.emptyQueries[mode] += answers.emptyQueries;
  }
  const extras = run.preset.extras;
  const out: ExtraAnswers = { ablations: [], searchModes: null, retention: [] };
  if (extras.includes("ablations")) {
    out.ablations = await askAblations(agent, texts, lang, (name, d, t) => step(`ablation ${name} ${d}/${t}`));
  }
  if (extras.includes("search")) out.searchModes = await askSearchModes(agent, texts, (mode, d, t) => step(`search (${mode}) ${d}/${t}`));
  if (extras.includes("retention") && retention) {
    out.retention = await askRetention(agent, texts, lang, (cycles, d, t) => step(`retention ${cycles} cycles ${d}/${t}`));
  }
  const contexts = run.preset.contextBlock ? await askContexts(agent, texts, lang, (d, t) => step(`context ${d}/${t}`)) : null;
  return { items, extras: out, contexts, stats: fed.stats };
}

/** Scores the extras of one agent with `score` and adds them to `run`. */
function addExtras(
  run: PresetRun,
  extras: ExtraAnswers,
  questionItems: RetrievedItem[][],
  score: (items: RetrievedItem[][]) => CategorisedScores[],
): void {
  if (extras.ablations.length > 0) {
    const steps = [...extras.ablations, questionItems];
    ABLATION_STEPS.forEach((_s, i) => {
      run.ablations[i] = [...(run.ablations[i] ?? []), ...score(steps[i] ?? [])];
    });
  }
  if (extras.searchModes) {
    const modes = extras.searchModes;
    run.searchModes ??= { keyword: [], vector: [], hybrid: [] };
    for (const mode of SEARCH_MODES) run.searchModes[mode].push(...score(modes[mode]));
  }
  if (extras.retention.length > 0) {
    const first = { cycles: 0, items: questionItems, held: Number.NaN, remembered: Number.NaN };
    [first, ...extras.retention].forEach((point, i) => {
      const at = (run.retention[i] ??= { cycles: point.cycles, rows: [], held: 0, remembered: 0 });
      at.rows.push(...score(point.items));
      at.held += point.held;
      at.remembered += point.remembered;
    });
  }
}

/** Looks an item's answers up by identity (the scorers walk the questions in their own order). */
function lookup<Q>(questions: readonly Q[], items: readonly RetrievedItem[][]): (q: Q) => RetrievedItem[] {
  const byQuestion = new Map(questions.map((q, i) => [q, items[i] ?? []] as const));
  return (q) => byQuestion.get(q) ?? [];
}

export async function runLocomoPreset(
  http: HttpClient,
  preset: Preset,
  conversations: readonly LocomoConversation[],
  step: Step,
): Promise<PresetRun> {
  const run = emptyRun(preset);
  for (const [i, conv] of conversations.entries()) {
    const agent = new AgentApi(http, agentId(preset.name, `c${i}`, conv.sampleId));
    const submissions = toRememberCalls(conv).map((c) => c.messages);
    const texts = conv.questions.map((q) => q.question);
    const label = `${preset.name} · ${conv.sampleId} (${i + 1}/${conversations.length})`;
    const { items, extras, contexts, stats } = await feedAndAsk(run, agent, submissions, texts, "en", (s) => step(`${label} · ${s}`), true);
    run.charactersByConversation.set(conv.sampleId, { held: stats.characters.held, remembered: stats.characters.remembered });
    if (preset.profile) {
      step(`${label} · profiles`);
      run.profiles.set(conv.sampleId, await askLocomoProfiles(agent, conv));
    }
    const score = (answers: RetrievedItem[][]) => scoreLocomoConversation(conv, lookup<LocomoQuestion>(conv.questions, answers));
    for (const mode of QUERY_MODES) run.rows[mode].push(...score(items[mode]));
    run.byConversation.set(conv.sampleId, score(items.question));
    addExtras(run, extras, items.question, score);
    if (run.context && contexts) {
      const evidence = (q: LocomoQuestion) => locomoEvidence(conv, q);
      scoreContexts(run.context, conv.questions, contexts, evidence, (q) => q.category, locomoScoringOptions(conv));
    }
  }
  const held = run.held;
  // The curve's first point holds what the preset held after ingestion.
  const first = run.retention[0];
  if (first) [first.held, first.remembered] = [held.charactersHeld, held.charactersRemembered];
  return run;
}

export async function runMadialPreset(http: HttpClient, preset: Preset, ds: MadialDataset, step: Step): Promise<PresetRun> {
  const run = emptyRun(preset);
  const agent = new AgentApi(http, agentId(preset.name, "madial"));
  // Each memory record is its own remember call: the records are separate events of the user's life.
  const submissions = toMadialMessages(ds.memories, ds.userNames[0]).map((m) => [m]);
  const { items, extras, contexts } = await feedAndAsk(
    run,
    agent,
    submissions,
    ds.items.map((it) => it.query),
    "zh",
    (s) => step(`${preset.name} · MADial · ${s}`),
    false,
  );
  const user = ds.userNames[0];
  if (preset.profile && user !== undefined) run.madialProfile = await askMadialProfile(agent, user);
  const score = (answers: RetrievedItem[][]) => scoreMadial(ds, lookup<MadialItem>(ds.items, answers));
  for (const mode of QUERY_MODES) run.rows[mode] = score(items[mode]);
  addExtras(run, extras, items.question, score);
  if (run.context && contexts) {
    scoreContexts(
      run.context,
      ds.items,
      contexts,
      (item) => madialEvidence(ds, item),
      () => 0,
      madialScoringOptions(ds),
    );
  }
  return run;
}
