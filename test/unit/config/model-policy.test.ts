import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL_POLICY, modelPolicyOf } from "../../../src/config/model-policy";
import {} from "../../fakes/digesting-ai";

describe("model_policy", () => {
  it("parses MODEL_POLICY over the default and refuses unknown operations or providers", () => {
    expect(modelPolicyOf(undefined)).toEqual(DEFAULT_MODEL_POLICY);
    expect(modelPolicyOf("compression=workers-ai, conflicts=local")).toEqual({
      ...DEFAULT_MODEL_POLICY,
      compression: "workers-ai",
      conflicts: "local",
    });
    expect(() => modelPolicyOf("ranking=local")).toThrow(/MODEL_POLICY/);
    expect(() => modelPolicyOf("compression=openai")).toThrow(/MODEL_POLICY/);
  });
});
