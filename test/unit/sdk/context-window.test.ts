/**
 * The context-window helper refuses a window too small for a useful memory block with a typed
 * error (it used to inject an empty block: a tenth of 400 tokens holds no memory), and
 * MIN_BLOCK_TOKENS is what one memory of median length needs in the API's own context block.
 */
import { describe, expect, it } from "vitest";
import { ContextWindowTooSmallError, MemoryClient, MemoryError, MIN_BLOCK_TOKENS } from "../../../sdk/src";
import { ContextWindow, fingerprint128 } from "../../../sdk/src/context-window";
import { assembleContext, type ContextMemory } from "../../../src/memory/context-block";
import { estimateTokens } from "../../../src/text/token-estimate";
import type { Locale } from "../../../src/vocabulary/locales";

// No request is made: the helper checks its options when it is made.
const agent = new MemoryClient({ baseUrl: "http://memory.test", apiKey: "k" }).agent("a");

function refusal(make: () => unknown): ContextWindowTooSmallError {
  try {
    make();
  } catch (err) {
    if (err instanceof ContextWindowTooSmallError) return err;
    throw err;
  }
  throw new Error("not refused");
}

describe("contextWindow: the smallest window", () => {
  it("refuses a window whose block would be too small, with a typed error that says what would do", () => {
    const err = refusal(() => agent.contextWindow({ contextMaxTokens: 400 }));
    expect(err).toBeInstanceOf(MemoryError);
    expect(err.name).toBe("ContextWindowTooSmallError");
    expect(err).toMatchObject({ contextMaxTokens: 400, blockTokens: 40, minimumBlockTokens: MIN_BLOCK_TOKENS });
    expect(err.message).toContain(`at least ${MIN_BLOCK_TOKENS * 10} tokens`);
    // A tenth of the window from 10 × MIN_BLOCK_TOKENS on; below it, a block given explicitly.
    expect(() => agent.contextWindow({ contextMaxTokens: MIN_BLOCK_TOKENS * 10 })).not.toThrow();
    expect(() => agent.contextWindow({ contextMaxTokens: MIN_BLOCK_TOKENS * 10 - 10 })).toThrow(ContextWindowTooSmallError);
    expect(() => agent.contextWindow({ contextMaxTokens: 400, blockTokens: MIN_BLOCK_TOKENS })).not.toThrow();
    expect(refusal(() => agent.contextWindow({ contextMaxTokens: 4000, blockTokens: MIN_BLOCK_TOKENS - 1 })).message).toMatch(
      /holds no memory of ordinary length/,
    );
    // 0: no block at all, on purpose.
    expect(() => agent.contextWindow({ contextMaxTokens: 400, blockTokens: 0 })).not.toThrow();
    // A block that leaves no room for messages below the target (half of 100 tokens).
    expect(refusal(() => agent.contextWindow({ contextMaxTokens: 100, blockTokens: MIN_BLOCK_TOKENS })).message).toMatch(
      /no room for messages/,
    );
    expect(() => agent.contextWindow({ contextMaxTokens: 1000, blockTokens: 1.5 })).toThrow(RangeError);
  });

  it("MIN_BLOCK_TOKENS holds a memory of median length with its speaker and entities in either language; a tenth of 400 holds none", () => {
    // Median turns: 41 tokens (LoCoMo dev, 1,451 English turns), 42 (MADial-Bench dev, 614 Chinese turns).
    const cases: [Locale, ContextMemory][] = [
      [
        "en",
        {
          node_id: 1,
          pinned: false,
          content:
            "Caroline went to the LGBTQ support group yesterday and she said it was truly powerful for her and for her friends there.",
          speaker: "Caroline",
          energy: "●",
          entities: ["Caroline", "LGBTQ"],
          conflicts_with: [],
        },
      ],
      [
        "zh",
        {
          node_id: 2,
          pinned: false,
          content: "我今天拿到了数学考试的满分！真的超级开心，我想好好庆祝。",
          speaker: "Bart",
          energy: "●",
          entities: ["数学考试", "满分"],
          conflicts_with: [],
        },
      ],
    ];
    for (const [locale, memory] of cases) {
      expect(estimateTokens(memory.content), locale).toBe(locale === "en" ? 41 : 42);
      const pieces = { memories: [memory], episodes: [], profile: null, traces: [], pastFirst: false };
      expect(assembleContext(pieces, MIN_BLOCK_TOKENS, locale).memories, locale).toHaveLength(1);
      expect(assembleContext(pieces, 40, locale).text, locale).toBe("");
    }
  });
});

describe("issue 34 finding 9: the context window's message ids collide", () => {
  it("ids and Idempotency-Keys carry a 128-bit fingerprint: two texts whose 32-bit FNV-1a met get different ids, and two batches of different messages never share a key", async () => {
    // FNV-1a 128's published vectors.
    expect(fingerprint128("")).toBe("6c62272e07bb014262b821756295c58d");
    expect(fingerprint128("a")).toBe("d228cb696f1a8caf78912b704e4a8964");
    // "note 96249" and "note 114006" had the same 32-bit id (found by search), so the second conversation's was skipped.
    const window = agent.contextWindow({ contextMaxTokens: 8000 });
    const first = window.idOf({ role: "user", content: "note 96249" }, 0);
    const second = window.idOf({ role: "user", content: "note 114006" }, 0);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^cw-0-[0-9a-f]{32}$/);
    // Keys: two flushes whose first and last messages are the same but not the middle one.
    const keys: string[] = [];
    const recorder = {
      remember: async (_input: unknown, options?: { idempotencyKey?: string }) => {
        keys.push(options?.idempotencyKey ?? "");
        return { task_id: `tsk_${keys.length}`, status: "queued" as const };
      },
    };
    const conversation = (middle: string) => [
      { role: "user" as const, content: "Hello." },
      { role: "assistant" as const, content: middle },
      { role: "user" as const, content: "Bye." },
    ];
    for (const middle of ["The train leaves at six.", "The bus leaves at seven."]) {
      const w = new ContextWindow(recorder as unknown as ConstructorParameters<typeof ContextWindow>[0], { contextMaxTokens: 8000 });
      await w.flush(conversation(middle));
    }
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[0]?.length).toBeLessThanOrEqual(255);
  });
});
