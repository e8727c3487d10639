import { describe, expect, it } from "vitest";
import { RELATION } from "../../../../src/vocabulary/relations";
import { LocalModel } from "../../../../src/models/local/local-model";

const model = new LocalModel();

describe("nameRelations", () => {
  it("says 关于 when the segment names the entity (any case, width, plural), else 相关", async () => {
    const relations = await model.nameRelations([
      { segment: "I took some photos at the lake.", entity: "Photo" },
      { segment: "What a party!", entity: "art" },
      { segment: "ＡＬＩＣＥ said hi", entity: "Alice's" },
      { segment: "We moved to New York.", entity: "new york" },
      { segment: "这个项目很重要", entity: "项目的" },
      { segment: "这个项目很重要", entity: "用户系统" },
      { segment: "我用ｊｗｔ做登录", entity: "JWT" },
    ]);
    expect(relations).toEqual([
      RELATION.about,
      RELATION.context,
      RELATION.about,
      RELATION.about,
      RELATION.about,
      RELATION.context,
      RELATION.about,
    ]);
  });
});
