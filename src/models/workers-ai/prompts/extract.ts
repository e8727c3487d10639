/**
 * Extraction (docs/design.md, "remember(messages)" step 2) as a Workers AI task: a phrase, keywords and key entities for each
 * of several texts in one call. Entities become focus nodes shared by every segment that mentions
 * them, so they must name what the text is about, never a pronoun or a filler word.
 */
import { z } from "zod";
import { PHRASE_MAX_CODE_POINTS } from "../../types";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";

/** At most this many entities per text (docs/design.md, "remember(messages)": a segment links to a few focus entities). */
export const ENTITIES_MAX = 3;

export const EXTRACT_SYSTEM_PROMPT = `You index texts for a long-term memory. 你为长期记忆的检索提取信息。
Input: {"texts":[string]}. Answer: {"items":[{"phrase","keywords","entities"}]}, exactly one item per text, in the same order.
For each text:
- "phrase": a short summary of the text in the text's own language, at most ${PHRASE_MAX_CODE_POINTS} characters (a Chinese character counts as one).
- "keywords": the nouns and pronoun-like names of things or domains in the text (people, projects, products, tools, places, subjects), most salient first, written as in the text, no duplicates. No verbs, adjectives, numbers alone or stop words.
- "entities": what the text is about: at most ${ENTITIES_MAX} key entities (a person, project, product, organisation, place or the central subject), most salient first, written as in the text. Never a pronoun (I, you, it, 我, 你, 他, 这个) or a stop word; [] when the text is about nothing in particular.
Answer with the JSON object only.`;

const itemSchema = z.object({ phrase: z.string(), keywords: z.array(z.string()), entities: z.array(z.string()) });
export const extractAnswerSchema = z.object({ items: z.array(itemSchema) });
export type ExtractAnswer = z.output<typeof extractAnswerSchema>;
export type ExtractItem = z.output<typeof itemSchema>;

interface ExtractInput {
  texts: string[];
}

export const EXTRACT_EXAMPLES: readonly FewShot<ExtractInput, ExtractAnswer>[] = [
  {
    input: {
      texts: [
        "I'm moving the login module to JWT next week because the old session store keeps timing out under load.",
        "Alice: Hi there\nassistant: Hello!",
      ],
    },
    output: {
      items: [
        { phrase: "Login module to JWT", keywords: ["login module", "JWT", "session store"], entities: ["login module", "JWT"] },
        { phrase: "Alice says hello", keywords: ["Alice"], entities: ["Alice"] },
      ],
    },
  },
  {
    input: {
      texts: [
        "我们项目下个月要上线用户系统，注册和登录已经做完了，还差权限管理。",
        "另外，市场部希望在发布会前准备好宣传视频，预算大概五万元。",
      ],
    },
    output: {
      items: [
        { phrase: "用户系统下月上线", keywords: ["项目", "用户系统", "注册", "登录", "权限管理"], entities: ["用户系统", "权限管理"] },
        { phrase: "市场部筹备宣传视频", keywords: ["市场部", "发布会", "宣传视频", "预算"], entities: ["市场部", "宣传视频"] },
      ],
    },
  },
];

export function buildExtractMessages(texts: readonly string[]): ChatMessage[] {
  return chatMessages(EXTRACT_SYSTEM_PROMPT, EXTRACT_EXAMPLES, { texts: [...texts] });
}
