/**
 * An episode's summary (docs/design.md, "Context for prompts") as a Workers AI task: what a remembered conversation
 * was about, in at most `max` characters, in the conversation's own language. The input is the
 * conversation's segments (each cut to a few hundred characters, long conversations sampled
 * evenly): a summary needs the topics, not every word. validate.ts rejects an answer over `max`.
 */
import { z } from "zod";
import { codePointLength, sliceCodePoints } from "../../../text/code-points";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";

export const SUMMARIZE_SYSTEM_PROMPT = `You summarize conversations. 你概括对话内容。
Input: {"max":number,"segments":[string]} (the conversation in order, possibly shortened). Answer: {"summary":string}.
Rules:
- Say what was talked about and decided: topics, people, places, dates, decisions. One or two sentences.
- At most "max" characters; every character counts as one (a Chinese character, a letter, a space, a punctuation mark).
- Write in the conversation's own language (Chinese conversations in Chinese, English in English); never translate.
- Add nothing that is not in the conversation.
Answer with the JSON object only.`;

export const summarizeAnswerSchema = z.object({ summary: z.string() });
export type SummarizeAnswer = z.output<typeof summarizeAnswerSchema>;

interface SummarizeInput {
  max: number;
  segments: string[];
}

export const SUMMARIZE_EXAMPLES: readonly FewShot<SummarizeInput, SummarizeAnswer>[] = [
  {
    input: {
      max: 120,
      segments: [
        "Alice: We finished the JWT migration of the login module yesterday.",
        "Bob: Great. Third-party login is still open; product has not set its priority.",
      ],
    },
    output: {
      summary: "Alice and Bob discussed the finished JWT migration of the login module; third-party login's priority is still open.",
    },
  },
  {
    input: { max: 60, segments: ["昨天讨论了用户系统的登录模块设计，决定采用JWT方案。", "前端组提到需要支持第三方登录，优先级待定。"] },
    output: { summary: "讨论登录模块设计，决定用JWT；第三方登录优先级待定。" },
  },
];

/** Segments sent at most (sampled evenly from longer conversations), and code points kept of each. */
export const SUMMARY_INPUT_SEGMENTS = 60;
export const SUMMARY_INPUT_SEGMENT_CODE_POINTS = 300;

export function buildSummarizeMessages(texts: readonly string[], max: number): ChatMessage[] {
  const step = Math.max(1, texts.length / SUMMARY_INPUT_SEGMENTS);
  const sampled: string[] = [];
  for (let i = 0; i < texts.length && sampled.length < SUMMARY_INPUT_SEGMENTS; i += step) sampled.push(texts[Math.floor(i)] ?? "");
  const segments = sampled.map((t) =>
    codePointLength(t) > SUMMARY_INPUT_SEGMENT_CODE_POINTS ? sliceCodePoints(t, 0, SUMMARY_INPUT_SEGMENT_CODE_POINTS) : t,
  );
  return chatMessages(SUMMARIZE_SYSTEM_PROMPT, SUMMARIZE_EXAMPLES, { max, segments });
}
