/**
 * Long, deterministic Chinese and English conversation text for window tests: sentences vary (an
 * index, rotating names and topics) so no two windows look alike and a dropped or repeated
 * sentence changes the text.
 */
const ZH_TEAMS = ["前端组", "后端组", "测试组", "运维组", "产品组"];
const ZH_TOPICS = ["用户系统的登录模块", "支付接口", "消息推送服务", "数据看板", "权限管理"];
const ZH_DECISIONS = ["采用JWT方案", "下周上线灰度版本", "先补齐单元测试", "推迟到下个迭代", "增加短时效token"];
const EN_TEAMS = ["frontend", "backend", "QA", "operations", "product"];
const EN_TOPICS = ["login module", "payment gateway", "push service", "analytics dashboard", "permission model"];
const EN_DECISIONS = [
  "adopt JWT",
  "ship a canary next week",
  "write the missing unit tests",
  "move it to the next sprint",
  "use short-lived tokens",
];

function pick(list: readonly string[], i: number): string {
  return list[i % list.length] ?? "";
}

/** About `length` code points of Chinese prose in sentences ending with 。 */
export function chineseText(length: number, seed = 0): string {
  let out = "";
  for (let i = seed; out.length < length; i++) {
    out += `第${i}次评审中，${pick(ZH_TEAMS, i)}讨论了${pick(ZH_TOPICS, i * 3 + 1)}的设计，最后决定${pick(ZH_DECISIONS, i * 7 + 2)}。`;
  }
  return out;
}

/** About `length` characters of English prose in sentences separated by spaces. */
export function englishText(length: number, seed = 0): string {
  const sentences: string[] = [];
  let total = 0;
  for (let i = seed; total < length; i++) {
    const s = `In review ${i} the ${pick(EN_TEAMS, i)} team discussed the ${pick(EN_TOPICS, i * 3 + 1)} and decided to ${pick(EN_DECISIONS, i * 7 + 2)}.`;
    sentences.push(s);
    total += s.length + 1;
  }
  return sentences.join(" ");
}

/** Chinese with no punctuation at all: only a hard cut can split it. */
export function unbrokenChinese(length: number): string {
  return Array.from({ length }, (_, i) => pick(["登", "录", "模", "块", "设", "计", "评", "审", "方", "案"], i * 7 + (i >> 3))).join("");
}
