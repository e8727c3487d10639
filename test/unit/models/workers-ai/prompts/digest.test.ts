import { describe, expect, it } from "vitest";
import { digestByTasks } from "../../../../../src/models/digest";
import { LocalModel } from "../../../../../src/models/local/local-model";
import { WorkersAiModel } from "../../../../../src/models/workers-ai/workers-ai-model";
import { MODEL, conversation, digestingAi } from "../../../../fakes/digesting-ai";

describe("model_policy", () => {
  it("shares one call among queued remembers' conversations that fit one window", async () => {
    const ai = digestingAi();
    const model = new WorkersAiModel(ai, { model: MODEL });
    const conversations = [conversation(3), conversation(4), conversation(2)];
    const digests = await model.digestMany(conversations, 80);
    expect(ai.tasks).toEqual(["window_digests"]);
    const local = await Promise.all(conversations.map((c) => digestByTasks(new LocalModel(), c, 80)));
    expect(digests.map((d) => d.segments)).toEqual(local.map((d) => d.segments));
  });
});
