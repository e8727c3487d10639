/**
 * In-process quality probe: the quality benchmark's protocol (../shared/bench/README.md) on agents
 * run in this process (bench/offline/offline-agent.ts: the Durable Object's runtime, queue runner
 * and operations over in-memory SQLite, with the local model and vector index; no Worker, no HTTP).
 * Seconds instead of minutes, so parameters can be compared quickly and on a subset of the data:
 *
 *   npm run bench:offline -- --locomo FILE [--madial DIR] [--conv conv-26,conv-30]
 *       [--preset default,no-forgetting,pressure,retention] [--variants '[{"name":"x","params":{...}}]']
 *   npm run bench:offline -- --locomo FILE --madial DIR --entities [--show tune]
 *   npm run bench:offline -- --locomo FILE [--conv …] --forgetting
 *
 * `--entities`: the entity benchmark (bench/quality/annotations) on in-process agents, one per text,
 * as bench:quality runs it through the API; `--show tune` also lists each tuning text's junk and
 * misses (never the held-back ones: those are only counted).
 * `--forgetting`: `no-forgetting` and `pressure` on each conversation and the table of
 * bench/quality/forgetting.ts (the network beside naive policies at the characters it held).
 * `--variants` are agent parameter patches (docs/design.md, "Agent parameters") set through the
 * configuration operation before the questions, after the conversation was remembered under the
 * preset. Numbers are exact ids, categories 1–4 pooled. The record is `npm run bench:quality`,
 * which drives the API of a local server.
 */
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
import { OfflineAgent, type RecalledItem } from "./offline/offline-agent";
import { refKey } from "./quality/annotations";
import { loadEntityAnnotations } from "./quality/annotations-load";
import { poolEntityScores, scoreText } from "./quality/entity-score";
import { entityMessage } from "./quality/meaning";
import { AgentParamsPatchSchema, DEFAULT_PARAMS, patchedParams, type AgentParams, type AgentParamsPatch } from "../src/config/params";

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

function line(name: string, rows: readonly CategorisedScores[], extra = ""): string {
  const pooled = summarizeByCategory(rows).pooled ?? aggregate(rows.map((r) => r.scores));
  if (!pooled) return `${name}: no questions`;
  const { recall: r, hit: h, budgetRecall: b } = pooled.exact;
  const f = (x: number) => x.toFixed(3);
  const ab = pooled.answerBearing ? ` AB@10 ${f(pooled.answerBearing.recall[10])}` : "";
  return `${name.padEnd(32)} n=${pooled.questions} R@1 ${f(r[1])} R@5 ${f(r[5])} R@10 ${f(r[10])} R@20 ${f(r[20])} hit@5 ${f(h[5])} B256 ${f(b[256])}${ab} ${extra}`;
}

function variantsOf(): { name: string; params: AgentParamsPatch }[] {
  if (!values.variants) return [{ name: "params", params: {} }];
  const parsed: unknown = JSON.parse(values.variants);
  if (!Array.isArray(parsed)) throw new Error("--variants: a JSON array of {name, params}");
  return parsed.map((v: { name?: unknown; params?: unknown }) => ({
    name: String(v.name),
    params: AgentParamsPatchSchema.parse(v.params ?? {}),
  }));
}

async function feed(conv: LocomoConversation, preset: SimPreset): Promise<OfflineAgent> {
  const agent = await OfflineAgent.create(preset.params);
  for (const call of toRememberCalls(conv)) {
    await agent.remember(call.messages);
    if (preset.cyclePerTurn) await agent.compress(call.messages.length);
  }
  return agent;
}

/** The conversation's questions recalled under `params` (set on the agent first when they differ). */
async function ask(conv: LocomoConversation, agent: OfflineAgent | undefined, params: AgentParams): Promise<CategorisedScores[]> {
  if (!agent) throw new Error(`no agent for ${conv.sampleId}`);
  if (JSON.stringify(agent.state.meta.params()) !== JSON.stringify(params)) await agent.configure(params);
  const answers = new Map<string, RetrievedItem[]>();
  for (const q of conv.questions) answers.set(q.question, await agent.recall(q.question, 20));
  return scoreLocomoConversation(conv, (q) => answers.get(q.question) ?? []);
}

async function charactersHeld(agents: readonly OfflineAgent[]): Promise<number> {
  let n = 0;
  for (const a of agents) n += await a.charactersHeld();
  return n;
}

const charactersRemembered = (agents: readonly OfflineAgent[]): number => agents.reduce((s, a) => s + a.charactersRemembered(), 0);

async function held(agents: readonly OfflineAgent[]): Promise<string> {
  return `held ${((await charactersHeld(agents)) / Math.max(charactersRemembered(agents), 1)).toFixed(3)}`;
}

/** Each conversation's agent after each of RETENTION_CYCLES cycles (counted from the start): its questions' rows. */
async function* retentionCurve(
  convs: readonly LocomoConversation[],
  agents: readonly OfflineAgent[],
  params: AgentParams,
): AsyncGenerator<{ cycles: number; rows: CategorisedScores[] }> {
  let done = 0;
  for (const at of RETENTION_CYCLES) {
    for (const agent of agents) await agent.compress(at - done);
    done = at;
    const rows: CategorisedScores[] = [];
    for (const [i, conv] of convs.entries()) rows.push(...(await ask(conv, agents[i], params)));
    yield { cycles: at, rows };
  }
}

/** The entity benchmark in process: a fresh agent per annotated text, its entity nodes scored. */
async function entities(): Promise<void> {
  const { items } = loadEntityAnnotations({
    ...(values.locomo ? { locomo: values.locomo } : {}),
    ...(values.madial ? { madial: values.madial } : {}),
  });
  const verdicts = [];
  for (const item of items) {
    const agent = await OfflineAgent.create({ ...DEFAULT_PARAMS, auto_compress: false });
    await agent.remember([entityMessage(item)]);
    const names = await agent.entityNames();
    agent.close();
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
        pressure.characters.set(conv.sampleId, { held: await agent.charactersHeld(), remembered: agent.charactersRemembered() });
      agent.close();
    }
  }
  // The retention curve: the network as remembered, then cycles at the default decay (as bench:quality).
  const retention: { cycles: number; rows: CategorisedScores[]; held: number; remembered: number }[] = [];
  const preset = SIM_PRESETS.retention;
  if (preset) {
    const agents: OfflineAgent[] = [];
    for (const conv of convs) agents.push(await feed(conv, preset));
    for await (const { cycles, rows } of retentionCurve(convs, agents, preset.params)) {
      retention.push({ cycles, rows, held: await charactersHeld(agents), remembered: charactersRemembered(agents) });
    }
    for (const agent of agents) agent.close();
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
      const agents: OfflineAgent[] = [];
      for (const conv of convs) agents.push(await feed(conv, preset));
      if (name === "retention") {
        for await (const { cycles, rows } of retentionCurve(convs, agents, preset.params)) {
          console.log(line(`retention after ${cycles} cycles`, rows, await held(agents)));
        }
      } else {
        for (const v of variants) {
          const params = patchedParams(preset.params, v.params);
          const rows: CategorisedScores[] = [];
          for (const [i, conv] of convs.entries()) rows.push(...(await ask(conv, agents[i], params)));
          console.log(line(`${name}/${v.name}`, rows, await held(agents)));
        }
      }
      for (const agent of agents) agent.close();
    }
  }
  if (values.madial) {
    const ds = loadMadial(values.madial);
    const retrieve = bm25MadialRetriever(ds, 20);
    console.log(
      line(
        "madial bm25",
        scoreMadial(ds, (item) => retrieve(item.query)),
      ),
    );
    for (const name of presets) {
      const preset = SIM_PRESETS[name];
      if (!preset || name === "retention") continue;
      const agent = await OfflineAgent.create(preset.params);
      for (const m of toMadialMessages(ds.memories, ds.userNames[0])) {
        await agent.remember([m]);
        if (preset.cyclePerTurn) await agent.compress(1);
      }
      for (const v of variants) {
        await agent.configure(patchedParams(preset.params, v.params));
        const answers = new Map<string, RecalledItem[]>();
        for (const item of ds.items) answers.set(item.query, await agent.recall(item.query, 20));
        console.log(
          line(
            `madial ${name}/${v.name}`,
            scoreMadial(ds, (item) => answers.get(item.query) ?? []),
          ),
        );
      }
      agent.close();
    }
  }
}

await main();
