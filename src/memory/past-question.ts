/**
 * Whether a query asks about an earlier conversation ("what did we talk about last time", 上次我们
 * 聊了什么): the context block then leads with the latest episodes (docs/design.md, "Context for prompts"). Words that
 * point back at a conversation, in English and Chinese; a plain topic question does not.
 */
const EN =
  /\b(last time|last (conversation|chat|session|talk|meeting)|previous(ly)?( conversation| chat| session)?|earlier( today)?|the other day|we (talked|discussed|spoke|chatted)|did (we|i) (talk|discuss|say|mention|tell)|what did (we|i)|remind me what|recap|catch me up|where (did )?we left off)\b/i;
const ZH = /(上次|上回|上一次|之前|以前|刚才|前几天|前天|昨天我们|聊过|谈过|说过|讨论过|提到过|提过|聊了什么|说了什么|回顾|接着聊|继续聊)/u;

export function asksAboutThePast(query: string): boolean {
  return EN.test(query) || ZH.test(query);
}
