import { describe, expect, it } from "vitest";
import { entityKey, entityKeyVariants } from "../../../../src/language/entities/entity-key";

describe("entityKey", () => {
  const table: [string, string][] = [
    ["Alice", "alice"],
    ["alice", "alice"],
    ["ＡＬＩＣＥ", "alice"],
    ["Alice's", "alice"],
    ["Isabella’s", "isabella"],
    ["“Alice”", "alice"],
    ["项目的", "项目"],
    ["项目", "项目"],
    ["「用户系统」吗", "用户系统"],
    [" New   York. ", "new york"],
    ["C++", "c++"],
    ["C#", "c#"],
    ["的", ""],
    ["...", ""],
    ["  ", ""],
  ];
  it("folds case, width, possessives, quotes and trailing particles into one key", () => {
    for (const [name, key] of table) expect(entityKey(name), name).toBe(key);
  });
});

describe("relative times and composed memories (pure)", () => {
  it("knows the singular and plural of an English entity key", () => {
    expect(entityKeyVariants("photos")).toEqual(["photo"]);
    expect(entityKeyVariants("photo")).toEqual(["photos"]);
    expect(entityKeyVariants("parties")).toEqual(["party"]);
    expect(entityKeyVariants("project plan")).toEqual(["project plans"]);
    expect(entityKeyVariants("boxes")).toEqual(["box"]);
    expect(entityKeyVariants("bus")).toEqual([]);
    expect(entityKeyVariants("用户系统")).toEqual([]);
  });
});
