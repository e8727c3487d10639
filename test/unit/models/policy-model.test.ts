import { describe, expect, it } from "vitest";
import { z } from "zod";
import { digestByTasks } from "../../../src/models/digest";
import { LocalModel } from "../../../src/models/local/local-model";
import { modelPolicyOf } from "../../../src/config/model-policy";
import { PolicyModel } from "../../../src/models/policy-model";
import type { ModelMessage } from "../../../src/models/types";
import type { AiBinding } from "../../../src/models/workers-ai/ai-client";
import { WorkersAiModel } from "../../../src/models/workers-ai/workers-ai-model";

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

describe("model_policy", () => {
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
});
