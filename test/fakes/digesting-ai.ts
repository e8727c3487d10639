// A Workers AI binding that digests windows (segments, extractions, summary) the way the model
// economy's tests need, and the conversations and models they share (unit and workers tests alike).
import { z } from "zod";
import { digestByTasks } from "../../src/models/digest";
import { LocalModel } from "../../src/models/local/local-model";
import { type ModelMessage, type SmallModel } from "../../src/models/types";
import { type AiBinding } from "../../src/models/workers-ai/ai-client";

export const MODEL = "@cf/google/gemma-4-26b-a4b-it";

export const ChatInputs = z.object({
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  response_format: z.object({ json_schema: z.object({ name: z.string() }) }),
});

export const DigestInput = z.object({
  max: z.number(),
  messages: z.array(
    z.object({ index: z.number(), speaker: z.string(), role: z.enum(["user", "assistant", "system"]), content: z.string() }),
  ),
});

export const DigestsInput = z.object({ max: z.number(), conversations: z.array(DigestInput.pick({ messages: true })) });

/** A Workers AI binding that answers the digest with the local model's three tasks, recording task names. */
export function digestingAi(tamper: (answer: { segments: Record<string, unknown>[]; summary: string }) => void = () => {}): AiBinding & {
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

export const conversation = (n: number): ModelMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    index: i,
    role: i % 2 === 0 ? "user" : "assistant",
    content: `Message ${i}: Alice moved the billing service to Postgres ${i} days ago, and the Berlin team reviewed the migration plan.`,
  }));

/** The local model, counting every call by task. */
export function countingModel(local: SmallModel, calls: Map<string, number>): SmallModel {
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
