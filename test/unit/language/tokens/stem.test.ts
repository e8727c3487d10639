import { describe, expect, it } from "vitest";
import { stem } from "../../../../src/language/tokens/stem";

describe("stem", () => {
  const table: [string, string][] = [
    ["running", "run"],
    ["studies", "study"],
    ["painted", "paint"],
    ["photos", "photo"],
    ["bus", "bus"],
    ["buses", "bus"],
    ["news", "news"],
    ["agencies", "agency"],
    ["making", "make"],
    ["dancing", "dance"],
    ["stopped", "stop"],
    ["classes", "class"],
    ["boxes", "box"],
    ["movies", "movie"],
    ["finally", "final"],
    ["quickly", "quick"],
    ["family", "family"],
    ["needed", "need"],
    ["hiking", "hike"],
    ["tried", "try"],
    ["cities", "city"],
    ["changing", "change"],
    ["things", "thing"],
    ["paintings", "paint"],
    ["kids", "kid"],
    ["e-mails", "e-mail"],
    ["analysis", "analysis"],
    ["glass", "glass"],
    ["登录", "登录"],
    ["Alice", "Alice"],
  ];
  it("strips inflections conservatively", () => {
    for (const [word, expected] of table) expect(stem(word), word).toBe(expected);
  });

  it("is idempotent", () => {
    const words =
      "running studies painted photos buses agencies making excitedly heroes potatoes headaches beaches watching married happily weekly families butterflies continued arranging amazing focused hopping hoping".split(
        " ",
      );
    for (const w of [...words, ...table.map(([w]) => w)]) expect(stem(stem(w)), w).toBe(stem(w));
  });
});
