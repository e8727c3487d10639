import { describe, expect, it } from "vitest";
import { LocalModel } from "../../../../src/models/local/local-model";

const model = new LocalModel();

describe("queryKeywords", () => {
  it("keeps content words of a question, without question words", async () => {
    expect(await model.queryKeywords("What did Isabella research about adoption agencies?")).toEqual([
      "Isabella",
      "research",
      "adoption",
      "agencies",
    ]);
    expect(await model.queryKeywords("When did Rosalie go camping with her kids? Camping!")).toEqual(["Rosalie", "camping", "kids"]);
    expect(await model.queryKeywords("Alice的项目什么时候上线？")).toEqual(["Alice", "项目", "上线"]);
    expect(await model.queryKeywords("小白喜欢吃什么？")).toEqual(["小白", "喜欢"]);
  });
});
