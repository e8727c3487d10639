import { describe, expect, it } from "vitest";
import type { GraphNode } from "../../src/graph/model";
import { codePoints, langOf, linkWidth, listLabel, nodeAlpha, nodeLabel, nodeRadius, retainedShare } from "../../src/graph/style";
import { link, nodeView } from "./fixtures";

function node(importance: number, content = "abcdefgh", extra: Partial<GraphNode> = {}): GraphNode {
  return {
    id: 1,
    status: "loaded",
    view: nodeView(1, [], [], { importance, content, original_length: 8 }),
    start: false,
    expanded: false,
    x: 0,
    y: 0,
    ...extra,
  };
}

describe("visual encoding", () => {
  it("counts code points like the API (Chinese and emoji count 1)", () => {
    expect(codePoints("登录模块")).toBe(4);
    expect(codePoints("a😀b")).toBe(3);
  });

  it("sizes nodes by importance, monotonically, within bounds", () => {
    const radii = [0, 0.1, 0.5, 1, 2, 10, 1000].map((i) => nodeRadius(node(i)));
    expect(radii[0]).toBe(4);
    for (let i = 1; i < radii.length; i += 1) expect(radii[i]).toBeGreaterThanOrEqual(radii[i - 1] ?? 0);
    expect(Math.max(...radii)).toBe(26);
  });

  it("fills by the share of content still held and fades below importance 1", () => {
    expect(retainedShare(node(1, "abcd"))).toBe(0.5);
    expect(retainedShare(node(1, "abcdefgh"))).toBe(1);
    expect(nodeAlpha(node(2))).toBe(1);
    expect(nodeAlpha(node(0.5))).toBeCloseTo(0.675);
    expect(nodeAlpha(node(0))).toBeCloseTo(0.35);
  });

  it("widens links with strength", () => {
    expect(linkWidth(link(1, 2, 0))).toBeCloseTo(0.6);
    expect(linkWidth(link(1, 2, 1))).toBeCloseTo(4);
    expect(linkWidth(link(1, 2, 0.5))).toBeGreaterThan(linkWidth(link(1, 2, 0.2)));
  });

  it("labels ghosts by what they were, entities by name, memories by phrase (lists: content)", () => {
    const entity = node(1, "Alice", { view: nodeView(2, [], [], { kind: "entity", name: "alice", content: "Alice" }) });
    expect(nodeLabel(entity)).toBe("Alice");
    const memory = node(1, "Alice adopted a puppy.");
    expect(nodeLabel(memory)).toBe("phrase 1");
    expect(listLabel(memory)).toBe("Alice adopted a puppy.");
    expect(nodeLabel({ ...entity, status: "ghost" })).toBe("forgotten entity: Alice");
    expect(nodeLabel({ ...memory, status: "ghost", view: null })).toBe("forgotten #1");
  });

  it("marks Chinese text as Chinese", () => {
    expect(langOf("昨天讨论了登录模块")).toBe("zh");
    expect(langOf("Alice and 登录")).toBe("zh");
    expect(langOf("Alice")).toBe("en");
  });
});
