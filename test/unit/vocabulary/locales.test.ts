import { describe, expect, it } from "vitest";
import { chooseLocale, DEFAULT_LOCALE, type Locale } from "../../../src/vocabulary/locales";

describe("the rule (pure)", () => {
  const never = async (): Promise<Locale | undefined> => {
    throw new Error("the agent's language was read although an earlier source decided");
  };

  it("takes locale, then Accept-Language, then the agent's language, then English, reading the agent only when it decides", async () => {
    expect(await chooseLocale({ locale: "zh", accept_language: "en" }, never)).toBe("zh");
    expect(await chooseLocale({ accept_language: "zh" }, never)).toBe("zh");
    expect(await chooseLocale({}, async () => "zh")).toBe("zh");
    expect(await chooseLocale({}, async () => undefined)).toBe("en");
    expect(DEFAULT_LOCALE).toBe("en");
  });
});
