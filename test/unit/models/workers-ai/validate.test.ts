// The Workers AI provider against a fake `AI` binding: nothing here reaches the network. The fake
// records every call and answers from a script, so request shapes, batching, parsing, validation
// and the retry-then-fallback path are checked exactly.
import { describe, expect, it } from "vitest";
import { RELATION } from "../../../../src/vocabulary/relations";
import type { ModelMessage } from "../../../../src/models/types";
import { COMPRESS_EXAMPLES } from "../../../../src/models/workers-ai/prompts/compress";
import { EXTRACT_EXAMPLES } from "../../../../src/models/workers-ai/prompts/extract";
import { QUERY_KEYWORDS_EXAMPLES } from "../../../../src/models/workers-ai/prompts/query-keywords";
import { RELATIONS_EXAMPLES } from "../../../../src/models/workers-ai/prompts/relations";
import { SEGMENT_EXAMPLES } from "../../../../src/models/workers-ai/prompts/segment";
import {
  validateCompression,
  validateExtractions,
  validateQueryKeywords,
  validateRelations,
  validateSegments,
} from "../../../../src/models/workers-ai/validate";
import { LONG, fakeAi, modelOn, user } from "./fake-ai";

describe("answer validation", () => {
  const messages: ModelMessage[] = [user(0, "Hi", "Alice"), { index: 1, role: "assistant", content: "Hello!" }, user(2, LONG, "Alice")];
  const segmentWith = (segments: unknown): Promise<unknown> => modelOn(fakeAi(() => ({ response: { segments } }))).segment(messages);

  it("accepts verbatim segments with speaker labels on merged lines", async () => {
    const segments = [
      { text: "Alice: Hi\nassistant: Hello!", messageIndexes: [0, 1] },
      { text: ` ${LONG} `, messageIndexes: [2] },
    ];
    expect(await segmentWith(segments)).toEqual([
      { text: "Alice: Hi\nassistant: Hello!", messageIndexes: [0, 1] },
      { text: LONG, messageIndexes: [2] },
    ]);
  });

  it("rejects a segmentation that drops, paraphrases or pads text, or has bad message indexes", async () => {
    const head = { text: "Alice: Hi\nassistant: Hello!", messageIndexes: [0, 1] };
    const invalid = { code: "invalid_answer" };
    await expect(segmentWith([head, { text: LONG.replace(" with pizza", ""), messageIndexes: [2] }])).rejects.toMatchObject(invalid);
    await expect(segmentWith([head, { text: LONG.replace("finished", "ended"), messageIndexes: [2] }])).rejects.toMatchObject(invalid);
    await expect(segmentWith([head, { text: `${LONG} It was great, everyone agreed.`, messageIndexes: [2] }])).rejects.toMatchObject(
      invalid,
    );
    await expect(
      segmentWith([
        { ...head, messageIndexes: [1, 0] },
        { text: LONG, messageIndexes: [2] },
      ]),
    ).rejects.toMatchObject(invalid);
    await expect(segmentWith([head, { text: LONG, messageIndexes: [7] }])).rejects.toMatchObject(invalid);
    await expect(segmentWith([head, { text: LONG, messageIndexes: [] }])).rejects.toMatchObject(invalid);
    await expect(segmentWith([{ text: LONG, messageIndexes: [2] }, head])).rejects.toMatchObject(invalid);
  });

  it("rejects an extraction answer of the wrong length; cuts phrases, drops blank keywords and pronoun entities", async () => {
    const one = {
      phrase: "登录模块的JWT迁移昨天已经全部顺利完成了并且庆祝",
      keywords: ["JWT", " ", "jwt", "登录模块"],
      entities: ["我", "JWT", "登录模块", "团队", "披萨"],
    };
    const ai = fakeAi((call) => ({ response: { items: call === 0 ? [one, one] : [one] } }));
    await expect(modelOn(ai).extract(["a"])).rejects.toMatchObject({ code: "invalid_answer" });
    expect(await modelOn(ai).extract(["a"])).toEqual([
      { phrase: "登录模块的JWT迁移昨天已经全部顺利完成", keywords: ["JWT", "登录模块"], entities: ["JWT", "登录模块", "团队"] },
    ]);
  });

  it("rejects a relation outside the vocabulary or a wrong count", async () => {
    const request = [{ segment: "We use JWT.", entity: "JWT" }];
    await expect(modelOn(fakeAi(() => ({ response: { relations: ["属于"] } }))).nameRelations(request)).rejects.toMatchObject({
      code: "schema_mismatch",
    });
    expect(() => validateRelations(["属于"], 1)).toThrow(/not in the vocabulary/);
    expect(() => validateRelations([RELATION.about], 2)).toThrow(/expected 2 relations, got 1/);
    expect(validateRelations([" 关于 "], 1)).toEqual(["关于"]);
  });

  it("rejects a compression over its target in code points, or an empty one", async () => {
    const compressWith = (text: string): Promise<string> => modelOn(fakeAi(() => ({ response: { text } }))).compress(LONG, 10);
    await expect(compressWith("JWT done, team party")).rejects.toMatchObject({ code: "invalid_answer" });
    await expect(compressWith("   ")).rejects.toMatchObject({ code: "invalid_answer" });
    expect(await compressWith("登录模块迁移完成")).toBe("登录模块迁移完成");
    expect(await compressWith("JWT迁移完成😀😀😀")).toBe("JWT迁移完成😀😀😀");
  });

  it("rejects empty query keywords and removes duplicates", async () => {
    const keywordsWith = (keywords: string[]): Promise<string[]> =>
      modelOn(fakeAi(() => ({ response: { keywords } }))).queryKeywords("JWT?");
    await expect(keywordsWith(["JWT", ""])).rejects.toMatchObject({ code: "invalid_answer" });
    expect(await keywordsWith(["JWT", " jwt ", "登录模块"])).toEqual(["JWT", "登录模块"]);
  });

  it("teaches only valid answers: every few-shot example passes its own validator", () => {
    for (const { input, output } of SEGMENT_EXAMPLES) {
      const asMessages = input.messages.map((m) =>
        m.speaker === m.role ? { index: m.index, role: m.role, content: m.content } : { ...m, name: m.speaker },
      );
      expect(validateSegments(asMessages, output.segments)).toEqual(output.segments);
    }
    for (const { input, output } of EXTRACT_EXAMPLES) expect(validateExtractions(output.items, input.texts.length)).toEqual(output.items);
    for (const { input, output } of RELATIONS_EXAMPLES)
      expect(validateRelations(output.relations, input.pairs.length)).toEqual(output.relations);
    for (const { input, output } of COMPRESS_EXAMPLES) expect(validateCompression(output.text, input.target)).toBe(output.text);
    for (const { output } of QUERY_KEYWORDS_EXAMPLES) expect(validateQueryKeywords(output.keywords)).toEqual(output.keywords);
  });
});
