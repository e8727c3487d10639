/**
 * Deleting is deleting (issue 28, findings 4 and 5): a purge and an agent deletion leave no copy of
 * the content anywhere an API call can reach (task results, Idempotency-Key replays, staged
 * imports: test/import-limits.test.ts), and a retry after the deletion is told so (409), never
 * that its write is queued.
 */
import { describe, expect, it } from "vitest";
import { expectEnvelope } from "./edge-helpers";
import { call, freshAgent, json, rememberAndWait } from "./helpers";
import { fileOf, importInto } from "./transfer-helpers";

const SECRET = "Olivia's medical diagnosis is type 1 diabetes.";

interface Created {
  node_id: number;
  task_id: string;
}

async function create(agent: string, content: string, key?: string): Promise<{ status: number; body: Created }> {
  const res = await call(`/v1/agents/${agent}/memories`, { body: { content }, ...(key ? { headers: { "Idempotency-Key": key } } : {}) });
  return { status: res.status, body: await json<Created>(res) };
}

/** Everything the agent answers about its tasks and memories, as text. */
async function everythingSaid(agent: string, taskIds: string[]): Promise<string> {
  const parts: string[] = [];
  for (const id of taskIds) parts.push(await (await call(`/v1/agents/${agent}/tasks/${id}`)).text());
  parts.push(await (await call(`/v1/agents/${agent}/memories?include_superseded=true`)).text());
  parts.push(await (await call(`/v1/agents/${agent}/export`)).text());
  parts.push(await (await call(`/v1/agents/${agent}/recall`, { body: { keywords: ["Olivia", "diabetes"] } })).text());
  return parts.join("\n");
}

describe("issue 28 finding 4: purge leaves the content readable", () => {
  it("after a purge, the create's and the update's task results hold no text, and replaying them answers 409 (not the text, not a node that is gone)", async () => {
    const agent = freshAgent("purge");
    const created = await create(agent, "Olivia's medical diagnosis is pending.", "create-1");
    expect(created.status).toBe(201);
    const updated = await call(`/v1/agents/${agent}/memories/${created.body.node_id}`, {
      method: "PATCH",
      headers: { "Idempotency-Key": "update-1" },
      body: { content: SECRET },
    });
    expect(updated.status).toBe(200);
    const current = (await json<{ node_id: number }>(updated)).node_id;
    const other = await create(agent, "Olivia walks her dog every morning.", "create-2");
    const updateTask =
      (
        await json<{ items: { node_id: number; source_task_id: string }[] }>(
          await call(`/v1/agents/${agent}/memories?include_superseded=true`),
        )
      ).items.find((i) => i.node_id === current)?.source_task_id ?? "";
    expect(await everythingSaid(agent, [created.body.task_id, updateTask])).toContain("type 1 diabetes");

    const purged = await call(`/v1/agents/${agent}/memories/${current}?purge=true`, { method: "DELETE" });
    expect(purged.status).toBe(200);
    expect(await json(purged)).toMatchObject({ purged: true, nodes_deleted: expect.arrayContaining([created.body.node_id, current]) });
    const said = await everythingSaid(agent, [created.body.task_id, updateTask]);
    expect(said).not.toContain("diabetes");
    expect(said).not.toContain("diagnosis is pending");
    expect(await json(await call(`/v1/agents/${agent}/tasks/${created.body.task_id}`))).toMatchObject({
      status: "done",
      result: { purged: true },
    });
    // Replays: the write was applied and deleted since; nothing is queued again.
    const before = await json(await call(`/v1/agents/${agent}/stats?wait_ms=30000`));
    const replay = await create(agent, "Olivia's medical diagnosis is pending.", "create-1");
    expect(replay.status).toBe(409);
    expect(JSON.stringify(replay.body)).not.toContain("diagnosis");
    const replayUpdate = await call(`/v1/agents/${agent}/memories/${created.body.node_id}`, {
      method: "PATCH",
      headers: { "Idempotency-Key": "update-1" },
      body: { content: SECRET },
    });
    await expectEnvelope(replayUpdate, 409, "conflict");
    expect(await json(await call(`/v1/agents/${agent}/stats?wait_ms=30000`))).toEqual(before);
    // The same key with another request is still that (422); an unrelated memory's key still replays.
    expect((await create(agent, "Something else.", "create-1")).status).toBe(422);
    expect(await create(agent, "Olivia walks her dog every morning.", "create-2")).toEqual(other);
  });
});

describe("issue 28 finding 5: a retry after agent deletion gets 202 for nothing", () => {
  it("deleting the agent retires the Idempotency-Keys of everything it held: a retried create, remember or import answers 409 and queues nothing; the deletion's own retry still answers 200", async () => {
    const agent = freshAgent("retry-after-delete");
    const created = await create(agent, SECRET, "create-1");
    expect(created.status).toBe(201);
    const remember = await call(`/v1/agents/${agent}/remember`, {
      headers: { "Idempotency-Key": "remember-1" },
      body: { messages: [{ role: "user", content: "Olivia moved to Leeds." }] },
    });
    expect(remember.status).toBe(202);
    const file = await fileOf([], { next_node_id: 1 });
    const other = freshAgent("import-then-delete");
    expect((await importInto(other, file, { "Idempotency-Key": "import-1" })).status).toBe(200);
    await call(`/v1/agents/${agent}/stats?wait_ms=30000`);
    for (const a of [agent, other]) {
      expect((await call(`/v1/agents/${a}`, { method: "DELETE", headers: { "Idempotency-Key": "delete-1" } })).status).toBe(200);
    }
    const before = await json(await call(`/v1/agents/${agent}/stats?wait_ms=30000`));
    const retried = await create(agent, SECRET, "create-1");
    expect(retried.status).toBe(409);
    expect(JSON.stringify(retried.body)).not.toContain("diabetes");
    await expectEnvelope(
      await call(`/v1/agents/${agent}/remember`, {
        headers: { "Idempotency-Key": "remember-1" },
        body: { messages: [{ role: "user", content: "Olivia moved to Leeds." }] },
      }),
      409,
      "conflict",
    );
    await expectEnvelope(await importInto(other, file, { "Idempotency-Key": "import-1" }), 409, "conflict");
    expect(await json(await call(`/v1/agents/${agent}/stats?wait_ms=30000`))).toEqual(before);
    expect((await call(`/v1/agents/${agent}/tasks/${created.body.task_id}`)).status).toBe(404);
    // The deletion's own key answers as the first time; a write after the deletion keeps its key.
    expect((await call(`/v1/agents/${agent}`, { method: "DELETE", headers: { "Idempotency-Key": "delete-1" } })).status).toBe(200);
    const fresh = await create(agent, "Olivia plays chess.", "create-2");
    expect(fresh.status).toBe(201);
    expect(await create(agent, "Olivia plays chess.", "create-2")).toEqual(fresh);
    await rememberAndWait(agent, [{ role: "user", content: "A new start." }]);
  });
});
