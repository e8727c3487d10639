/**
 * Model economy (docs/design.md, "Model economy"): a remember asks the model once per window (the
 * digest: segments, extractions and the episode summary), relation names are classical, a recall
 * calls no text model unless `expand` asks for it, and a repeated query's embedding is reused.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DigestAhead } from "../src/engine/digest-ahead";
import { EmbeddingsAhead } from "../src/engine/embeddings-ahead";
import { AHEAD_FILL_PAIRS, NOTHING_FORESEEN, VerdictsAhead } from "../src/engine/verdicts-ahead";
import { digestByTasks, joinWindowDigests } from "../src/models/digest";
import { LocalEmbedder, LocalModel } from "../src/models/local/local-model";
import { DEFAULT_MODEL_POLICY, modelPolicyOf } from "../src/config/model-policy";
import { PolicyModel } from "../src/models/policy-model";
import { createModel } from "../src/models/providers";
import { QueryVectors } from "../src/models/query-vectors";
import { ResilientModel } from "../src/models/resilient-model";
import { retryPolicy } from "../src/models/retry";
import type { ConflictPair, ConflictVerdict, Embedder, ModelMessage, SmallModel, WindowDigest } from "../src/models/types";
import type { AiBinding } from "../src/models/workers-ai/ai-client";
import { WorkersAiError } from "../src/models/workers-ai/workers-ai-error";
import { WorkersAiModel } from "../src/models/workers-ai/workers-ai-model";
import { agentRows, call, drainAlarms, freshAgent, json, rememberAndWait, stubOf } from "./helpers";
import { linksAsTheyStand, scanCounts } from "./agent-access";
import { MemoryAgent } from "../src/agent/memory-agent";

const MODEL = "@cf/google/gemma-4-26b-a4b-it";
const ChatInputs = z.object({
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  response_format: z.object({ json_schema: z.object({ name: z.string() }) }),
});
const DigestInput = z.object({
  max: z.number(),
  messages: z.array(
    z.object({ index: z.number(), speaker: z.string(), role: z.enum(["user", "assistant", "system"]), content: z.string() }),
  ),
});

const DigestsInput = z.object({ max: z.number(), conversations: z.array(DigestInput.pick({ messages: true })) });

/** A Workers AI binding that answers the digest with the local model's three tasks, recording task names. */
function digestingAi(tamper: (answer: { segments: Record<string, unknown>[]; summary: string }) => void = () => {}): AiBinding & {
  tasks: string[];
} {
  const local = new LocalModel();
  const tasks: string[] = [];
  return {
    tasks,
    async run(_model, inputs) {
      const chat = ChatInputs.parse(inputs);
      const name = chat.response_format.json_schema.name;
      tasks.push(name);
      const raw: unknown = JSON.parse(chat.messages.at(-1)?.content ?? "null");
      if (name === "window_digests") {
        const many = DigestsInput.parse(raw);
        const conversations = [];
        for (const c of many.conversations) {
          const d = await digestByTasks(local, c.messages, many.max);
          const answer = { segments: d.segments.map((s, i) => ({ ...s, ...d.extractions[i] })), summary: d.summary };
          tamper(answer);
          conversations.push(answer);
        }
        return { choices: [{ message: { content: JSON.stringify({ conversations }) }, finish_reason: "stop" }] };
      }
      const input = DigestInput.parse(raw);
      const messages: ModelMessage[] = input.messages.map((m) => ({ index: m.index, role: m.role, content: m.content }));
      const d = await digestByTasks(local, messages, input.max);
      const answer = { segments: d.segments.map((s, i) => ({ ...s, ...d.extractions[i] })), summary: d.summary };
      tamper(answer);
      return { choices: [{ message: { content: JSON.stringify(answer) }, finish_reason: "stop" }] };
    },
  };
}

const conversation = (n: number): ModelMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    index: i,
    role: i % 2 === 0 ? "user" : "assistant",
    content: `Message ${i}: Alice moved the billing service to Postgres ${i} days ago, and the Berlin team reviewed the migration plan.`,
  }));

describe("the window digest", () => {
  it("answers segments, one extraction per segment and the summary of a 10-message remember in one call", async () => {
    const ai = digestingAi();
    const model = new WorkersAiModel(ai, { model: MODEL });
    const messages = conversation(10);
    const digest = await model.digest(messages, 80);
    expect(ai.tasks).toEqual(["window_digest"]);
    const local = await digestByTasks(new LocalModel(), messages, 80);
    expect(digest.segments).toEqual(local.segments);
    expect(digest.summary).toBe(local.summary);
    expect(digest.segments.length).toBeGreaterThan(0);
    // The extract task's validator applies (at most ENTITIES_MAX entities, most salient first).
    expect(digest.extractions.map((e) => [e.phrase, e.entities])).toEqual(local.extractions.map((e) => [e.phrase, e.entities.slice(0, 3)]));
  });

  it("rejects a digest that drops text or overruns the summary, as the separate tasks' validators do", async () => {
    const dropping = new WorkersAiModel(
      digestingAi((a) => a.segments.pop()),
      { model: MODEL },
    );
    await expect(dropping.digest(conversation(4), 80)).rejects.toBeInstanceOf(WorkersAiError);
    const long = new WorkersAiModel(
      digestingAi((a) => (a.summary = "x".repeat(81))),
      { model: MODEL },
    );
    await expect(long.digest(conversation(4), 80)).rejects.toBeInstanceOf(WorkersAiError);
  });

  it("falls back to the local model for a window whose digest fails, and counts the fallback", async () => {
    const ai = digestingAi((a) => a.segments.pop());
    const fellBack: string[] = [];
    const model = new ResilientModel(
      new WorkersAiModel(ai, { model: MODEL }),
      new LocalModel(),
      retryPolicy(0, async () => {}),
      {
        failed: () => {},
        fellBack: (op) => fellBack.push(op),
      },
    );
    const messages = conversation(6);
    expect(await model.digest(messages, 80)).toEqual(await digestByTasks(new LocalModel(), messages, 80));
    expect(fellBack).toEqual(["digest"]);
  });

  it("joins windows: a message cut by a window boundary is one segment again, with one merged extraction", () => {
    const text = "First half of a thought. Second half of the same thought.";
    const cut = text.indexOf("Second");
    const windows = [
      { messages: [{ index: 0, role: "user" as const, content: text.slice(0, cut - 1) }] },
      { messages: [{ index: 0, role: "user" as const, content: text.slice(cut) }], continuation: { index: 0, gap: " " } },
    ];
    const digests: WindowDigest[] = [
      {
        segments: [{ text: text.slice(0, cut - 1), messageIndexes: [0] }],
        extractions: [{ phrase: "first", keywords: ["thought"], entities: ["A"] }],
        summary: "One.",
      },
      {
        segments: [{ text: text.slice(cut), messageIndexes: [0] }],
        extractions: [{ phrase: "second", keywords: ["half"], entities: ["B"] }],
        summary: "Two.",
      },
    ];
    const joined = joinWindowDigests(windows, digests, 6);
    expect(joined.segments).toEqual([{ text, messageIndexes: [0] }]);
    expect(joined.extractions).toEqual([{ phrase: "first", keywords: ["thought", "half"], entities: ["A"] }]);
    expect(joined.summary).toBe("One. T");
  });
});

describe("query embeddings", () => {
  it("embeds a repeated query once, keeps the most recent queries and asks again after a failure", async () => {
    const asked: string[] = [];
    let fail = false;
    const embedder: Embedder = {
      name: "counting",
      dimensions: 2,
      async embed(texts) {
        asked.push(...texts);
        if (fail) throw new Error("unavailable");
        return texts.map((t) => Float32Array.from([t.length, 1]));
      },
    };
    const vectors = new QueryVectors(embedder, 2);
    await vectors.vector("a");
    await vectors.vector("a");
    await vectors.vector("bb");
    await vectors.vector("ccc");
    await vectors.vector("a");
    expect(asked).toEqual(["a", "bb", "ccc", "a"]);
    fail = true;
    await expect(vectors.vector("dddd")).rejects.toThrow("unavailable");
    fail = false;
    expect(Array.from((await vectors.vector("dddd")) ?? [])).toEqual([4, 1]);
  });
});

/** The local model, counting every call by task. */
function countingModel(local: SmallModel, calls: Map<string, number>): SmallModel {
  const count = (task: string): void => void calls.set(task, (calls.get(task) ?? 0) + 1);
  return {
    name: "counting",
    segment: (m) => (count("segment"), local.segment(m)),
    extract: (t) => (count("extract"), local.extract(t)),
    nameRelations: (r) => (count("nameRelations"), local.nameRelations(r)),
    compress: (t, n) => (count("compress"), local.compress(t, n)),
    summarize: (t, n) => (count("summarize"), local.summarize(t, n)),
    queryKeywords: (q) => (count("queryKeywords"), local.queryKeywords(q)),
    judgeConflicts: (p) => (count("judgeConflicts"), local.judgeConflicts(p)),
    sameEntities: (p) => (count("sameEntities"), local.sameEntities(p)),
    digest: (m, max) => (count("digest"), digestByTasks(local, m, max)),
  };
}

describe("an agent's model calls", () => {
  it("a remember asks one digest and names relations without the model; a recall asks nothing unless expand", async () => {
    const agent = freshAgent("economy");
    const calls = new Map<string, number>();
    await runInDurableObject(stubOf(agent), (instance) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.models.primaryModel = countingModel(new LocalModel(), calls);
    });
    const messages = conversation(10).map((m) => ({ role: m.role, content: m.content }));
    expect((await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } })).status).toBe(200);
    expect((await call(`/v1/agents/${agent}/remember`, { body: { messages } })).status).toBe(202);
    await drainAlarms(agent);
    expect(calls.get("digest")).toBe(1);
    for (const task of ["segment", "extract", "summarize", "nameRelations", "queryKeywords"]) expect(calls.get(task)).toBeUndefined();
    const recall = await call(`/v1/agents/${agent}/recall`, {
      body: { query: "Where did Alice move the billing service?", format: "json" },
    });
    expect(recall.status).toBe(200);
    expect((await json<{ items: unknown[] }>(recall)).items.length).toBeGreaterThan(0);
    expect(calls.get("queryKeywords")).toBeUndefined();
    const expanded = await call(`/v1/agents/${agent}/recall`, {
      body: { query: "Where did Alice move the billing service?", expand: true },
    });
    expect(expanded.status).toBe(200);
    expect(calls.get("queryKeywords")).toBe(1);
  });
});

describe("model_policy", () => {
  it("parses MODEL_POLICY over the default and refuses unknown operations or providers", () => {
    expect(modelPolicyOf(undefined)).toEqual(DEFAULT_MODEL_POLICY);
    expect(modelPolicyOf("compression=workers-ai, conflicts=local")).toEqual({
      ...DEFAULT_MODEL_POLICY,
      compression: "workers-ai",
      conflicts: "local",
    });
    expect(() => modelPolicyOf("ranking=local")).toThrow(/MODEL_POLICY/);
    expect(() => modelPolicyOf("compression=openai")).toThrow(/MODEL_POLICY/);
  });

  it("sends each operation where the policy says: compression locally, a digest with local summaries to Workers AI", async () => {
    const ai = digestingAi((a) => (a.summary = "Remote summary."));
    const model = new PolicyModel(new WorkersAiModel(ai, { model: MODEL }), new LocalModel(), () => modelPolicyOf("summaries=local"));
    const long = "The JWT migration of the login module finished yesterday, and the whole team celebrated with pizza.";
    expect(await model.compress(long, 30)).toBe(await new LocalModel().compress(long, 30));
    // The shortened text's phrase and keywords follow compression, not extraction.
    expect(await model.extractCompressed(["JWT migration done"])).toEqual(await new LocalModel().extract(["JWT migration done"]));
    expect(await model.summarizeCompressed([long], 40)).toBe(await new LocalModel().summarize([long], 40));
    expect(ai.tasks).toEqual([]);
    const messages = conversation(4);
    const digest = await model.digest(messages, 80);
    expect(ai.tasks).toEqual(["window_digest"]);
    expect(digest.summary).toBe((await digestByTasks(new LocalModel(), messages, 80)).summary);
    expect(model.digestMany).toBeDefined();
    const local = new PolicyModel(new WorkersAiModel(ai, { model: MODEL }), new LocalModel(), () => modelPolicyOf("extraction=local"));
    expect(local.digestMany).toBeUndefined();
  });

  it("an agent's own choices apply over the deployment's, operation by operation, from their place in the queue", async () => {
    const [mine, other] = [freshAgent("policy-own"), freshAgent("policy-default")];
    const ais = new Map<string, ReturnType<typeof digestingAi>>();
    for (const agent of [mine, other]) {
      const ai = digestingAi();
      ais.set(agent, ai);
      await runInDurableObject(stubOf(agent), (instance) => {
        const { state } = MemoryAgent.testAccess(instance);
        // The deployment of a hosted service: Workers AI, MODEL_POLICY unset.
        state.models.primaryModel = createModel(
          { MODEL_PROVIDER: "workers-ai", AI: ai, AI_TEXT_MODEL: MODEL },
          () => state.meta.params().model_policy,
        );
      });
    }
    const tasks = (agent: string) => ais.get(agent)?.tasks.length ?? -1;
    const put = async (agent: string, model_policy: Record<string, string>) => {
      const res = await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { model_policy } });
      expect(res.status).toBe(200);
      return (await json<{ model_policy: Record<string, string> }>(res)).model_policy;
    };
    expect(await put(mine, { extraction: "local" })).toEqual({
      extraction: "local",
      compression: "default",
      conflicts: "default",
      summaries: "default",
    });
    // A second change names another operation: the first choice stays.
    expect(await put(mine, { summaries: "local" })).toEqual({
      extraction: "local",
      compression: "default",
      conflicts: "default",
      summaries: "local",
    });
    await rememberAndWait(mine, [{ role: "user", content: "Alice moved the billing service to Postgres.", id: "p1" }]);
    await rememberAndWait(other, [{ role: "user", content: "Alice moved the billing service to Postgres.", id: "p1" }]);
    expect(tasks(mine)).toBe(0);
    expect(tasks(other)).toBeGreaterThan(0);
    // Queued behind a remember, the change back applies to the remembers after it only.
    const before = { role: "user" as const, content: "Bob reviewed the migration plan in Berlin.", id: "p2" };
    const after = { role: "user" as const, content: "Carol signed the Postgres contract.", id: "p3" };
    expect((await call(`/v1/agents/${mine}/remember`, { body: { messages: [before] } })).status).toBe(202);
    expect(
      (await call(`/v1/agents/${mine}/config`, { method: "PUT", body: { model_policy: { extraction: "default" } } })).status,
    ).toBeLessThan(300);
    expect((await call(`/v1/agents/${mine}/remember`, { body: { messages: [after] } })).status).toBe(202);
    await drainAlarms(mine);
    expect(ais.get(mine)?.tasks).toEqual(["window_digest"]);
    const config = await json<{ model_policy: Record<string, string> }>(await call(`/v1/agents/${mine}/config`));
    expect(config.model_policy).toEqual({ extraction: "default", compression: "default", conflicts: "default", summaries: "local" });
  });

  it("a digest asked ahead under the old policy is not used by a remember queued after the change", async () => {
    const agent = freshAgent("policy-ahead");
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Workers AI's answers are marked: its keywords and its episode summary say whose digest a memory got.
    const remote = digestingAi((a) => {
      a.segments.forEach((s) => (s.keywords = ["remotekeyword"]));
      a.summary = "Remote summary.";
    });
    const ai: AiBinding = { run: async (model, inputs) => (await gate, remote.run(model, inputs)) };
    await runInDurableObject(stubOf(agent), (instance) => {
      const { state } = MemoryAgent.testAccess(instance);
      state.models.primaryModel = createModel(
        { MODEL_PROVIDER: "workers-ai", AI: ai, AI_TEXT_MODEL: MODEL },
        () => state.meta.params().model_policy,
      );
    });
    // No compression cycles: the summaries stay as they were written.
    expect((await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } })).status).toBe(200);
    const say = (id: string, content: string) =>
      call(`/v1/agents/${agent}/remember`, { body: { messages: [{ role: "user", content, id }] } });
    // The first remember waits on the model while the others queue behind it.
    for (const [i, who] of ["Dana", "Emil", "Gita"].entries())
      expect((await say(`a${i}`, `${who} opened the Lisbon office.`)).status).toBe(202);
    const changeQueued = () =>
      runInDurableObject(stubOf(agent), (instance) => MemoryAgent.testAccess(instance).state.queue.upcoming("updateConfig", 1).length > 0);
    // The change waits for the writes before it: it is sent without waiting, the next remembers once it is queued.
    const change = call(`/v1/agents/${agent}/config`, { method: "PUT", body: { model_policy: { summaries: "local" } } });
    while (!(await changeQueued())) await new Promise((resolve) => setTimeout(resolve, 5));
    // A full group of queued remembers: their digests are asked ahead while the ones before the change run.
    for (const [i, who] of ["Farah", "Goran", "Hana", "Ivo", "Jana"].entries()) {
      expect((await say(`b${i}`, `${who} painted the Orion mural.`)).status).toBe(202);
    }
    open();
    expect((await change).status).toBe(200);
    await drainAlarms(agent);
    const { db, key } = await agentRows(agent);
    const column = async (sql: string) => (await db.prepare(sql).bind(key).all<{ value: string }>()).results.map((r) => r.value);
    // Extraction stayed with Workers AI throughout …
    const keywords = await column("SELECT keywords AS value FROM nodes WHERE agent = ? AND kind = 'segment' ORDER BY id");
    expect(keywords).toHaveLength(8);
    for (const k of keywords) expect(k).toContain("remotekeyword");
    // … the remembers before the change kept its summaries, those after it have the local model's.
    const summaries = await column("SELECT content AS value FROM nodes WHERE agent = ? AND kind = 'episode' ORDER BY id");
    expect(summaries.map((s) => s.startsWith("Remote"))).toEqual([true, true, true, false, false, false, false, false]);
    expect(remote.tasks.filter((t) => t === "window_digests").length).toBeGreaterThan(1);
  });

  it("shares one call among queued remembers' conversations that fit one window", async () => {
    const ai = digestingAi();
    const model = new WorkersAiModel(ai, { model: MODEL });
    const conversations = [conversation(3), conversation(4), conversation(2)];
    const digests = await model.digestMany(conversations, 80);
    expect(ai.tasks).toEqual(["window_digests"]);
    const local = await Promise.all(conversations.map((c) => digestByTasks(new LocalModel(), c, 80)));
    expect(digests.map((d) => d.segments)).toEqual(local.map((d) => d.segments));
  });
});

describe("digests asked ahead of their turn", () => {
  /** A model whose shared calls are recorded (task ids of each call) and answered by the local model. */
  function sharingModel(fail: () => boolean = () => false): SmallModel & { groups: string[][] } {
    const local = new LocalModel();
    const groups: string[][] = [];
    return {
      ...countingModel(local, new Map()),
      groups,
      digestMany: async (conversations, max) => {
        groups.push(conversations.map((c) => c[0]?.content.split(":")[0] ?? ""));
        if (fail()) throw new Error("unavailable");
        return Promise.all(conversations.map((c) => digestByTasks(local, c, max)));
      },
    };
  }
  const task = (n: number) => ({
    taskId: `t${n}`,
    messages: [{ index: 0, role: "user" as const, content: `t${n}: Alice moved to Berlin in ${n}.` }],
  });
  const queue = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => task(from + i));

  it("asks the running remember with the next four, and full groups of five beyond, once each", async () => {
    const model = sharingModel();
    const ahead = new DigestAhead();
    const first = await ahead.digest(model, task(1), queue(2, 13), 80);
    expect(first).toEqual(await digestByTasks(new LocalModel(), task(1).messages, 80));
    expect(model.groups).toEqual([
      ["t1", "t2", "t3", "t4", "t5"],
      ["t6", "t7", "t8", "t9", "t10"],
    ]);
    // t2 is answered from the first call; t11–t13 wait for a full group or their turn.
    await ahead.digest(model, task(2), queue(3, 14), 80);
    expect(model.groups).toHaveLength(2);
    for (let n = 3; n <= 10; n++) await ahead.digest(model, task(n), queue(n + 1, 14), 80);
    expect(model.groups).toHaveLength(2);
    await ahead.digest(model, task(11), queue(12, 14), 80);
    expect(model.groups.at(-1)).toEqual(["t11", "t12", "t13", "t14"]);
  });

  it("asks again when the messages changed since (an earlier remember stored some) or the shared call failed", async () => {
    let failing = true;
    const model = sharingModel(() => failing);
    const ahead = new DigestAhead();
    // The shared call fails: the running task asks on its own (digestOf: here the local three tasks).
    expect(await ahead.digest(model, task(1), queue(2, 5), 80)).toEqual(await digestByTasks(new LocalModel(), task(1).messages, 80));
    failing = false;
    // t2's answer was in that failed call: t2 asks on its own (one digest), no shared call.
    expect(await ahead.digest(model, task(2), queue(3, 5), 80)).toEqual(await digestByTasks(new LocalModel(), task(2).messages, 80));
    expect(model.groups).toHaveLength(1);
    // t3 now stores other messages than were asked ahead: asked again.
    const changed = { taskId: "t3", messages: [{ index: 0, role: "user" as const, content: "t3: Bob stayed in Paris." }] };
    const before = model.groups.length;
    expect(await ahead.digest(model, changed, queue(4, 5), 80)).toEqual(await digestByTasks(new LocalModel(), changed.messages, 80));
    expect(model.groups.length).toBe(before + 1);
    expect(model.groups.at(-1)).toEqual(["t3"]);
  });
});

describe("conflict verdicts asked ahead of their turn", () => {
  const pair = (earlier: number, later: number): ConflictPair => ({
    earlier: `Alice lives in city ${earlier}.`,
    later: `Alice moved to city ${later}.`,
    entities: ["Alice"],
  });
  const pairs = (from: number, count: number) => Array.from({ length: count }, (_, i) => pair(from + i, from + i + 1));
  function judgingModel(fail: () => boolean = () => false) {
    const local = new LocalModel();
    const calls: number[] = [];
    const questions: ConflictPair[] = [];
    return {
      calls,
      questions,
      async judgeConflicts(asked: ConflictPair[]): Promise<ConflictVerdict[]> {
        calls.push(asked.length);
        questions.push(...asked);
        if (fail()) throw new Error("unavailable");
        return local.judgeConflicts(asked);
      },
    };
  }

  it("asks a check's pairs and the foreseen ones in one call; the later check finds its verdicts there", async () => {
    const model = judgingModel();
    const ahead = new VerdictsAhead();
    const own = pairs(1, 2);
    const next = pairs(10, 3);
    const first = await ahead.judge(model, own, async () => ({ pairs: [...next, ...pairs(20, 5)], next: next.length }));
    expect(first).toEqual({ verdicts: await new LocalModel().judgeConflicts(own), foreseen: 0 });
    expect(model.calls).toEqual([10]);
    const second = await ahead.judge(model, next, async () => NOTHING_FORESEEN);
    expect(second).toEqual({ verdicts: await new LocalModel().judgeConflicts(next), foreseen: 3 });
    expect(second.verdicts).toContain("update");
    expect(model.calls).toEqual([10]);
  });

  it("uses a verdict asked ahead only for the very question its check asks: the same texts about other entities are asked again", async () => {
    const model = judgingModel();
    const ahead = new VerdictsAhead();
    // Foreseen about two entities; by its turn the link to the second one has broken.
    const foreseen: ConflictPair = { ...pair(1, 2), entities: ["Alice", "Lisbon"] };
    const checked = pair(1, 2);
    await ahead.judge(model, [], async () => ({ pairs: [foreseen], next: 1 }));
    expect(model.questions).toEqual([foreseen]);
    const judged = await ahead.judge(model, [checked], async () => NOTHING_FORESEEN);
    expect(judged).toEqual({ verdicts: await new LocalModel().judgeConflicts([checked]), foreseen: 0 });
    expect(model.questions).toEqual([foreseen, checked]);
    // The question foreseen as it is asked finds its answer.
    expect((await ahead.judge(model, [foreseen], async () => NOTHING_FORESEEN)).foreseen).toBe(1);
    expect(model.calls).toEqual([1, 1]);
  });

  it("asks foreseen pairs in full calls only, unless the next remember's are among them", async () => {
    const model = judgingModel();
    const ahead = new VerdictsAhead();
    const foreseen = pairs(100, 2 * AHEAD_FILL_PAIRS + 50);
    await ahead.judge(model, [], async () => ({ pairs: foreseen, next: 0 }));
    expect(model.calls).toEqual([AHEAD_FILL_PAIRS, AHEAD_FILL_PAIRS]);
    await ahead.judge(model, [], async () => ({ pairs: foreseen, next: foreseen.length }));
    expect(model.calls).toEqual([AHEAD_FILL_PAIRS, AHEAD_FILL_PAIRS, 50]);
    expect((await ahead.judge(model, foreseen.slice(-5), async () => NOTHING_FORESEEN)).foreseen).toBe(5);
    expect(model.calls).toHaveLength(3);
  });

  it("a failed call ahead fails no check: its pairs are asked again, together, when they are needed", async () => {
    let failing = true;
    const model = judgingModel(() => failing);
    const ahead = new VerdictsAhead();
    const foreseen = pairs(1, 20);
    await ahead.judge(model, [], async () => ({ pairs: foreseen, next: foreseen.length }));
    expect(model.calls).toEqual([20]);
    failing = false;
    const mine = foreseen.slice(0, 4);
    expect((await ahead.judge(model, mine, async () => NOTHING_FORESEEN)).verdicts).toEqual(await new LocalModel().judgeConflicts(mine));
    expect(model.calls).toEqual([20, 4]);
  });

  /** The local model, sharing calls as Workers AI does; digests wait for `open` (the burst is queued first). */
  class SharingModel extends LocalModel {
    verdictCalls = 0;
    private opened: () => void = () => {};
    private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));
    open(): void {
      this.opened();
    }
    async digestMany(conversations: ModelMessage[][], summaryMax: number): Promise<WindowDigest[]> {
      await this.gate;
      return Promise.all(conversations.map((c) => digestByTasks(this, c, summaryMax)));
    }
    override async judgeConflicts(asked: ConflictPair[]): Promise<ConflictVerdict[]> {
      this.verdictCalls += 1;
      return super.judgeConflicts(asked);
    }
  }

  /**
   * A model that reads the entities a pair is said to be about, as a remote model's prompt gives
   * them: told that a pair is about an entity one of the two memories does not name, it calls the
   * pair unrelated.
   */
  class EntityReadingModel extends SharingModel {
    override async judgeConflicts(asked: ConflictPair[]): Promise<ConflictVerdict[]> {
      const verdicts = await super.judgeConflicts(asked);
      const names = (text: string, entity: string) => text.toLowerCase().includes(entity.toLowerCase());
      return asked.map((p, i) =>
        p.entities.every((e) => names(p.earlier, e) && names(p.later, e)) ? (verdicts[i] ?? "unrelated") : "unrelated",
      );
    }
  }

  const people = ["Mina", "Oskar", "Lena"];
  const cities = ["Lisbon", "Oslo", "Porto", "Krakow", "Lima", "Hanoi", "Dublin"];
  const remembersOf = (count: number) =>
    Array.from({ length: count }, (_, i) => {
      const person = people[i % people.length] ?? "";
      const city = cities[(i * 5) % cities.length] ?? "";
      return [
        { role: "user" as const, name: "Sam", content: `${person} moved to ${city} last month.`, id: `m${i}a` },
        {
          role: "assistant" as const,
          content: `Noted: ${person} now lives in ${city}, and the ${city} office has ${i + 2} desks.`,
          id: `m${i}b`,
        },
      ];
    });

  async function network(agentId: string) {
    const { db, key } = await agentRows(agentId);
    const nodes = await db
      .prepare("SELECT id, kind, content, phrase, keywords, superseded_by FROM nodes WHERE agent = ? ORDER BY id")
      .bind(key)
      .all();
    const links = (await linksAsTheyStand(agentId)).sort(
      (a, b) => a.source - b.source || a.target - b.target || a.relation.localeCompare(b.relation),
    );
    const stats = await json<{ counters: Record<string, number> }>(await call(`/v1/agents/${agentId}/stats`));
    return { nodes: nodes.results, links, scans: [...(await scanCounts(agentId))].sort((a, b) => a[0] - b[0]), counters: stats.counters };
  }

  /**
   * The same remembers sent to one agent as a burst (queued before any digest comes) and to another
   * one by one, each waited for; both agents' queues run dry (compression cycles included) before
   * their networks are read.
   */
  async function burstAndOneByOne(count: number, config: Record<string, unknown>, Model: new () => SharingModel) {
    const [burst, single] = [freshAgent("burst"), freshAgent("one-by-one")];
    const [burstModel, singleModel] = [new Model(), new Model()];
    for (const [agent, model] of [
      [burst, burstModel],
      [single, singleModel],
    ] as const) {
      await runInDurableObject(stubOf(agent), (instance) => {
        MemoryAgent.testAccess(instance).state.models.primaryModel = model;
      });
      expect((await call(`/v1/agents/${agent}/config`, { method: "PUT", body: config })).status).toBe(200);
    }
    const remembers = remembersOf(count);
    for (const messages of remembers) expect((await call(`/v1/agents/${burst}/remember`, { body: { messages } })).status).toBe(202);
    burstModel.open();
    await drainAlarms(burst);
    singleModel.open();
    for (const messages of remembers) await rememberAndWait(single, messages);
    // A remember is done before the compression cycle queued behind it has run.
    await drainAlarms(single);
    return { b: await network(burst), s: await network(single), burstModel, singleModel };
  }

  it("a burst of remembers whose verdicts were asked ahead ends in the network of the same remembers checked one by one", async () => {
    const { b, s, burstModel, singleModel } = await burstAndOneByOne(12, {}, SharingModel);
    expect(b.nodes).toEqual(s.nodes);
    expect(b.links).toEqual(s.links);
    expect(b.scans).toEqual(s.scans);
    expect(b.counters).toEqual(s.counters);
    expect(b.counters.conflicts_updates).toBeGreaterThan(0);
    // Compression ran after every remember in both.
    expect(b.counters.cycles).toBe(12);
    expect(b.counters.nodes_compressed).toBeGreaterThan(0);
    // The burst found verdicts asked ahead, and so asked fewer calls than one check at a time.
    expect(burstModel.verdictCalls).toBeLessThan(singleModel.verdictCalls);
  });

  it("a burst ends in the one-by-one network with a model that reads a pair's entities, when cycles change them between foresight and check", async () => {
    // Fast decay: between a pair's foresight and its check, cycles break links to entities, so some
    // pairs are foreseen about more entities than their check asks about (a cycle that shortens an
    // entity's name has the same effect).
    const { b, s, burstModel } = await burstAndOneByOne(30, { decay_rate: 0.5, delete_threshold: 20 }, EntityReadingModel);
    expect(b.nodes).toEqual(s.nodes);
    expect(b.links).toEqual(s.links);
    expect(b.counters).toEqual(s.counters);
    expect(b.counters.links_broken).toBeGreaterThan(0);
    expect(b.counters.conflicts_updates).toBeGreaterThan(0);
    expect(burstModel.verdictCalls).toBeGreaterThan(0);
  });
});

describe("embeddings asked ahead of their turn", () => {
  function countingEmbedder(fail: () => boolean = () => false) {
    const local = new LocalEmbedder();
    const calls: string[][] = [];
    const embedder: Embedder = {
      name: local.name,
      dimensions: local.dimensions,
      async embed(texts) {
        calls.push(texts);
        if (fail()) throw new Error("unavailable");
        return local.embed(texts);
      },
    };
    return { embedder, calls };
  }

  it("a commit finds the vectors asked ahead and embeds only the texts nobody foresaw, in one call", async () => {
    const { embedder, calls } = countingEmbedder();
    const ahead = new EmbeddingsAhead(embedder);
    ahead.ahead(["Sam: Mina moved to Oslo.", "Mina", "Sam: Mina moved to Oslo.", ""]);
    expect(calls).toEqual([["Sam: Mina moved to Oslo.", "Mina"]]);
    const texts = ["Sam: Mina moved to Oslo.", "Oslo", "Mina"];
    expect(await ahead.embed(texts)).toEqual(await new LocalEmbedder().embed(texts));
    expect(calls).toEqual([["Sam: Mina moved to Oslo.", "Mina"], ["Oslo"]]);
  });

  it("a failed call ahead fails no commit: its texts are embedded in their turn", async () => {
    let failing = true;
    const { embedder, calls } = countingEmbedder(() => failing);
    const ahead = new EmbeddingsAhead(embedder);
    ahead.ahead(["Sam: Mina moved to Oslo."]);
    failing = false;
    expect(await ahead.embed(["Sam: Mina moved to Oslo."])).toEqual(await new LocalEmbedder().embed(["Sam: Mina moved to Oslo."]));
    expect(calls).toHaveLength(2);
  });
});
