import { describe, expect, it } from "vitest";
import { digestByTasks, joinWindowDigests } from "../../../src/models/digest";
import { LocalModel } from "../../../src/models/local/local-model";
import { ResilientModel } from "../../../src/models/resilient-model";
import { retryPolicy } from "../../../src/models/retry";
import type { WindowDigest } from "../../../src/models/types";
import { WorkersAiError } from "../../../src/models/workers-ai/workers-ai-error";
import { WorkersAiModel } from "../../../src/models/workers-ai/workers-ai-model";
import { MODEL, conversation, digestingAi } from "../../fakes/digesting-ai";

describe("the window digest", () => {
  it("answers segments, one extraction per segment and the summary of a 10-message remember in one call", async () => {
    const ai = digestingAi();
    const model = new WorkersAiModel(ai, { model: MODEL });
    const messages = conversation(10);
    const digest = await model.digest(messages, 80);
    expect(ai.tasks).toEqual(["window_digest"]);
    const local = await digestByTasks(new LocalModel(), messages, 80);
    expect(digest.segments).toEqual(local.segments);
    expect(digest.summary).toBe(local.summary);
    expect(digest.segments.length).toBeGreaterThan(0);
    // The extract task's validator applies (at most ENTITIES_MAX entities, most salient first).
    expect(digest.extractions.map((e) => [e.phrase, e.entities])).toEqual(local.extractions.map((e) => [e.phrase, e.entities.slice(0, 3)]));
  });

  it("rejects a digest that drops text or overruns the summary, as the separate tasks' validators do", async () => {
    const dropping = new WorkersAiModel(
      digestingAi((a) => a.segments.pop()),
      { model: MODEL },
    );
    await expect(dropping.digest(conversation(4), 80)).rejects.toBeInstanceOf(WorkersAiError);
    const long = new WorkersAiModel(
      digestingAi((a) => (a.summary = "x".repeat(81))),
      { model: MODEL },
    );
    await expect(long.digest(conversation(4), 80)).rejects.toBeInstanceOf(WorkersAiError);
  });

  it("falls back to the local model for a window whose digest fails, and counts the fallback", async () => {
    const ai = digestingAi((a) => a.segments.pop());
    const fellBack: string[] = [];
    const model = new ResilientModel(
      new WorkersAiModel(ai, { model: MODEL }),
      new LocalModel(),
      retryPolicy(0, async () => {}),
      {
        failed: () => {},
        fellBack: (op) => fellBack.push(op),
      },
    );
    const messages = conversation(6);
    expect(await model.digest(messages, 80)).toEqual(await digestByTasks(new LocalModel(), messages, 80));
    expect(fellBack).toEqual(["digest"]);
  });

  it("joins windows: a message cut by a window boundary is one segment again, with one merged extraction", () => {
    const text = "First half of a thought. Second half of the same thought.";
    const cut = text.indexOf("Second");
    const windows = [
      { messages: [{ index: 0, role: "user" as const, content: text.slice(0, cut - 1) }] },
      { messages: [{ index: 0, role: "user" as const, content: text.slice(cut) }], continuation: { index: 0, gap: " " } },
    ];
    const digests: WindowDigest[] = [
      {
        segments: [{ text: text.slice(0, cut - 1), messageIndexes: [0] }],
        extractions: [{ phrase: "first", keywords: ["thought"], entities: ["A"] }],
        summary: "One.",
      },
      {
        segments: [{ text: text.slice(cut), messageIndexes: [0] }],
        extractions: [{ phrase: "second", keywords: ["half"], entities: ["B"] }],
        summary: "Two.",
      },
    ];
    const joined = joinWindowDigests(windows, digests, 6);
    expect(joined.segments).toEqual([{ text, messageIndexes: [0] }]);
    expect(joined.extractions).toEqual([{ phrase: "first", keywords: ["thought", "half"], entities: ["A"] }]);
    expect(joined.summary).toBe("One. T");
  });
});
