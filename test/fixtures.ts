/** Conversations shared by several test files (the local model's extraction of them is pinned in test/network.test.ts). */
import type { Msg } from "./helpers";

/** Final focus after remembering it: Grace, login, Frank, Tokyo, Dave. */
export const ENGLISH_TEAM = [
  "Alice works on the Phoenix project.",
  "Bob joined the Phoenix project in March.",
  "Carol reviews the budget with Dave.",
  "Erin and Frank planned the Tokyo trip.",
  "Grace fixed the login bug.",
] as const;

/** Six entities in three segments: the first one falls out of a focus of five. */
export const CHINESE_DESIGN_REVIEW = [
  "昨天讨论了用户系统的登录模块设计，决定采用JWT方案。",
  "前端组提到需要支持第三方登录，这个需求优先级待定。",
  "架构评审时强调了安全性，建议使用短时效token。",
] as const;

export function messages(contents: readonly string[], idPrefix: string, extra: Partial<Msg> = {}): Msg[] {
  return contents.map((content, i) => ({ role: "user", content, id: `${idPrefix}${i}`, ...extra }));
}

/** A question and its answer by two speakers (recall scores the answer with the question's words). */
export const EXCHANGE = [
  { role: "user" as const, name: "Ann", content: "That plate is lovely! Did you make it in pottery class?", id: "x1" },
  { role: "assistant" as const, name: "Ben", content: "Yes, I made it last week. Glazing took two tries.", id: "x2" },
];
