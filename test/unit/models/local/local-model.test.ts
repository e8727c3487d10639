import { expect, it } from "vitest";
import { LocalEmbedder, LocalModel } from "../../../../src/models/local/local-model";
import { type ModelMessage } from "../../../../src/models/types";

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

it("is deterministic: the same input gives identical output", async () => {
  const run = async () => ({
    segments: await model.segment([user(0, EN_LONG), user(1, "Hi!"), user(2, "你好！"), user(3, ZH_LONG)]),
    extractions: await model.extract([EN_LONG, ZH_LONG]),
    compressed: [await model.compress(EN_LONG, 40), await model.compress(ZH_LONG, 25)],
    keywords: await model.queryKeywords("What did Isabella paint? 她画了什么？"),
    vectors: (await new LocalEmbedder().embed([EN_LONG, ZH_LONG])).map((v) => Array.from(v)),
  });
  expect(await run()).toEqual(await run());
});
