/**
 * Model economy (docs/design.md, "Model economy"): a remember asks the model once per window (the
 * digest: segments, extractions and the episode summary), relation names are classical, a recall
 * calls no text model unless `expand` asks for it, and a repeated query's embedding is reused.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NOTHING_FORESEEN, VerdictsAhead } from "../src/engine/verdicts-ahead";
import { digestByTasks } from "../src/models/digest";
import { LocalModel } from "../src/models/local/local-model";
import { createModel } from "../src/models/providers";
import type { ConflictPair, ConflictVerdict, ModelMessage, WindowDigest } from "../src/models/types";
import type { AiBinding } from "../src/models/workers-ai/ai-client";
import { agentRows, call, drainAlarms, freshAgent, json, rememberAndWait, stubOf } from "./helpers";
import { linksAsTheyStand, scanCounts } from "./agent-access";
import { MemoryAgent } from "../src/agent/memory-agent";
import { MODEL, conversation, countingModel, digestingAi } from "./fakes/digesting-ai";

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
