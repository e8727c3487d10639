import { describe, expect, it } from "vitest";
import { SEGMENT_MAX_LATIN } from "../../../../src/models/local/local-segmenter";
import { LocalModel } from "../../../../src/models/local/local-model";
import { type ModelMessage, type SegmentDraft } from "../../../../src/models/types";
import { codePointLength } from "../../../../src/text/code-points";

const model = new LocalModel();

const user = (index: number, content: string, name?: string): ModelMessage =>
  name === undefined ? { index, role: "user", content } : { index, role: "user", content, name };

const EN_LONG =
  "I've been painting a lot lately, mostly landscapes and sunsets. Painting really helps me relax after work. " +
  "Last weekend I went to the lake with my kids and we painted together. " +
  "They loved it so much that we want to go back next month with their friends.";

const ZH_LONG =
  "我最近在学习机器学习和深度学习，打算下个月参加一个数据科学比赛。我们团队有三个人，分别负责数据清洗、模型训练和结果分析。" +
  "比赛的奖金是十万元，如果能拿到名次，我们打算用奖金买一台新的服务器。";

/** Checks the segmenter's contract for one input. */
function checkSegments(messages: readonly ModelMessage[], segments: readonly SegmentDraft[]): void {
  const visible = (s: string): string => s.replace(/\s+/g, "");
  let lastIndex = -1;
  for (const s of segments) {
    expect(s.text.trim()).not.toBe("");
    expect(s.messageIndexes.length).toBeGreaterThan(0);
    expect(s.messageIndexes[0]).toBeGreaterThanOrEqual(lastIndex);
    lastIndex = s.messageIndexes[s.messageIndexes.length - 1] ?? lastIndex;
    if (s.messageIndexes.length === 1) expect(codePointLength(s.text)).toBeLessThanOrEqual(SEGMENT_MAX_LATIN);
    const roles = s.messageIndexes.map((i) => messages[i]?.role);
    if (s.messageIndexes.length > 1) expect(roles).not.toContain("system");
  }
  for (const m of messages) {
    const covering = segments.filter((s) => s.messageIndexes.includes(m.index));
    if (m.content.trim() === "") {
      expect(covering).toEqual([]);
      continue;
    }
    const text = covering
      .map((s) => {
        if (s.messageIndexes.length === 1) return s.text;
        const line = s.text.split("\n")[s.messageIndexes.indexOf(m.index)] ?? "";
        return line.slice(line.indexOf(": ") + 2);
      })
      .join("");
    expect(visible(text)).toBe(visible(m.content));
  }
}

/** A small seeded PRNG, so generated inputs are the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("segment", () => {
  it("cuts a long English message at sentence boundaries into balanced segments", async () => {
    const segments = await model.segment([user(0, EN_LONG)]);
    expect(segments).toEqual([
      {
        text: "I've been painting a lot lately, mostly landscapes and sunsets. Painting really helps me relax after work.",
        messageIndexes: [0],
      },
      {
        text: "Last weekend I went to the lake with my kids and we painted together. They loved it so much that we want to go back next month with their friends.",
        messageIndexes: [0],
      },
    ]);
  });

  it("cuts a long Chinese message at sentence boundaries into balanced segments", async () => {
    const segments = await model.segment([user(3, ZH_LONG)]);
    expect(segments.map((s) => s.text)).toEqual([
      "我最近在学习机器学习和深度学习，打算下个月参加一个数据科学比赛。我们团队有三个人，分别负责数据清洗、模型训练和结果分析。",
      "比赛的奖金是十万元，如果能拿到名次，我们打算用奖金买一台新的服务器。",
    ]);
    expect(segments.every((s) => s.messageIndexes.join() === "3")).toBe(true);
  });

  it("cuts a single over-long sentence at clause boundaries", async () => {
    const sentence =
      "When we finally arrived at the campsite near the lake after driving for almost six hours through the mountains, " +
      "the kids immediately ran to the water, my husband started to set up the tent, and I sat down to paint the sunset over the hills";
    expect((await model.segment([user(0, sentence)])).map((s) => s.text)).toEqual([
      "When we finally arrived at the campsite near the lake after driving for almost six hours through the mountains,",
      "the kids immediately ran to the water, my husband started to set up the tent, and I sat down to paint the sunset over the hills",
    ]);
    const zh =
      "这次版本我们重新设计了用户系统的登录模块，包括短信验证码登录、微信扫码登录、第三方账号绑定、异地登录提醒以及多设备同时在线时的会话管理和强制下线功能，" +
      "另外还优化了注册流程和找回密码流程，让新用户可以在一分钟之内完成注册";
    const pieces = (await model.segment([user(0, zh)])).map((s) => s.text);
    expect(pieces).toEqual([
      "这次版本我们重新设计了用户系统的登录模块，包括短信验证码登录、微信扫码登录、第三方账号绑定、异地登录提醒以及多设备同时在线时的会话管理和强制下线功能，",
      "另外还优化了注册流程和找回密码流程，让新用户可以在一分钟之内完成注册",
    ]);
  });

  it("merges runs of short messages into one segment, never across a system message", async () => {
    const segments = await model.segment([
      user(0, "Hi!", "Isabella"),
      { index: 1, role: "assistant", content: "Hello, how are you?", name: "Rosalie" },
      user(2, "   "),
      user(3, "Good, thanks!", "Isabella"),
      { index: 4, role: "system", content: "Be brief." },
      user(5, "你好！"),
      { index: 6, role: "assistant", content: "你好，有什么可以帮你？" },
      user(7, "I want to talk about the adoption agencies I researched last week for our family."),
      user(8, "Thanks!"),
    ]);
    expect(segments).toEqual([
      { text: "Isabella: Hi!\nRosalie: Hello, how are you?\nIsabella: Good, thanks!", messageIndexes: [0, 1, 3] },
      { text: "Be brief.", messageIndexes: [4] },
      { text: "user: 你好！\nassistant: 你好，有什么可以帮你？", messageIndexes: [5, 6] },
      { text: "I want to talk about the adoption agencies I researched last week for our family.", messageIndexes: [7] },
      { text: "Thanks!", messageIndexes: [8] },
    ]);
  });

  it("produces nothing for whitespace-only messages", async () => {
    expect(await model.segment([user(0, "  \n\t "), user(1, "")])).toEqual([]);
  });

  it("never drops text, never exceeds the limit, keeps order (generated inputs)", async () => {
    const random = mulberry32(42);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const words = [
      "the",
      "adoption",
      "agency",
      "Isabella",
      "JWT",
      "painting",
      "3.5",
      "用户系统",
      "登录",
      "模块",
      "的",
      "我们",
      "😀",
      "e-mail",
      "Dr.",
    ];
    const marks = [" ", " ", " ", "", "，", "。", ". ", "! ", "? ", "\n", "、", "; ", ", ", "…"];
    for (let round = 0; round < 60; round++) {
      const messages: ModelMessage[] = [];
      const count = 1 + Math.floor(random() * 8);
      for (let i = 0; i < count; i++) {
        let content = "";
        const length = pick([0, 1, 3, 8, 30, 120]) * (1 + Math.floor(random() * 3));
        for (let w = 0; w < length; w++) content += pick(words) + pick(marks);
        const role = pick(["user", "assistant", "system"] as const);
        messages.push(random() < 0.5 ? { index: i, role, content } : { index: i, role, content, name: "Ann" });
      }
      checkSegments(messages, await model.segment(messages));
    }
  });
});
