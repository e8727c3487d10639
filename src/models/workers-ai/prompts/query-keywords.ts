/**
 * Query keywords (docs/design.md, "recall(keywords, relations, depth)") as a Workers AI task: the words of a free-text question that a memory
 * search should match. Keywords are matched against stored keywords and entity names, so they
 * must be the same kind of words extraction produces: names of things and domains, as written.
 */
import { z } from "zod";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";

export const QUERY_KEYWORDS_SYSTEM_PROMPT = `You turn a question into search keywords for a long-term memory. 你从问题中提取检索关键词。
Input: {"query":string}. Answer: {"keywords":[string]}.
Rules:
- Keywords are the nouns and names in the query: people, projects, products, tools, places, subjects. Most important first, no duplicates, written as in the query and in its language.
- Never a question word (what, when, who, 什么, 哪里, 谁, 吗), a verb, a pronoun or a stop word. Never an empty string.
- [] when the query names nothing.
Answer with the JSON object only.`;

export const queryKeywordsAnswerSchema = z.object({ keywords: z.array(z.string()) });
export type QueryKeywordsAnswer = z.output<typeof queryKeywordsAnswerSchema>;

interface QueryInput {
  query: string;
}

export const QUERY_KEYWORDS_EXAMPLES: readonly FewShot<QueryInput, QueryKeywordsAnswer>[] = [
  { input: { query: "What did Isabella say about adoption agencies?" }, output: { keywords: ["Isabella", "adoption agencies"] } },
  { input: { query: "用户系统的权限管理什么时候做完？" }, output: { keywords: ["用户系统", "权限管理"] } },
];

export function buildQueryKeywordsMessages(query: string): ChatMessage[] {
  return chatMessages(QUERY_KEYWORDS_SYSTEM_PROMPT, QUERY_KEYWORDS_EXAMPLES, { query });
}
