// The Workers AI judgement of conflicts against a fake binding: one prompt, batches, the classical
// filter before the model, and the fallback to the local rules.
import { describe, expect, it } from "vitest";
import { LocalModel } from "../../../../../src/models/local/local-model";
import { ResilientModel } from "../../../../../src/models/resilient-model";
import { retryPolicy } from "../../../../../src/models/retry";
import type { AiBinding } from "../../../../../src/models/workers-ai/ai-client";
import { CONFLICTS_SYSTEM_PROMPT } from "../../../../../src/models/workers-ai/prompts/conflicts";
import { WorkersAiModel } from "../../../../../src/models/workers-ai/workers-ai-model";
import { CONFLICT_CASES } from "../../../../conflict-cases";
import { DIALOGUE_CONFLICT_CASES } from "../../../../conflict-cases-dialogue";

const pairsOf = (cases: typeof CONFLICT_CASES) => cases.map((c) => ({ earlier: c.earlier, later: c.later, entities: c.entities }));

describe("the Workers AI judgement", () => {
  const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
  const ai = (answer: (pairs: number) => unknown): AiBinding & { calls: Record<string, unknown>[] } => {
    const calls: Record<string, unknown>[] = [];
    return {
      calls,
      async run(_model, inputs) {
        calls.push(inputs);
        const messages = inputs.messages as { content: string }[];
        const input = JSON.parse(messages.at(-1)?.content ?? "{}") as { pairs: unknown[] };
        return { response: JSON.stringify(answer(input.pairs.length)) };
      },
    };
  };

  it("asks with one prompt, in batches, and takes the validated verdicts", async () => {
    const fake = ai((n) => ({ verdicts: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? "update" : "contradiction")) }));
    const model = new WorkersAiModel(fake, { model: MODEL });
    const verdicts = await model.judgeConflicts(pairsOf(CONFLICT_CASES.slice(0, 20)));
    expect(verdicts).toHaveLength(20);
    expect(verdicts.slice(0, 3)).toEqual(["update", "contradiction", "update"]);
    // 20 open pairs fit one call (at most CONFLICT_BATCH_SIZE, 128, within the context window).
    expect(fake.calls).toHaveLength(1);
    const system = (fake.calls[0]?.messages as { role: string; content: string }[])[0];
    expect(system).toEqual({ role: "system", content: CONFLICTS_SYSTEM_PROMPT });
  });

  it("asks only about the pairs the classical filter leaves open: a model that marks every pair it is asked marks no thanks, agreement or question", async () => {
    const fake = ai((n) => ({ verdicts: Array.from({ length: n }, () => "contradiction") }));
    const verdicts = await new WorkersAiModel(fake, { model: MODEL }).judgeConflicts(pairsOf(DIALOGUE_CONFLICT_CASES));
    const never = DIALOGUE_CONFLICT_CASES.filter(
      (c, i) => ["acknowledgement", "agreement", "question"].includes(c.kind) && verdicts[i] !== "unrelated",
    );
    expect(never.map((c) => c.id)).toEqual([]);
    const asked = fake.calls.flatMap(
      (call) => (JSON.parse((call.messages as { content: string }[]).at(-1)?.content ?? "{}") as { pairs: unknown[] }).pairs,
    );
    expect(asked.length).toBeLessThan(DIALOGUE_CONFLICT_CASES.length);
  });

  it("closes no real conflict: a model that answers right gets every case of both tables right through the filter", async () => {
    const cases = [...CONFLICT_CASES, ...DIALOGUE_CONFLICT_CASES];
    const expected = new Map(cases.map((c) => [`${c.earlier}|${c.later}`, c.expected]));
    const oracle: AiBinding = {
      async run(_model, inputs) {
        const messages = inputs.messages as { content: string }[];
        const input = JSON.parse(messages.at(-1)?.content ?? "{}") as { pairs: { earlier: string; later: string }[] };
        return { response: JSON.stringify({ verdicts: input.pairs.map((p) => expected.get(`${p.earlier}|${p.later}`) ?? "unrelated") }) };
      },
    };
    const verdicts = await new WorkersAiModel(oracle, { model: MODEL }).judgeConflicts(pairsOf(cases));
    const marks = (v: string | undefined) => v === "update" || v === "contradiction";
    expect(cases.filter((c, i) => marks(c.expected) && verdicts[i] !== c.expected).map((c) => c.id)).toEqual([]);
  });

  it("an answer of the wrong length or an unknown verdict falls back to the local rules", async () => {
    for (const answer of [{ verdicts: ["update"] }, { verdicts: ["maybe", "same"] }, { nope: true }]) {
      const events: string[] = [];
      const model = new ResilientModel(
        new WorkersAiModel(
          ai(() => answer),
          { model: MODEL },
        ),
        new LocalModel(),
        retryPolicy(2, async () => {}),
        {
          failed: (op) => events.push(`failed:${op}`),
          fellBack: (op) => events.push(`fell back:${op}`),
        },
      );
      const cases = CONFLICT_CASES.filter((c) => c.id === "en-01" || c.id === "zh-09");
      expect(await model.judgeConflicts(pairsOf(cases))).toEqual(["update", "contradiction"]);
      expect(events).toEqual(["failed:judgeConflicts", "fell back:judgeConflicts"]);
    }
  });
});
