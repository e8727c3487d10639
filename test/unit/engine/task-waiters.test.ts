import { describe, expect, it } from "vitest";
import { TaskWaiters } from "../../../src/engine/task-waiters";

describe("who waits for a task", () => {
  it("hands a read's result or failure to its caller once, and tells whether anyone still waits", async () => {
    const waiters = new TaskWaiters();
    const result = waiters.result("t1");
    expect(waiters.awaited("t1")).toBe(true);
    waiters.resolve("t1", { ok: 1 });
    expect(waiters.awaited("t1")).toBe(false);
    await expect(result).resolves.toEqual({ ok: 1 });
    const failing = waiters.result("t2");
    waiters.reject("t2", new Error("gone"));
    await expect(failing).rejects.toThrow("gone");
    waiters.resolve("t3", "nobody waits"); // no caller: nothing happens
    expect(waiters.awaited("t3")).toBe(false);
  });

  it("releases those waiting for a task's end when it finishes, or one that another finished, or after the timeout", async () => {
    const waiters = new TaskWaiters();
    const order: string[] = [];
    const a = waiters.finish("a", 60_000).then(() => order.push("a"));
    const b = waiters.finish("b", 60_000).then(() => order.push("b"));
    const c = waiters.finish("c", 1).then(() => order.push("c"));
    await c;
    waiters.finished("a");
    await a;
    waiters.finishedAmong((id) => id === "b");
    await b;
    expect(order).toEqual(["c", "a", "b"]);
  });
});
