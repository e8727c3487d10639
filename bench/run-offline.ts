/**
 * In-process quality probe: the quality benchmark's protocol (../shared/bench/README.md) on agents
 * simulated in this process (bench/offline/sim-agent.ts: the same remember plan, graph, compression
 * plan, local model and recall engine the Durable Object runs, without D1, the queue or HTTP).
 * Seconds instead of minutes, so parameters can be compared quickly and on a subset of the data:
 *
 *   npm run bench:offline -- --locomo FILE [--madial DIR] [--conv conv-26,conv-30]
 *       [--preset default,no-forgetting,pressure,retention] [--variants '[{"name":"x","params":{...}}]']
 *   npm run bench:offline -- --locomo FILE --madial DIR --entities [--show tune]
 *   npm run bench:offline -- --locomo FILE [--conv …] --forgetting [--reinforce-top K]
 *   npm run bench:offline -- --madial DIR --semantic [--vector-weights 0.3,0.5]
 *
 * `--entities`: the entity benchmark (bench/quality/annotations) on simulated agents, one per text,
 * as bench:quality runs it through the API; `--show tune` also lists each tuning text's junk and
 * misses (never the held-back ones: those are only counted).
 * `--forgetting`: `no-forgetting` and `pressure` on each conversation and the table of
 * bench/quality/forgetting.ts (the network beside naive policies at the characters it held).
 * `--semantic`: MADial's agents embed with the semantic arm's word vectors (quality/semantic-arm.ts)
 * instead of the hashed embedder; `--vector-weights` asks them once per fusion weight in place of the
 * embedder's own (src/config/retrieval.ts). MADial lines are also given per half of its items (the
 * first half tunes, the second is held back).
 * `--reinforce-top K` (with `--forgetting`): under `pressure`, before each session is remembered,
 * every one of its messages is first a recall (the message as query) whose top K memories are
 * reported used (reinforcement, docs/design.md "Memory operations"): use as a live agent would
 * make it, from the conversation alone, never from the questions.
 * `--variants` are agent parameter patches (docs/design.md §2) applied at recall only. Numbers are
 * exact ids, categories 1–4 pooled. The record is `npm run bench:quality`, which drives the real API;
 * this probe reproduced its figures exactly when it was written (docs/BENCHMARKS.md).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { aggregate, summarizeByCategory, type CategorisedScores } from "./lib/aggregate";
import { bm25LocomoRetriever, bm25MadialRetriever } from "./lib/baseline";
import { scoreLocomoConversation, scoreMadial } from "./lib/evaluate";
import { loadLocomo, loadMadial } from "./lib/load";
import { toRememberCalls, type LocomoConversation } from "./lib/locomo";
import { toMadialMessages } from "./lib/madial";
import type { RetrievedItem } from "./lib/metrics";
import { RETENTION_CYCLES } from "./quality/presets";
import { forgettingAtPressure, forgettingCurve, forgettingTables } from "./quality/forgetting";
import { renderTables } from "./lib/table";
import { LOCAL_SIM_EMBEDDER, SimAgent, type SimEmbedder } from "./offline/sim-agent";
import { vectorFile } from "./quality/semantic-arm";
import { halvesOf } from "./quality/madial-halves";
import { embedWords, parseWord2vec } from "./quality/word-vectors";
import { BENCH_EMBEDDER_NAME } from "../src/models/local/http-embedder";
import { refKey } from "./quality/annotations";
import { loadEntityAnnotations } from "./quality/annotations-load";
import { poolEntityScores, scoreText } from "./quality/entity-score";
import { entityMessage } from "./quality/meaning";
import { simRecall } from "./offline/sim-recall";
import { AgentParamsPatchSchema, AgentParamsSchema, DEFAULT_PARAMS, type AgentParams } from "../src/config/params";
import type { MemoryNode } from "../src/vocabulary/records";

const { values } = parseArgs({
  options: {
    locomo: { type: "string" },
    madial: { type: "string" },
    conv: { type: "string", default: "" },
    preset: { type: "string", default: "default" },
    variants: { type: "string", default: "" },
    entities: { type: "boolean", default: false },
    show: { type: "string", default: "" },
    forgetting: { type: "boolean", default: false },
    semantic: { type: "boolean", default: false },
    "vector-weights": { type: "string", default: "" },
    "reinforce-top": { type: "string", default: "0" },
  },
});

interface SimPreset {
  params: AgentParams;
  cyclePerTurn: boolean;
}

const SIM_PRESETS: Record<string, SimPreset> = {
  default: { params: DEFAULT_PARAMS, cyclePerTurn: false },
  "no-forgetting": { params: { ...DEFAULT_PARAMS, decay_rate: 1, auto_compress: false }, cyclePerTurn: false },
  pressure: { params: { ...DEFAULT_PARAMS, auto_compress: false }, cyclePerTurn: true },
  retention: { params: { ...DEFAULT_PARAMS, auto_compress: false }, cyclePerTurn: false },
};

const toItems = (nodes: readonly MemoryNode[]): RetrievedItem[] => nodes.map((n) => ({ sourceIds: n.sourceMessageIds, text: n.content }));

function line(name: string, rows: readonly CategorisedScores[], extra = ""): string {
  const pooled = summarizeByCategory(rows).pooled ?? aggregate(rows.map((r) => r.scores));
  if (!pooled) return `${name}: no questions`;
  const { recall: r, hit: h, budgetRecall: b } = pooled.exact;
  const f = (x: number) => x.toFixed(3);
  const ab = pooled.answerBearing ? ` AB@10 ${f(pooled.answerBearing.recall[10])}` : "";
  return `${name.padEnd(32)} n=${pooled.questions} R@1 ${f(r[1])} R@5 ${f(r[5])} R@10 ${f(r[10])} R@20 ${f(r[20])} hit@5 ${f(h[5])} B256 ${f(b[256])}${ab} ${extra}`;
}

function variantsOf(): { name: string; params: Partial<AgentParams> }[] {
  if (!values.variants) return [{ name: "params", params: {} }];
  const parsed: unknown = JSON.parse(values.variants);
  if (!Array.isArray(parsed)) throw new Error("--variants: a JSON array of {name, params}");
  return parsed.map((v: { name?: unknown; params?: unknown }) => ({
    name: String(v.name),
    params: AgentParamsPatchSchema.parse(v.params ?? {}),
  }));
}

async function feed(conv: LocomoConversation, preset: SimPreset): Promise<SimAgent> {
  const agent = new SimAgent(preset.params);
  const top = Number(values["reinforce-top"]);
  for (const call of toRememberCalls(conv)) {
    // Use as an agent would: each message that arrives is a recall, and its best memories are reported used.
    if (top > 0 && preset.cyclePerTurn)
      for (const m of call.messages) agent.reinforce((await simRecall(agent, m.content, top, preset.params)).map((n) => n.id));
    await agent.remember(call.messages);
    if (preset.cyclePerTurn) await agent.compress(call.messages.length);
  }
  return agent;
}

async function ask(conv: LocomoConversation, agent: SimAgent, params: AgentParams): Promise<CategorisedScores[]> {
  const answers = new Map<string, MemoryNode[]>();
  for (const q of conv.questions) answers.set(q.question, await simRecall(agent, q.question, 20, params));
  return scoreLocomoConversation(conv, (q) => toItems(answers.get(q.question) ?? []));
}

const held = (agents: readonly SimAgent[]): string => {
  const remembered = agents.reduce((s, a) => s + a.charactersRemembered, 0);
  return `held ${(agents.reduce((s, a) => s + a.charactersHeld(), 0) / Math.max(remembered, 1)).toFixed(3)}`;
};

/** The entity benchmark in process: a fresh simulated agent per annotated text, its entity nodes scored. */
async function entities(): Promise<void> {
  const items = loadEntityAnnotations({
    ...(values.locomo ? { locomo: values.locomo } : {}),
    ...(values.madial ? { madial: values.madial } : {}),
  });
  const verdicts = [];
  for (const item of items) {
    const agent = new SimAgent({ ...DEFAULT_PARAMS, auto_compress: false });
    await agent.remember([entityMessage(item)]);
    const names = agent.graph.ofKind("entity", 10_000).map((n) => n.content);
    const verdict = scoreText(item, names);
    verdicts.push({ item, verdict });
    if (values.show === "tune" && item.split === "tune" && (verdict.junk.length > 0 || verdict.missed.length > 0)) {
      console.log(
        `${refKey(item.ref)} ${item.text.slice(0, 100).replace(/\n/g, " ")}\n   got ${JSON.stringify(names)} junk ${JSON.stringify(verdict.junk)} missed ${JSON.stringify(verdict.missed)}`,
      );
    }
  }
  for (const g of poolEntityScores(verdicts)) {
    const s = g.scores;
    console.log(
      `${`${g.lang}/${g.split}`.padEnd(14)} texts ${s.texts} precision ${s.precision.toFixed(3)} (${s.matched}/${s.returned}) recall ${s.recall.toFixed(3)} (${s.found}/${s.must})`,
    );
  }
}

/** `no-forgetting` and `pressure` per conversation, then the forgetting comparison (forgetting.ts). */
async function forgetting(convs: readonly LocomoConversation[]): Promise<void> {
  const bm25 = new Map<string, CategorisedScores[]>();
  const pressure = { rows: new Map<string, CategorisedScores[]>(), characters: new Map<string, { held: number; remembered: number }>() };
  const noForgetting = { rows: new Map<string, CategorisedScores[]>() };
  for (const conv of convs) {
    const retrieve = bm25LocomoRetriever(conv, 20);
    bm25.set(
      conv.sampleId,
      scoreLocomoConversation(conv, (q) => retrieve(q.question)),
    );
    for (const name of ["no-forgetting", "pressure"] as const) {
      const preset = SIM_PRESETS[name];
      if (!preset) continue;
      const agent = await feed(conv, preset);
      const rows = await ask(conv, agent, preset.params);
      (name === "pressure" ? pressure : noForgetting).rows.set(conv.sampleId, rows);
      if (name === "pressure")
        pressure.characters.set(conv.sampleId, { held: agent.charactersHeld(), remembered: agent.charactersRemembered });
    }
  }
  // The retention curve: the network as remembered, then cycles at DESIGN §2's decay (as bench:quality).
  const retention: { cycles: number; rows: CategorisedScores[]; held: number; remembered: number }[] = [];
  const preset = SIM_PRESETS.retention;
  if (preset) {
    const agents: SimAgent[] = [];
    for (const conv of convs) agents.push(await feed(conv, preset));
    let done = 0;
    for (const at of RETENTION_CYCLES) {
      for (const agent of agents) await agent.compress(at - done);
      done = at;
      const rows: CategorisedScores[] = [];
      for (const [i, conv] of convs.entries()) rows.push(...(await ask(conv, agents[i] ?? new SimAgent(), preset.params)));
      const held = agents.reduce((n, a) => n + a.charactersHeld(), 0);
      retention.push({ cycles: at, rows, held, remembered: agents.reduce((n, a) => n + a.charactersRemembered, 0) });
    }
  }
  const atPressure = forgettingAtPressure({ conversations: convs, bm25, pressure, noForgetting });
  console.log(renderTables(forgettingTables(atPressure, forgettingCurve(convs, bm25, retention)), "text"));
}

async function main(): Promise<void> {
  if (values.entities) return entities();
  const presets = values.preset.split(",").filter((p) => p !== "");
  const variants = variantsOf();
  const only = values.conv.split(",").filter((c) => c !== "");
  if (values.locomo) {
    const ds = loadLocomo(values.locomo);
    const convs = ds.conversations.filter((c) => only.length === 0 || only.includes(c.sampleId));
    const baseline = convs.flatMap((conv) => {
      const retrieve = bm25LocomoRetriever(conv, 20);
      return scoreLocomoConversation(conv, (q) => retrieve(q.question));
    });
    console.log(line(`bm25 (${convs.map((c) => c.sampleId).join(",")})`, baseline));
    if (values.forgetting) return forgetting(convs);
    for (const name of presets) {
      const preset = SIM_PRESETS[name];
      if (!preset) throw new Error(`unknown preset ${name}; known: ${Object.keys(SIM_PRESETS).join(", ")}`);
      const agents: SimAgent[] = [];
      for (const conv of convs) agents.push(await feed(conv, preset));
      if (name === "retention") {
        let done = 0;
        for (const at of RETENTION_CYCLES) {
          for (const agent of agents) await agent.compress(at - done);
          done = at;
          const rows: CategorisedScores[] = [];
          for (const [i, conv] of convs.entries()) rows.push(...(await ask(conv, agents[i] ?? new SimAgent(), preset.params)));
          console.log(line(`retention after ${at} cycles`, rows, held(agents)));
        }
        continue;
      }
      for (const v of variants) {
        const params = AgentParamsSchema.parse({ ...preset.params, ...v.params });
        const rows: CategorisedScores[] = [];
        for (const [i, conv] of convs.entries()) rows.push(...(await ask(conv, agents[i] ?? new SimAgent(), params)));
        console.log(line(`${name}/${v.name}`, rows, held(agents)));
      }
    }
  }
  if (values.madial) {
    const ds = loadMadial(values.madial);
    const retrieve = bm25MadialRetriever(ds, 20);
    const { tuning, "held back": heldBack } = halvesOf(ds.items);
    const halves = [
      { name: "", items: ds.items },
      { name: " tune", items: tuning },
      { name: " held back", items: heldBack },
    ];
    const madialLines = (name: string, answer: (query: string) => RetrievedItem[]) => {
      for (const h of halves)
        console.log(
          line(
            `${name}${h.name}`,
            scoreMadial({ ...ds, items: h.items }, (item) => answer(item.query)),
          ),
        );
    };
    madialLines("madial bm25", retrieve);
    const embedder = values.semantic ? semanticEmbedder() : LOCAL_SIM_EMBEDDER;
    const weights = values["vector-weights"]
      .split(",")
      .filter((w) => w !== "")
      .map(Number);
    for (const name of presets) {
      const preset = SIM_PRESETS[name];
      if (!preset || name === "retention") continue;
      const agent = new SimAgent(preset.params, embedder);
      for (const m of toMadialMessages(ds.memories, ds.userNames[0])) {
        await agent.remember([m]);
        if (preset.cyclePerTurn) await agent.compress(1);
      }
      for (const v of variants) {
        const params = AgentParamsSchema.parse({ ...preset.params, ...v.params });
        for (const weight of weights.length > 0 ? weights : [undefined]) {
          const answers = new Map<string, MemoryNode[]>();
          for (const item of ds.items) answers.set(item.query, await simRecall(agent, item.query, 20, params, weight));
          const label = `madial ${name}/${v.name}${values.semantic ? "/semantic" : ""}${weight === undefined ? "" : ` w=${weight}`}`;
          madialLines(label, (query) => toItems(answers.get(query) ?? []));
        }
      }
    }
  }
}

/** The semantic arm's embedder in process: the mean of the cached word vectors (semantic-arm.ts). */
function semanticEmbedder(): SimEmbedder {
  const found = vectorFile();
  if ("skipped" in found) throw new Error(`--semantic: ${found.skipped}`);
  const vectors = parseWord2vec(readFileSync(found.file));
  return { name: BENCH_EMBEDDER_NAME, embed: (texts) => texts.map((t) => Float32Array.from(embedWords(t, vectors))) };
}

await main();
