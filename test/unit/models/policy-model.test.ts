import { describe, expect, it } from "vitest";
import { digestByTasks } from "../../../src/models/digest";
import { LocalModel } from "../../../src/models/local/local-model";
import { modelPolicyOf } from "../../../src/config/model-policy";
import { PolicyModel } from "../../../src/models/policy-model";
import { WorkersAiModel } from "../../../src/models/workers-ai/workers-ai-model";
import { MODEL, conversation, digestingAi } from "../../fakes/digesting-ai";

describe("model_policy", () => {
  it("sends each operation where the policy says: compression locally, a digest with local summaries to Workers AI", async () => {
    const ai = digestingAi((a) => (a.summary = "Remote summary."));
    const model = new PolicyModel(new WorkersAiModel(ai, { model: MODEL }), new LocalModel(), () => modelPolicyOf("summaries=local"));
    const long = "The JWT migration of the login module finished yesterday, and the whole team celebrated with pizza.";
    expect(await model.compress(long, 30)).toBe(await new LocalModel().compress(long, 30));
    // The shortened text's phrase and keywords follow compression, not extraction.
    expect(await model.extractCompressed(["JWT migration done"])).toEqual(await new LocalModel().extract(["JWT migration done"]));
    expect(await model.summarizeCompressed([long], 40)).toBe(await new LocalModel().summarize([long], 40));
    expect(ai.tasks).toEqual([]);
    const messages = conversation(4);
    const digest = await model.digest(messages, 80);
    expect(ai.tasks).toEqual(["window_digest"]);
    expect(digest.summary).toBe((await digestByTasks(new LocalModel(), messages, 80)).summary);
    expect(model.digestMany).toBeDefined();
    const local = new PolicyModel(new WorkersAiModel(ai, { model: MODEL }), new LocalModel(), () => modelPolicyOf("extraction=local"));
    expect(local.digestMany).toBeUndefined();
  });
});
