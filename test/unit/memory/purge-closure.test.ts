import { describe, expect, it } from "vitest";
import { entitiesToPurge, unmentionedAliases } from "../../../src/memory/purge-closure";
import { RELATION } from "../../../src/vocabulary/relations";

const about = (source: number, target: number) => ({ source, target, relation: RELATION.about });
const context = (source: number, target: number) => ({ source, target, relation: RELATION.context });

describe("entitiesToPurge (docs/design.md, Purge)", () => {
  it("takes an entity only purged memories name; keeps one a memory that stays names, or a forgotten one (a dangling 关于)", () => {
    // 1 purged; 2 stays; 9 forgotten earlier (no node): entity 10 only by 1, 11 by 1 and 2, 12 by 1 and 9.
    const links = [about(1, 10), about(10, 1), about(1, 11), about(2, 11), about(11, 2), about(1, 12), about(12, 9)];
    expect(entitiesToPurge({ candidates: [10, 11, 12], purged: new Set([1]), links, entities: new Set([10, 11, 12]) })).toEqual([10]);
  });

  it("a memory that was only in focus (相关) does not name it; another entity never names it", () => {
    const links = [about(1, 10), context(2, 10), context(10, 2), about(10, 13)];
    expect(entitiesToPurge({ candidates: [10], purged: new Set([1]), links, entities: new Set([10, 13]) })).toEqual([10]);
  });
});

describe("unmentionedAliases", () => {
  const alias = (key: string, name: string, nodeId = 10) => ({ key, name, nodeId });

  it("keeps an alias a remaining mention holds as a word, whatever its case and width; drops one held only inside a longer word", () => {
    const mentions = new Map([[10, ["Zorvath keeps the LANTERNS in the shed.", "ＢＯＢ fixed it."]]]);
    expect(unmentionedAliases([alias("lantern", "lantern"), alias("lanterns", "Lanterns"), alias("bob", "Bob")], mentions)).toEqual([
      "lantern",
    ]);
  });

  it("a Chinese alias needs no word boundary; an entity without mentions loses every alias", () => {
    const mentions = new Map([[10, ["我们讨论了用户系统的设计"]]]);
    expect(unmentionedAliases([alias("用户", "用户"), alias("登录", "登录")], mentions)).toEqual(["登录"]);
    expect(unmentionedAliases([alias("x", "Xavier", 11)], mentions)).toEqual(["x"]);
  });
});
