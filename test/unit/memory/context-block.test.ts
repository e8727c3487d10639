import { describe, expect, it } from "vitest";
import { assembleContext, type ContextMemory } from "../../../src/memory/context-block";
import { energyOf } from "../../../src/memory/energy";
import { estimateTokens } from "../../../src/text/token-estimate";

const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);

describe("the pure pieces", () => {
  it("the profile's pieces in the block are one item per line, and episodes keep their speakers' lines indented", () => {
    const block = assembleContext(
      {
        memories: [],
        episodes: [
          { node_id: 20, summary: "Alice: one\nBob: two", participants: ["Alice", "Bob"], from: null, to: null, remembered_at: T0 },
        ],
        profile: {
          participant: null,
          participants: [{ name: "Alice", messages: 2 }],
          lines: [{ participant: "Alice\nBob", text: "We chose JWT.\nLater.", memory_ids: [1] }],
          entities: [],
          focus: [],
        },
        traces: [],
        pastFirst: true,
      },
      1000,
      "en",
    );
    expect(block.text).toContain("## Profile\nParticipants: Alice (2)\nAbout Alice Bob:\n- We chose JWT. Later.");
    expect(block.profileLines).toBe(2);
    expect(block.text).toContain(`- Alice: one\n  Bob: two (Alice, Bob; ${new Date(T0).toISOString().slice(0, 10)})`);
  });

  it("never exceeds the budget, drops the least relevant pieces first and never cuts one", () => {
    const memories: ContextMemory[] = Array.from({ length: 30 }, (_, i) => ({
      node_id: i + 1,
      pinned: false,
      content: `${i % 2 ? "登录模块" : "The Phoenix launch"} memory number ${i} with some words`,
      speaker: i % 3 ? null : "Alice",
      energy: energyOf(i / 30),
      entities: i % 4 ? [] : ["Phoenix"],
      conflicts_with: i === 2 ? [9] : [],
    }));
    const traces = [{ phrase: "payment audit" }, { phrase: "登录模块" }];
    for (const budget of [20, 50, 200, 1000, 5000]) {
      for (const locale of ["zh", "en"] as const) {
        const block = assembleContext({ memories, episodes: [], profile: null, traces, pastFirst: false }, budget, locale);
        expect(estimateTokens(block.text), `${budget} ${locale}`).toBeLessThanOrEqual(budget);
        expect(block.usedTokens).toBe(estimateTokens(block.text));
        // A prefix of the ranked memories, each line whole.
        expect(block.memories.map((m) => m.node_id)).toEqual(memories.slice(0, block.memories.length).map((m) => m.node_id));
        for (const m of block.memories) expect(block.text).toContain(m.content);
        if (block.memories.length < memories.length) {
          // Tight: one more memory would not fit.
          const more = assembleContext(
            { memories: memories.slice(0, block.memories.length + 1), episodes: [], profile: null, traces: [], pastFirst: false },
            Number.MAX_SAFE_INTEGER,
            locale,
          );
          expect(estimateTokens(more.text), `${budget} ${locale}`).toBeGreaterThan(budget);
          expect(block.traces).toEqual([]);
        }
      }
    }
    const wide = assembleContext({ memories, episodes: [], profile: null, traces, pastFirst: false }, 5000, "en");
    expect(wide.text).toContain("(conflicts with another memory)");
    expect(wide.text.indexOf("## Once known")).toBeGreaterThan(wide.text.indexOf("## Relevant memories"));
  });
});
