/**
 * Deleting is deleting (issue 28, findings 4 and 5; issue 34, findings 1–3): a purge and an agent
 * deletion leave no copy of the content anywhere an API call can reach (task results,
 * Idempotency-Key replays, staged imports: test/import-limits.test.ts), a purge takes the entities
 * only its memories named and works on a memory forgotten before, and a retry after the deletion
 * is told so (409), never that its write is queued. The property over every surface:
 * test/purge-property.test.ts.
 */
import { describe, expect, it } from "vitest";
import { expectEnvelope } from "./edge-helpers";
import { call, freshAgent, json, rememberAndWait } from "./helpers";
import { everySurface, memoriesOf, occurrences } from "./purge-surfaces";
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
    // The same key with another request is still that (422); an unrelated memory's key still replays,
    // without the names of entities only the purged memory named (issue 34 finding 2).
    expect((await create(agent, "Something else.", "create-1")).status).toBe(422);
    const kept = await create(agent, "Olivia walks her dog every morning.", "create-2");
    expect(kept.status).toBe(201);
    expect(kept.body.node_id).toBe(other.body.node_id);
    expect(JSON.stringify(kept.body)).not.toMatch(/diagnosis|diabetes/);
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

/** The first memory (the segment, before its episode) whose text holds `word`. */
async function firstHolding(agent: string, word: string): Promise<number> {
  return Math.min(...(await memoriesOf(agent)).filter((m) => m.content.includes(word)).map((m) => m.node_id));
}

describe("issue 34 finding 1: a memory forgotten before cannot be purged", () => {
  it("a deleted memory is purged by its id: its trace, its create's result and its key go (before: 404, the replay gave the text back)", async () => {
    const agent = freshAgent("purge-forgotten");
    const secret = "My bank PIN is 4711, the account is at Sparkasse.";
    const created = await create(agent, secret, "create-pin");
    expect(created.status).toBe(201);
    await create(agent, "The weekly budget meeting is on Monday.");
    expect((await call(`/v1/agents/${agent}/memories/${created.body.node_id}`, { method: "DELETE" })).status).toBe(200);
    // Forgotten, not purged: a trace may still say what it was about.
    const before = await everySurface(agent, { words: ["PIN", "Sparkasse", "budget"], taskIds: [created.body.task_id] });
    expect(occurrences(before, ["Sparkasse"]).length).toBe(1);

    const purged = await call(`/v1/agents/${agent}/memories/${created.body.node_id}?purge=true`, { method: "DELETE" });
    expect(purged.status).toBe(200);
    expect(await json(purged)).toMatchObject({ purged: true, nodes_deleted: expect.arrayContaining([created.body.node_id]) });
    const after = await everySurface(agent, {
      words: ["PIN", "Sparkasse", "4711", "bank", "budget"],
      taskIds: [created.body.task_id],
      replays: [{ path: `/v1/agents/${agent}/memories`, method: "POST", key: "create-pin", body: { content: secret } }],
      nodeIds: [created.body.node_id],
    });
    expect(occurrences(after, ["Sparkasse", "PIN", "4711"])).toEqual([]);
    expect(occurrences(after, ["budget meeting"]).length).toBe(1);
    expect((await create(agent, secret, "create-pin")).status).toBe(409);
    // Nothing is left of it: a second purge finds nothing.
    await expectEnvelope(
      await call(`/v1/agents/${agent}/memories/${created.body.node_id}?purge=true`, { method: "DELETE" }),
      404,
      "not_found",
    );
  });
});

describe("issue 34 finding 1: a memory forgotten before cannot be purged (its episode forgotten too)", () => {
  it("a remembered memory whose episode was deleted too is purged by its id: the remember's key answers 409 and its message id is released", async () => {
    const agent = freshAgent("purge-forgotten-remember");
    const body = { messages: [{ role: "user" as const, content: "Ottoline hides the safe code in the cookbook.", id: "m-safe" }] };
    const res = await call(`/v1/agents/${agent}/remember`, { headers: { "Idempotency-Key": "remember-safe" }, body });
    const { task_id } = await json<{ task_id: string }>(res);
    await call(`/v1/agents/${agent}/tasks/${task_id}?wait_ms=30000`);
    const ids = (await memoriesOf(agent)).filter((m) => m.content.includes("cookbook")).map((m) => m.node_id);
    const segment = Math.min(...ids);
    const episode = Math.max(...ids);
    expect(episode).toBeGreaterThan(segment);
    // Both forgotten: nothing in the network leads to the remember any more but the object's note of it.
    for (const id of [episode, segment]) expect((await call(`/v1/agents/${agent}/memories/${id}`, { method: "DELETE" })).status).toBe(200);
    expect((await call(`/v1/agents/${agent}/memories/${segment}?purge=true`, { method: "DELETE" })).status).toBe(200);
    await expectEnvelope(
      await call(`/v1/agents/${agent}/remember`, { headers: { "Idempotency-Key": "remember-safe" }, body }),
      409,
      "conflict",
    );
    expect(await json(await call(`/v1/agents/${agent}/tasks/${task_id}`))).toMatchObject({ result: { purged: true } });
    const again = await rememberAndWait(agent, body.messages);
    expect(again.result).toMatchObject({ segments: 1, messages_skipped: 0 });
  });
});

describe("issue 34 finding 2: entities of a purged memory stay", () => {
  it("an entity only the purged memory named leaves the focus, the profile, the context, entity search, the export and task results; one another memory names stays", async () => {
    const agent = freshAgent("purge-entities");
    const first = await rememberAndWait(agent, [
      { role: "user", content: "Zephyrine Okonkwo was diagnosed with narcolepsy at Rigshospitalet." },
    ]);
    const second = await rememberAndWait(agent, [{ role: "user", content: "Rigshospitalet is the big hospital in Copenhagen." }]);
    const said = await everySurface(agent, { words: ["Zephyrine", "Okonkwo", "Rigshospitalet"], taskIds: [first.task_id, second.task_id] });
    expect(occurrences(said, ["Zephyrine"]).length).toBe(1);
    const target = await firstHolding(agent, "Zephyrine");
    const purged = await call(`/v1/agents/${agent}/memories/${target}?purge=true`, { method: "DELETE" });
    expect(purged.status).toBe(200);
    const after = await everySurface(agent, {
      words: ["Zephyrine", "Okonkwo", "narcolepsy", "Rigshospitalet"],
      taskIds: [first.task_id, second.task_id],
    });
    expect(occurrences(after, ["Zephyrine", "Okonkwo", "narcolepsy"])).toEqual([]);
    // Named by a memory that stays: still an entity, in the focus and the export.
    const focus = await json<{ focus: { name: string }[] }>(await call(`/v1/agents/${agent}/focus`));
    expect(focus.focus.map((f) => f.name)).toContain("Rigshospitalet");
    expect(occurrences(after, ["Copenhagen"]).length).toBe(1);
    // The second remember's result keeps its own focus names, without the purged ones.
    const task = await json<{ result: { focus: string[] } }>(await call(`/v1/agents/${agent}/tasks/${second.task_id}`));
    expect(task.result.focus).toContain("Rigshospitalet");
  });
});

describe("issue 34 finding 2: entities of a purged memory stay (aliases)", () => {
  it("an alias only the purged memory spoke goes, with the entity it leads to kept for the memory that stays", async () => {
    const agent = freshAgent("purge-alias");
    const kept = await create(agent, "Zorvath keeps the lanterns in the garden shed.");
    const purged = await create(agent, "Zorvath lit one lantern for Wilhelmina.");
    const lanterns = (
      await json<{ links: { outgoing: { target: number; relation: string }[] } }>(
        await call(`/v1/agents/${agent}/memories/${kept.body.node_id}`),
      )
    ).links.outgoing.map((l) => l.target);
    let aliasOwner: number | undefined;
    for (const id of lanterns) {
      const view = await json<{ kind: string; content: string; aliases?: { name: string }[] }>(
        await call(`/v1/agents/${agent}/memories/${id}`),
      );
      if (view.aliases?.some((a) => a.name === "lantern")) aliasOwner = id;
    }
    expect(aliasOwner, "the singular met the stored plural and was kept as its alias").toBeDefined();
    expect((await call(`/v1/agents/${agent}/memories/${purged.body.node_id}?purge=true`, { method: "DELETE" })).status).toBe(200);
    const after = await everySurface(agent, { words: ["lantern", "Wilhelmina"], nodeIds: [aliasOwner ?? 0] });
    expect(occurrences(after, ["lantern", "Wilhelmina"])).toEqual([]);
    expect(occurrences(after, ["lanterns", "Zorvath"]).length).toBe(2);
  });
});

describe("issue 34 finding 3: a remember's key replays after its purge", () => {
  it("a remember's Idempotency-Key replayed after its purge answers 409 and queues nothing (before: 202 with the old task id)", async () => {
    const agent = freshAgent("purge-remember-key");
    const body = { messages: [{ role: "user", content: "Tobiah keeps the spare key under the blue flowerpot." }] };
    const first = await call(`/v1/agents/${agent}/remember`, { headers: { "Idempotency-Key": "remember-key" }, body });
    expect(first.status).toBe(202);
    const { task_id } = await json<{ task_id: string }>(first);
    await call(`/v1/agents/${agent}/tasks/${task_id}?wait_ms=30000`);
    const target = await firstHolding(agent, "flowerpot");
    expect((await call(`/v1/agents/${agent}/memories/${target}?purge=true`, { method: "DELETE" })).status).toBe(200);
    const before = await json(await call(`/v1/agents/${agent}/stats?wait_ms=30000`));
    const replay = await call(`/v1/agents/${agent}/remember`, { headers: { "Idempotency-Key": "remember-key" }, body });
    await expectEnvelope(replay, 409, "conflict");
    expect(await json(await call(`/v1/agents/${agent}/stats?wait_ms=30000`))).toEqual(before);
    expect(await json(await call(`/v1/agents/${agent}/tasks/${task_id}`))).toMatchObject({ status: "done", result: { purged: true } });
  });
});
