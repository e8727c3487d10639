import { describe, expect, it } from "vitest";
import { scriptLanguage } from "../../../src/text/script-language";

describe("the rule (pure)", () => {
  it("tells an agent's language by the script of its texts; Chinese texts holding Latin words stay Chinese", () => {
    expect(scriptLanguage(["Nina lives in Oslo.", "Pixel is a cat."])).toBe("en");
    expect(scriptLanguage(["决定采用JWT方案。", "建议使用短时效token。", "Alice moved to Berlin."])).toBe("zh");
    expect(scriptLanguage(["Alice moved to Berlin.", "Bob likes tea.", "小明在打篮球。"])).toBe("en");
    expect(scriptLanguage(["12:30", "…"])).toBeUndefined();
    expect(scriptLanguage([])).toBeUndefined();
  });
});
