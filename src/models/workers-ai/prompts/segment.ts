/**
 * Semantic segmentation (语义切割, docs/design.md, "remember(messages)" step 1) as a Workers AI task. A segment becomes a memory
 * node that is compressed later, so it must hold one complete thought and the user's own words:
 * the model only chooses where to cut, it never rewrites. validate.ts checks that no text was
 * dropped; the sizes mirror the local segmenter (SEGMENT_MAX_LATIN/CJK, SHORT_MESSAGE).
 */
import { z } from "zod";
import { SEGMENT_MAX_CJK, SEGMENT_MAX_LATIN, SHORT_MESSAGE } from "../../local/local-segmenter";
import type { MessageRole, ModelMessage } from "../../types";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";

export const SEGMENT_SYSTEM_PROMPT = `You cut a conversation into semantically complete segments for a long-term memory. 你把对话切分成语义完整的片段。
Input: {"messages":[{"index","speaker","role","content"}]}. Answer: {"segments":[{"text","messageIndexes"}]}.
Rules:
1. Each segment holds one complete thought; start a new segment where the topic changes. A segment has about ${SEGMENT_MAX_LATIN} characters at most for English, about ${SEGMENT_MAX_CJK} characters at most for Chinese. Split a long message only at sentence boundaries (. ! ? 。！？), never inside a sentence unless the sentence alone is too long.
2. Copy text VERBATIM. Never paraphrase, translate, summarise, correct, reorder or drop anything: every character of every message appears in exactly one segment, in the original order. 一字不改，一字不漏。
3. Merge consecutive very short messages (under ${SHORT_MESSAGE} characters, such as greetings, "ok", "好的") into one segment with one line per message, written "speaker: text".
4. A segment taken from one message is a plain slice of it, with no speaker label. Never merge across a message whose role is "system".
5. "messageIndexes" lists, in ascending order, the index of every message the segment's text comes from. Segments follow the conversation's order.
6. Answer with the JSON object only.`;

export const segmentAnswerSchema = z.object({
  segments: z.array(z.object({ text: z.string(), messageIndexes: z.array(z.number().int().nonnegative()) })),
});
export type SegmentAnswer = z.output<typeof segmentAnswerSchema>;

export interface SegmentInput {
  messages: { index: number; speaker: string; role: MessageRole; content: string }[];
}

/** How a message is labelled when short messages are merged: its name, else its role (as locally). */
export function speakerOf(m: Pick<ModelMessage, "name" | "role">): string {
  return m.name ?? m.role;
}

export const SEGMENT_EXAMPLES: readonly FewShot<SegmentInput, SegmentAnswer>[] = [
  {
    input: {
      messages: [
        { index: 0, speaker: "Alice", role: "user", content: "Hi there" },
        { index: 1, speaker: "assistant", role: "assistant", content: "Hello!" },
        {
          index: 2,
          speaker: "Alice",
          role: "user",
          content:
            "I'm moving the login module to JWT next week because the old session store keeps timing out under load. " +
            "We will ship it behind a feature flag first. After that, I need to pick a database for the analytics service, probably ClickHouse.",
        },
      ],
    },
    output: {
      segments: [
        { text: "Alice: Hi there\nassistant: Hello!", messageIndexes: [0, 1] },
        {
          text: "I'm moving the login module to JWT next week because the old session store keeps timing out under load. We will ship it behind a feature flag first.",
          messageIndexes: [2],
        },
        { text: "After that, I need to pick a database for the analytics service, probably ClickHouse.", messageIndexes: [2] },
      ],
    },
  },
  {
    input: {
      messages: [
        { index: 0, speaker: "小王", role: "user", content: "在吗？" },
        { index: 1, speaker: "assistant", role: "assistant", content: "在的，请说。" },
        {
          index: 2,
          speaker: "小王",
          role: "user",
          content:
            "我们项目下个月要上线用户系统，注册和登录已经做完了，还差权限管理。另外，市场部希望在发布会前准备好宣传视频，预算大概五万元。",
        },
      ],
    },
    output: {
      segments: [
        { text: "小王: 在吗？\nassistant: 在的，请说。", messageIndexes: [0, 1] },
        { text: "我们项目下个月要上线用户系统，注册和登录已经做完了，还差权限管理。", messageIndexes: [2] },
        { text: "另外，市场部希望在发布会前准备好宣传视频，预算大概五万元。", messageIndexes: [2] },
      ],
    },
  },
];

export function buildSegmentMessages(messages: readonly ModelMessage[]): ChatMessage[] {
  const input: SegmentInput = {
    messages: messages.map((m) => ({ index: m.index, speaker: speakerOf(m), role: m.role, content: m.content })),
  };
  return chatMessages(SEGMENT_SYSTEM_PROMPT, SEGMENT_EXAMPLES, input);
}
