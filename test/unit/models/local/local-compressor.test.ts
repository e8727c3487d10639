import { describe, expect, it } from "vitest";
import { LocalModel } from "../../../../src/models/local/local-model";
import { codePointLength } from "../../../../src/text/code-points";

const model = new LocalModel();

const EN_LONG =
  "I've been painting a lot lately, mostly landscapes and sunsets. Painting really helps me relax after work. " +
  "Last weekend I went to the lake with my kids and we painted together. " +
  "They loved it so much that we want to go back next month with their friends.";

const ZH_LONG =
  "我最近在学习机器学习和深度学习，打算下个月参加一个数据科学比赛。我们团队有三个人，分别负责数据清洗、模型训练和结果分析。" +
  "比赛的奖金是十万元，如果能拿到名次，我们打算用奖金买一台新的服务器。";

const EN_COMPRESS =
  "Well, you know, it was a long day. The JWT migration of the login module finished yesterday, and the whole team celebrated with pizza.";

const ZH_COMPRESS = "嗯，今天有点累。登录模块的JWT迁移昨天完成了，团队一起吃了披萨庆祝。";

describe("compress", () => {
  it("returns the text unchanged when it fits", async () => {
    expect(await model.compress(EN_COMPRESS, 500)).toBe(EN_COMPRESS);
    expect(await model.compress(ZH_COMPRESS, codePointLength(ZH_COMPRESS))).toBe(ZH_COMPRESS);
  });

  it("keeps names, numbers and content words over filler, as the words themselves in order", async () => {
    // Whole clauses would lose words a question may ask for: the words themselves, in order.
    expect(await model.compress(EN_COMPRESS, 70)).toBe("long JWT migration login module finished whole team celebrated pizza");
    expect(await model.compress(EN_COMPRESS, 30)).toBe("day JWT migration login module");
    expect(await model.compress(ZH_COMPRESS, 30)).toBe("有点累登录模块JWT迁移完成团队披萨庆祝");
    expect(await model.compress(ZH_COMPRESS, 10)).toBe("模块JWT团队");
    // The filler goes first, even below the target, and a kept sentence sheds its function words
    // too (search never sees them): 22 code points where 50 were allowed.
    expect(await model.compress("Hi! Thanks so much. The JWT migration finished yesterday.", 50)).toBe("JWT migration finished");
    const pottery = "Oh wow, thanks! I signed up for a pottery class yesterday. It's like therapy for me.";
    expect(await model.compress(pottery, 60)).toBe("signed pottery class yesterday therapy");
    // A relative time word weighs as a plain content word: the memory keeps its date anyway.
    expect(await model.compress(pottery, 30)).toBe("signed pottery class therapy");
    expect(await model.compress("I have 2 kids and 3 cats, born in 2019. We live in Berlin and love it there so much, really.", 40)).toBe(
      "2 kids 3 cats born 2019 live Berlin",
    );
    // A name only addressed (a vocative) is who was spoken to, not what the memory is about.
    const necklace = "Thanks, Caroline! My grandma gave me this necklace in Sweden.";
    expect(await model.compress(necklace, 30)).toBe("grandma necklace Sweden");
    expect(await model.compress(necklace, 15)).toBe("necklace Sweden");
  });

  it("never exceeds the target, never returns empty, only uses the text's characters", async () => {
    const texts = [EN_COMPRESS, ZH_COMPRESS, EN_LONG, ZH_LONG, "Supercalifragilisticexpialidocious!", "我用JWT做登录😀"];
    for (const text of texts) {
      const length = codePointLength(text);
      const source = new Set(Array.from(text.toLowerCase()));
      for (let target = 1; target <= length + 1; target++) {
        const out = await model.compress(text, target);
        expect(codePointLength(out), `${text} @${target}`).toBeLessThanOrEqual(target);
        expect(out.trim(), `${text} @${target}`).not.toBe("");
        for (const ch of out.toLowerCase()) if (ch.trim() !== "") expect(source.has(ch), ch).toBe(true);
      }
    }
  });
});

describe("the compressor's candidate heap", () => {
  it("summarises a 2,000-sentence text with whole sentences of it, within the bound", async () => {
    const topics = ["harbour audit", "budget review", "launch plan", "Zanzibar trip", "JWT login"];
    const sentences = Array.from({ length: 2000 }, (_, i) => `The ${topics[i % 5]} moved to week ${i % 52}.`);
    const out = await model.summarize(sentences, 120);
    expect(codePointLength(out)).toBeLessThanOrEqual(120);
    const kept = out.split(/(?<=\.) /);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    for (const s of kept) expect(sentences).toContain(s);
  });
});
