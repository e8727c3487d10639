/**
 * Compression (docs/design.md, "Compression" step 2) as a Workers AI task: rewrite a node's content in at most `target`
 * code points, keeping its core information in its own language. Forgetting must lose detail, not
 * facts, and must never translate what the user said; validate.ts rejects an answer over target.
 */
import { z } from "zod";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";

export const COMPRESS_SYSTEM_PROMPT = `You shorten memories. 你压缩记忆文本。
Input: {"target":number,"text":string}. Answer: {"text":string}.
Rules:
- The answer has at most "target" characters. Every character counts as one: a Chinese character, a letter, a digit, a space, a punctuation mark.
- Keep the core information: who, what, names, numbers, dates and decisions. Drop greetings, filler, hedges and repetition first.
- Write in the text's own language; never translate. Add nothing that is not in the text.
- Never answer with an empty text.
Answer with the JSON object only.`;

export const compressAnswerSchema = z.object({ text: z.string() });
export type CompressAnswer = z.output<typeof compressAnswerSchema>;

interface CompressInput {
  target: number;
  text: string;
}

export const COMPRESS_EXAMPLES: readonly FewShot<CompressInput, CompressAnswer>[] = [
  {
    input: {
      target: 60,
      text: "Well, you know, it was a long day. The JWT migration of the login module finished yesterday, and the whole team celebrated with pizza.",
    },
    output: { text: "Login module's JWT migration finished yesterday." },
  },
  {
    input: { target: 20, text: "嗯，今天有点累。登录模块的JWT迁移昨天完成了，团队一起吃了披萨庆祝。" },
    output: { text: "登录模块JWT迁移昨天完成" },
  },
];

export function buildCompressMessages(text: string, target: number): ChatMessage[] {
  return chatMessages(COMPRESS_SYSTEM_PROMPT, COMPRESS_EXAMPLES, { target, text });
}
