/**
 * The window digest (docs/design.md, "Model economy") as one Workers AI task: segmentation,
 * extraction and the episode summary of one segmentation window in a single call, where they were
 * three (segment.ts, extract.ts, summarize.ts: the same rules, one answer). The answer is checked
 * by the same validators as the separate tasks (validate.ts), so a digest that drops text, misses
 * an extraction or overruns the summary's bound fails like they would, and the caller falls back
 * to the local model for that window.
 */
import { z } from "zod";
import type { ModelMessage } from "../../types";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";
import { EXTRACT_EXAMPLES, EXTRACT_SYSTEM_PROMPT } from "./extract";
import { SEGMENT_EXAMPLES, SEGMENT_SYSTEM_PROMPT, speakerOf, type SegmentInput } from "./segment";
import { SUMMARIZE_SYSTEM_PROMPT } from "./summarize";

export const DIGEST_SYSTEM_PROMPT = `You index a conversation for a long-term memory in one answer: segments, what each is about, and a summary. 你一次完成切分、提取和概括。
Input: {"max":number,"messages":[{"index","speaker","role","content"}]}. Answer: {"segments":[{"text","messageIndexes","phrase","keywords","entities"}],"summary":string}.
Segments ("text", "messageIndexes") follow these rules:
${SEGMENT_SYSTEM_PROMPT.split("\n").slice(3, -1).join("\n")}
For each segment, "phrase", "keywords" and "entities" follow these rules:
${EXTRACT_SYSTEM_PROMPT.split("\n").slice(3, -1).join("\n")}
"summary" follows these rules:
${SUMMARIZE_SYSTEM_PROMPT.split("\n").slice(3, -1).join("\n")}
Answer with the JSON object only.`;

const segmentSchema = z.object({
  text: z.string(),
  messageIndexes: z.array(z.number().int().nonnegative()),
  phrase: z.string(),
  keywords: z.array(z.string()),
  entities: z.array(z.string()),
});
export const digestAnswerSchema = z.object({ segments: z.array(segmentSchema), summary: z.string() });
export type DigestAnswer = z.output<typeof digestAnswerSchema>;

interface DigestInput extends SegmentInput {
  max: number;
}

/** The segmentation examples with the extraction examples' answers (the same texts) and a summary. */
const DIGEST_EXAMPLES: readonly FewShot<DigestInput, DigestAnswer>[] = SEGMENT_EXAMPLES.map((example, k) => {
  const items = EXTRACT_EXAMPLES[k]?.output.items ?? [];
  const summaries = ["Alice moves the login module to JWT and picks ClickHouse for analytics.", "用户系统下月上线，市场部筹备宣传视频。"];
  return {
    input: { max: 80, messages: example.input.messages },
    output: {
      segments: example.output.segments.map((s, i) => ({
        ...s,
        phrase: items[i]?.phrase ?? "",
        keywords: items[i]?.keywords ?? [],
        entities: items[i]?.entities ?? [],
      })),
      summary: summaries[k] ?? "",
    },
  };
});

export function buildDigestMessages(messages: readonly ModelMessage[], max: number): ChatMessage[] {
  return chatMessages(DIGEST_SYSTEM_PROMPT, DIGEST_EXAMPLES, {
    max,
    messages: messages.map((m) => ({ index: m.index, speaker: speakerOf(m), role: m.role, content: m.content })),
  });
}

export const DIGESTS_SYSTEM_PROMPT = `${DIGEST_SYSTEM_PROMPT.split("\n")[0]}
Input: {"max":number,"conversations":[{"messages":[{"index","speaker","role","content"}]}]}: several separate conversations. Answer: {"conversations":[{"segments":[{"text","messageIndexes","phrase","keywords","entities"}],"summary":string}]}, exactly one per conversation, in the same order. Each conversation is digested on its own: never join text of two conversations.
${DIGEST_SYSTEM_PROMPT.split("\n").slice(2).join("\n")}`;

export const digestsAnswerSchema = z.object({ conversations: z.array(digestAnswerSchema) });

const DIGESTS_EXAMPLE: FewShot<
  { max: number; conversations: { messages: SegmentInput["messages"] }[] },
  z.output<typeof digestsAnswerSchema>
> = {
  input: { max: 80, conversations: DIGEST_EXAMPLES.map((e) => ({ messages: e.input.messages })) },
  output: { conversations: DIGEST_EXAMPLES.map((e) => e.output) },
};

/** Several queued remembers' conversations in one call (each small enough to share a window). */
export function buildDigestsMessages(conversations: readonly (readonly ModelMessage[])[], max: number): ChatMessage[] {
  return chatMessages(DIGESTS_SYSTEM_PROMPT, [DIGESTS_EXAMPLE], {
    max,
    conversations: conversations.map((messages) => ({
      messages: messages.map((m) => ({ index: m.index, speaker: speakerOf(m), role: m.role, content: m.content })),
    })),
  });
}
