import { describe, expect, it } from "vitest";
import { DigestAhead } from "../../../src/engine/digest-ahead";
import { digestByTasks } from "../../../src/models/digest";
import { LocalModel } from "../../../src/models/local/local-model";
import type { SmallModel } from "../../../src/models/types";
import { countingModel } from "../../fakes/digesting-ai";

describe("digests asked ahead of their turn", () => {
  /** A model whose shared calls are recorded (task ids of each call) and answered by the local model. */
  function sharingModel(fail: () => boolean = () => false): SmallModel & { groups: string[][] } {
    const local = new LocalModel();
    const groups: string[][] = [];
    return {
      ...countingModel(local, new Map()),
      groups,
      digestMany: async (conversations, max) => {
        groups.push(conversations.map((c) => c[0]?.content.split(":")[0] ?? ""));
        if (fail()) throw new Error("unavailable");
        return Promise.all(conversations.map((c) => digestByTasks(local, c, max)));
      },
    };
  }
  const task = (n: number) => ({
    taskId: `t${n}`,
    messages: [{ index: 0, role: "user" as const, content: `t${n}: Alice moved to Berlin in ${n}.` }],
  });
  const queue = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => task(from + i));

  it("asks the running remember with the next four, and full groups of five beyond, once each", async () => {
    const model = sharingModel();
    const ahead = new DigestAhead();
    const first = await ahead.digest(model, task(1), queue(2, 13), 80);
    expect(first).toEqual(await digestByTasks(new LocalModel(), task(1).messages, 80));
    expect(model.groups).toEqual([
      ["t1", "t2", "t3", "t4", "t5"],
      ["t6", "t7", "t8", "t9", "t10"],
    ]);
    // t2 is answered from the first call; t11–t13 wait for a full group or their turn.
    await ahead.digest(model, task(2), queue(3, 14), 80);
    expect(model.groups).toHaveLength(2);
    for (let n = 3; n <= 10; n++) await ahead.digest(model, task(n), queue(n + 1, 14), 80);
    expect(model.groups).toHaveLength(2);
    await ahead.digest(model, task(11), queue(12, 14), 80);
    expect(model.groups.at(-1)).toEqual(["t11", "t12", "t13", "t14"]);
  });

  it("asks again when the messages changed since (an earlier remember stored some) or the shared call failed", async () => {
    let failing = true;
    const model = sharingModel(() => failing);
    const ahead = new DigestAhead();
    // The shared call fails: the running task asks on its own (digestOf: here the local three tasks).
    expect(await ahead.digest(model, task(1), queue(2, 5), 80)).toEqual(await digestByTasks(new LocalModel(), task(1).messages, 80));
    failing = false;
    // t2's answer was in that failed call: t2 asks on its own (one digest), no shared call.
    expect(await ahead.digest(model, task(2), queue(3, 5), 80)).toEqual(await digestByTasks(new LocalModel(), task(2).messages, 80));
    expect(model.groups).toHaveLength(1);
    // t3 now stores other messages than were asked ahead: asked again.
    const changed = { taskId: "t3", messages: [{ index: 0, role: "user" as const, content: "t3: Bob stayed in Paris." }] };
    const before = model.groups.length;
    expect(await ahead.digest(model, changed, queue(4, 5), 80)).toEqual(await digestByTasks(new LocalModel(), changed.messages, 80));
    expect(model.groups.length).toBe(before + 1);
    expect(model.groups.at(-1)).toEqual(["t3"]);
  });
});
