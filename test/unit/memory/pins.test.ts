/** Pins in the pure domain (docs/design.md, "Pins"): a correction moves the pin; the context block lists pinned memories first. */
import { describe, expect, it } from "vitest";
import { assembleContext, type ContextMemory } from "../../../src/memory/context-block";
import { supersedeOps } from "../../../src/memory/link-moves";
import { matchesFilter } from "../../../src/vocabulary/records";
import { memoryNode } from "../memory-node";

const version = (id: number, pinned: boolean) => memoryNode(id, { kind: "memory", content: `version ${id}`, originalLength: 9, pinned });

const supersede = (pinned: boolean) =>
  supersedeOps({
    old: version(3, pinned),
    newId: 9,
    fromLinks: [],
    toLinks: [],
    clock: 0,
    epoch: 1,
    now: 0,
    linkInitialStrength: 0.5,
    kinds: new Map(),
  }).ops.filter((op) => op.type === "patchNodes");

describe("a correction of a pinned memory", () => {
  it("moves the pin to the new version and leaves the old one, history, unpinned", () => {
    expect(supersede(true)).toEqual([
      { type: "patchNodes", ids: [3], fields: { supersededBy: 9, pinned: false } },
      { type: "patchNodes", ids: [9], fields: { pinned: true } },
    ]);
    expect(supersede(false)).toEqual([{ type: "patchNodes", ids: [3], fields: { supersededBy: 9 } }]);
  });

  it("selects nodes by their fields: a pinned current version, not its history", () => {
    const filter = { pinned: true, supersededBy: null };
    expect(matchesFilter(version(1, true), filter)).toBe(true);
    expect(matchesFilter(version(2, false), filter)).toBe(false);
    expect(matchesFilter({ ...version(3, true), supersededBy: 4 }, filter)).toBe(false);
    expect(matchesFilter(version(5, false), {})).toBe(true);
  });
});

const memory = (node_id: number, content: string, pinned: boolean): ContextMemory => ({
  node_id,
  pinned,
  content,
  speaker: null,
  energy: "◌",
  entities: [],
  conflicts_with: [],
});

describe("the context block with pinned memories", () => {
  const recalled = [memory(1, "The Phoenix launch moved to May.", false), memory(2, "Phoenix needs two more testers.", false)];
  const pinned = memory(7, "Always answer Nora in French.", true);

  it("lists them first under their own heading, in either language, whatever comes first otherwise", () => {
    for (const pastFirst of [false, true]) {
      const block = assembleContext({ memories: [...recalled, pinned], episodes: [], profile: null, traces: [], pastFirst }, 1000, "en");
      expect(block.memories.map((m) => m.node_id)).toEqual([7, 1, 2]);
      const heading = block.text.indexOf("## Pinned memories");
      expect(heading).toBeGreaterThan(-1);
      expect(block.text.indexOf("Always answer Nora in French.")).toBeGreaterThan(heading);
      expect(block.text.indexOf("## Relevant memories")).toBeGreaterThan(block.text.indexOf("Always answer Nora in French."));
    }
    const zh = assembleContext({ memories: [pinned], episodes: [], profile: null, traces: [], pastFirst: false }, 1000, "zh");
    expect(zh.text).toContain("## 置顶记忆");
    expect(zh.text).not.toContain("## 相关记忆");
  });

  it("takes a pinned memory before any other when the budget holds one line, and never passes the budget", () => {
    const one = assembleContext({ memories: [...recalled, pinned], episodes: [], profile: null, traces: [], pastFirst: false }, 40, "en");
    expect(one.memories.map((m) => m.node_id)).toEqual([7]);
    expect(one.usedTokens).toBeLessThanOrEqual(40);
    const none = assembleContext({ memories: recalled, episodes: [], profile: null, traces: [], pastFirst: false }, 1000, "en");
    expect(none.text).not.toContain("## Pinned memories");
  });
});
