/**
 * What the fake Workers AI model "thinks": it recognises the task by its system prompt and answers
 * with the built-in local model, so answers are valid, deterministic and depend on the input like a
 * real model's. Tests that need a wrong answer pass their own brain.
 */
import { z } from "zod";
import { LocalModel } from "../../src/models/local/local-model";
import type { ModelMessage } from "../../src/models/types";
import { COMPRESS_SYSTEM_PROMPT } from "../../src/models/workers-ai/prompts/compress";
import { EXTRACT_SYSTEM_PROMPT } from "../../src/models/workers-ai/prompts/extract";
import { QUERY_KEYWORDS_SYSTEM_PROMPT } from "../../src/models/workers-ai/prompts/query-keywords";
import { RELATIONS_SYSTEM_PROMPT } from "../../src/models/workers-ai/prompts/relations";
import { SEGMENT_SYSTEM_PROMPT } from "../../src/models/workers-ai/prompts/segment";
import { SUMMARIZE_SYSTEM_PROMPT } from "../../src/models/workers-ai/prompts/summarize";

export type Task = "segment" | "extract" | "relations" | "compress" | "summarize" | "queryKeywords";

export type Brain = (task: Task, input: unknown) => Promise<unknown>;

const PROMPTS: readonly [Task, string][] = [
  ["segment", SEGMENT_SYSTEM_PROMPT],
  ["extract", EXTRACT_SYSTEM_PROMPT],
  ["relations", RELATIONS_SYSTEM_PROMPT],
  ["compress", COMPRESS_SYSTEM_PROMPT],
  ["summarize", SUMMARIZE_SYSTEM_PROMPT],
  ["queryKeywords", QUERY_KEYWORDS_SYSTEM_PROMPT],
];

export function taskOf(systemPrompt: string): Task {
  const found = PROMPTS.find(([, prompt]) => systemPrompt.startsWith(prompt));
  if (!found) throw new Error(`unknown task prompt: ${systemPrompt.slice(0, 40)}`);
  return found[0];
}

const SegmentInput = z.object({
  messages: z.array(
    z.object({ index: z.number(), speaker: z.string(), role: z.enum(["user", "assistant", "system"]), content: z.string() }),
  ),
});
const ExtractInput = z.object({ texts: z.array(z.string()) });
const RelationsInput = z.object({ pairs: z.array(z.object({ segment: z.string(), entity: z.string() })) });
const CompressInput = z.object({ target: z.number(), text: z.string() });
const QueryInput = z.object({ query: z.string() });
const SummarizeInput = z.object({ max: z.number(), segments: z.array(z.string()) });

export function localBrain(): Brain {
  const local = new LocalModel();
  return async (task, input) => {
    switch (task) {
      case "segment": {
        const messages = SegmentInput.parse(input).messages.map((m): ModelMessage =>
          m.speaker === m.role ? { index: m.index, role: m.role, content: m.content } : { ...m, name: m.speaker },
        );
        return { segments: await local.segment(messages) };
      }
      case "extract":
        return { items: await local.extract(ExtractInput.parse(input).texts) };
      case "relations":
        return { relations: await local.nameRelations(RelationsInput.parse(input).pairs) };
      case "compress": {
        const { text, target } = CompressInput.parse(input);
        return { text: await local.compress(text, target) };
      }
      case "summarize": {
        const { max, segments } = SummarizeInput.parse(input);
        return { summary: await local.summarize(segments, max) };
      }
      case "queryKeywords":
        return { keywords: await local.queryKeywords(QueryInput.parse(input).query) };
    }
  };
}
