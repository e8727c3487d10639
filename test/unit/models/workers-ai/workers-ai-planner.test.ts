// Workers AI's platform limits, against a fake binding that enforces them (test/fakes): context
// windows (5021), output caps (answers cut at max_tokens), the per-minute rate limit (3021) and the
// request shape of each model family. Time is simulated: minutes of back-off run in milliseconds.
import { describe, expect, it } from "vitest";
import { joinWindowSegments } from "../../../../src/models/window-join";
import type { ModelMessage } from "../../../../src/models/types";
import { TEXT_MODEL_PROFILES } from "../../../../src/models/workers-ai/model-profiles";
import { buildSegmentMessages } from "../../../../src/models/workers-ai/prompts/segment";
import { requestInputs } from "../../../../src/models/workers-ai/request-shapes";
import { chineseText, englishText, unbrokenChinese } from "../../../fakes/long-texts";
import { GEMMA, LLAMA, expectVerbatim, setup, user } from "./fake-service";

describe("long inputs are cut into windows that fit the model", () => {
  it("a 100,000-character Chinese remember that no single call could hold segments fully on Llama 3.3 (24k context)", async () => {
    const { ai, resilient, events } = setup();
    const messages = [0, 1, 2, 3].map((i) => user(i, chineseText(25_000, i * 1000)));
    // The limit is real: the whole submission in one request is refused by the service.
    const whole = requestInputs(TEXT_MODEL_PROFILES[LLAMA], {
      name: "segments",
      messages: buildSegmentMessages(messages),
      schema: {},
      maxTokens: 4096,
    });
    await expect(ai.run(LLAMA, whole)).rejects.toThrow(/^5021: .* exceeded this model context window limit \(24000\)/);
    const before = ai.calls.length;
    const segments = await resilient.segment(messages);
    const calls = ai.calls.slice(before);
    expect(calls.length).toBeGreaterThan(40);
    expect(calls.every((c) => c.outcome === "ok" && c.task === "segment")).toBe(true);
    expect(events.fellBack).not.toHaveBeenCalled();
    expectVerbatim(messages, segments);
    expect(segments.every((s, i) => i === 0 || (s.messageIndexes[0] ?? 0) >= (segments[i - 1]?.messageIndexes[0] ?? 0))).toBe(true);
  });

  it("a 120,000-character English remember segments fully on the default model (output-bound windows)", async () => {
    const { ai, resilient, events } = setup({ model: GEMMA });
    const messages = [0, 1, 2, 3, 4, 5].map((i) => user(i, englishText(20_000, i * 500)));
    const segments = await resilient.segment(messages);
    expect(ai.count("ok")).toBe(ai.calls.length);
    expect(ai.calls.length).toBeGreaterThan(6);
    expect(events.failed).not.toHaveBeenCalled();
    expectVerbatim(messages, segments);
  });

  it("keeps short exchanges, system messages and an unbroken CJK run intact around the cuts", async () => {
    const { ai, resilient, events } = setup();
    const messages: ModelMessage[] = [
      { index: 0, role: "user", content: "在吗？", name: "小王" },
      { index: 1, role: "assistant", content: "在的，请说。" },
      user(2, unbrokenChinese(9_000)),
      { index: 3, role: "system", content: "" },
      user(4, `${englishText(3_000)}\n\n${chineseText(3_000)}`),
      { index: 5, role: "assistant", content: "好的" },
    ];
    const segments = await resilient.segment(messages);
    expect(ai.count("ok")).toBe(ai.calls.length);
    expect(events.fellBack).not.toHaveBeenCalled();
    expect(segments[0]).toEqual({ text: "小王: 在吗？\nassistant: 在的，请说。", messageIndexes: [0, 1] });
    expectVerbatim(messages.slice(2), segments.slice(1));
  });

  it("plans windows a second planning leaves whole, and extraction batches within the output cap", () => {
    const { primary } = setup();
    const messages = [user(0, chineseText(12_000)), user(1, englishText(30_000))];
    const windows = primary.planner.segmentWindows(messages);
    expect(windows.length).toBeGreaterThan(4);
    for (const w of windows) expect(primary.planner.segmentWindows(w.messages)).toHaveLength(1);
    const rebuilt = messages.map((m) =>
      windows.reduce((text, w) => {
        const part = w.messages.find((p) => p.index === m.index);
        if (!part) return text;
        return text === "" ? part.content : `${text}${w.continuation?.index === m.index ? w.continuation.gap : ""}${part.content}`;
      }, ""),
    );
    expect(rebuilt).toEqual(messages.map((m) => m.content.trim()));
    const sizes = primary.planner.extractBatches(Array.from({ length: 100 }, (_, i) => chineseText(400, i)));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
  });

  it("joins a window boundary inside one message into one segment when it fits, and never drops or repeats one", () => {
    const windows = [
      { messages: [user(0, "First part.")] },
      { messages: [user(0, "Second part."), user(1, "Next message.")], continuation: { index: 0, gap: " " } },
      { messages: [user(1, "Tail.")], continuation: { index: 1, gap: "\n" } },
    ];
    const merged = joinWindowSegments(windows, [
      [{ text: "First part.", messageIndexes: [0] }],
      [
        { text: "Second part.", messageIndexes: [0] },
        { text: "Next message.", messageIndexes: [1] },
      ],
      [{ text: "Tail.", messageIndexes: [1] }],
    ]);
    expect(merged).toEqual([
      { text: "First part. Second part.", messageIndexes: [0] },
      { text: "Next message.\nTail.", messageIndexes: [1] },
    ]);
    const long = "x".repeat(150);
    const kept = joinWindowSegments(windows.slice(0, 2), [[{ text: long, messageIndexes: [0] }], [{ text: long, messageIndexes: [0] }]]);
    expect(kept).toHaveLength(2);
  });
});
