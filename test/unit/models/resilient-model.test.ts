// The Workers AI provider against a fake `AI` binding: nothing here reaches the network. The fake
// records every call and answers from a script, so request shapes, batching, parsing, validation
// and the retry-then-fallback path are checked exactly.
import { describe, expect, it, vi } from "vitest";
import { LocalModel } from "../../../src/models/local/local-model";
import { ResilientModel } from "../../../src/models/resilient-model";
import { RetriesExhaustedError, retryPolicy } from "../../../src/models/retry";
import { LONG, fakeAi, modelOn } from "./workers-ai/fake-ai";

describe("retry, then fallback to the local model", () => {
  const events = () => ({ failed: vi.fn(), fellBack: vi.fn(), notRetried: vi.fn(), rateLimited: vi.fn() });

  it("retries a transient failure 1 + 3 times, then answers with the local model and reports both events", async () => {
    const ai = fakeAi(() => {
      throw new Error("network connection lost");
    });
    const fallback = new LocalModel();
    const ev = events();
    const model = new ResilientModel(
      modelOn(ai),
      fallback,
      retryPolicy(3, async () => {}),
      ev,
    );
    const expected = await fallback.compress(LONG, 40);
    expect(await model.compress(LONG, 40)).toBe(expected);
    expect(ai.calls).toHaveLength(4);
    expect(ev.failed).toHaveBeenCalledTimes(1);
    expect(ev.failed).toHaveBeenCalledWith("compress", expect.any(RetriesExhaustedError));
    expect(ev.notRetried).not.toHaveBeenCalled();
    expect(ev.fellBack).toHaveBeenCalledTimes(1);
    expect(ev.fellBack).toHaveBeenCalledWith("compress");
  });

  it("never retries a deterministic answer that failed (not JSON at temperature 0): one call, then the local model", async () => {
    const ai = fakeAi(() => ({ response: "not json at all" }));
    const ev = events();
    const model = new ResilientModel(
      modelOn(ai),
      new LocalModel(),
      retryPolicy(15, async () => {}),
      ev,
    );
    expect(await model.compress(LONG, 40)).toBe(await new LocalModel().compress(LONG, 40));
    expect(ai.calls).toHaveLength(1);
    expect(ev.notRetried).toHaveBeenCalledWith("compress", expect.objectContaining({ code: "not_json" }));
    expect(ev.failed).toHaveBeenCalledWith("compress", expect.objectContaining({ code: "not_json" }));
    expect(ev.fellBack).toHaveBeenCalledTimes(1);
  });

  it("uses the primary's answer when it succeeds on the 2nd attempt, without fallback", async () => {
    const ai = fakeAi((call) => {
      if (call === 0) throw new Error("overloaded");
      return { response: { keywords: ["JWT", "登录模块"] } };
    });
    const ev = events();
    const model = new ResilientModel(
      modelOn(ai),
      new LocalModel(),
      retryPolicy(3, async () => {}),
      ev,
    );
    expect(await model.queryKeywords("登录模块的JWT迁移什么时候完成？")).toEqual(["JWT", "登录模块"]);
    expect(ai.calls).toHaveLength(2);
    expect(ev.failed).not.toHaveBeenCalled();
    expect(ev.fellBack).not.toHaveBeenCalled();
  });
});
