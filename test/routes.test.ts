import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { storeKey } from "../src/storage/api-keys";
import { createDb } from "../src/storage/db";
import { agentUid, call, DEV_KEY, drainAlarms, freshAgent, json, rememberAndWait, revokeByKey, stubOf } from "./helpers";

interface ErrorEnvelope {
  error: { code: string; message: string; details?: unknown };
}

async function expectError(res: Response, status: number, code: string): Promise<ErrorEnvelope> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = await json<ErrorEnvelope>(res);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

/** Nothing was queued or stored for the agent. */
async function expectNothingWritten(agentId: string): Promise<void> {
  expect(await agentUid(agentId)).toBeUndefined();
  const stats = await stubOf(agentId).stats({ tenantId: "dev", agentId });
  expect(stats.queue).toEqual({ queued: 0, running: 0, done: 0, failed: 0 });
}

const hello = [{ role: "user", content: "我今天去了公园，看到了很多花。" }];

describe("POST /remember", () => {
  it("accepts messages with 202 and a task id, and the task completes with counts", async () => {
    const agent = freshAgent();
    const res = await call(`/v1/agents/${agent}/remember`, { body: { messages: hello } });
    expect(res.status).toBe(202);
    const accepted = await json<{ task_id: string; status: string; queued_ahead: number }>(res);
    expect(accepted.task_id).toMatch(/^tsk_/);
    expect(accepted.status).toBe("queued");
    const status = await json<{ status: string; result: Record<string, number> }>(
      await call(`/v1/agents/${agent}/tasks/${accepted.task_id}?wait_ms=30000`),
    );
    expect(status.status).toBe("done");
    expect(status.result.segments).toBeGreaterThan(0);
    expect(status.result.nodes_created).toBeGreaterThan(0);
  });

  it("refuses malformed JSON with 400 invalid_json", async () => {
    const agent = freshAgent();
    await expectError(await call(`/v1/agents/${agent}/remember`, { rawBody: '{"messages": [' }), 400, "invalid_json");
    await expectNothingWritten(agent);
  });

  it("refuses wrong types with 400 and names the field", async () => {
    const agent = freshAgent();
    const body = await expectError(
      await call(`/v1/agents/${agent}/remember`, { body: { messages: [{ role: "bot", content: 5 }] } }),
      400,
      "validation_failed",
    );
    expect(JSON.stringify(body.error.details)).toContain("messages.0.role");
    expect(JSON.stringify(body.error.details)).toContain("messages.0.content");
    await expectError(await call(`/v1/agents/${agent}/remember`, { body: { messages: "hi" } }), 400, "validation_failed");
    await expectError(await call(`/v1/agents/${agent}/remember`, { body: [] }), 400, "validation_failed");
    await expectNothingWritten(agent);
  });

  it("refuses empty messages and blank content", async () => {
    const agent = freshAgent();
    await expectError(await call(`/v1/agents/${agent}/remember`, { body: { messages: [] } }), 400, "validation_failed");
    await expectError(
      await call(`/v1/agents/${agent}/remember`, { body: { messages: [{ role: "user", content: "   " }] } }),
      400,
      "validation_failed",
    );
    await expectNothingWritten(agent);
  });

  it("refuses oversized content, too many messages and oversized bodies with 413", async () => {
    const agent = freshAgent();
    const long = "很".repeat(32_001);
    await expectError(
      await call(`/v1/agents/${agent}/remember`, { body: { messages: [{ role: "user", content: long }] } }),
      413,
      "payload_too_large",
    );
    const many = Array.from({ length: 501 }, () => ({ role: "user", content: "hi" }));
    await expectError(await call(`/v1/agents/${agent}/remember`, { body: { messages: many } }), 413, "payload_too_large");
    const huge = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(1024 * 1024) }] });
    await expectError(await call(`/v1/agents/${agent}/remember`, { rawBody: huge }), 413, "payload_too_large");
    await expectNothingWritten(agent);
  });

  it("refuses a non-JSON content type with 415", async () => {
    const agent = freshAgent();
    await expectError(
      await call(`/v1/agents/${agent}/remember`, {
        rawBody: "messages=hi",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      415,
      "unsupported_media_type",
    );
    await expectNothingWritten(agent);
  });

  it("refuses bad agent ids with 400", async () => {
    for (const bad of ["-starts-with-dash", "has:colon", "a".repeat(65), "sp%20ace"]) {
      await expectError(await call(`/v1/agents/${bad}/remember`, { body: { messages: hello } }), 400, "validation_failed");
    }
  });

  it("takes the agent from the path, never from the body", async () => {
    const agent = freshAgent();
    const other = freshAgent();
    await rememberAndWait(agent, [{ role: "user", content: "Alice adopted a puppy named Rex." }]);
    // A body naming another agent is refused (unknown fields are), and nothing is written anywhere.
    const res = await call(`/v1/agents/${agent}/remember`, {
      body: { agentId: other, agent_id: other, tenant: "someone-else", messages: hello },
    });
    expect(res.status).toBe(400);
    expect(await agentUid(other)).toBeUndefined();
    const stats = await json<{ counters: Record<string, number> }>(await call(`/v1/agents/${agent}/stats`));
    expect(stats.counters.remembers).toBe(1);
  });
});

describe("authentication", () => {
  it("refuses a missing, malformed or unknown key with 401 and writes nothing", async () => {
    const agent = freshAgent();
    await expectError(await call(`/v1/agents/${agent}/remember`, { body: { messages: hello }, key: null }), 401, "unauthorized");
    await expectError(
      await call(`/v1/agents/${agent}/remember`, { body: { messages: hello }, key: null, headers: { Authorization: "Basic abc" } }),
      401,
      "unauthorized",
    );
    await expectError(await call(`/v1/agents/${agent}/remember`, { body: { messages: hello }, key: "nope" }), 401, "unauthorized");
    await expectError(await call(`/v1/agents/${agent}/stats`, { key: "nope" }), 401, "unauthorized");
    await expectNothingWritten(agent);
  });

  it("accepts keys stored hashed in D1, scoped to their tenant; revoked keys are refused", async () => {
    const db = createDb(env.DB);
    await storeKey(db, "key-tenant-a", "tenant-a", "test", Date.now());
    await storeKey(db, "key-tenant-b", "tenant-b", "test", Date.now());
    const stored = await env.DB.prepare("SELECT key_hash FROM api_keys WHERE tenant_id = 'tenant-a'").first<{ key_hash: string }>();
    expect(stored?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.key_hash).not.toContain("key-tenant-a");

    const agent = "shared-name";
    const a = await call(`/v1/agents/${agent}/remember`, {
      key: "key-tenant-a",
      body: { messages: [{ role: "user", content: "Tenant A's secret project is called Falcon." }] },
    });
    expect(a.status).toBe(202);
    const { task_id } = await json<{ task_id: string }>(a);
    await call(`/v1/agents/${agent}/tasks/${task_id}?wait_ms=30000`, { key: "key-tenant-a" });
    const statsA = await json<{ nodes: { total: number } }>(await call(`/v1/agents/${agent}/stats`, { key: "key-tenant-a" }));
    const statsB = await json<{ nodes: { total: number } }>(await call(`/v1/agents/${agent}/stats`, { key: "key-tenant-b" }));
    expect(statsA.nodes.total).toBeGreaterThan(0);
    expect(statsB.nodes.total).toBe(0);
    // Tenant B cannot see tenant A's task either.
    expect((await call(`/v1/agents/${agent}/tasks/${task_id}`, { key: "key-tenant-b" })).status).toBe(404);
    const recallB = await call(`/v1/agents/${agent}/recall`, { key: "key-tenant-b", body: { keywords: ["Falcon"] } });
    expect(await recallB.text()).toBe("");

    await revokeByKey("key-tenant-a");
    await expectError(await call(`/v1/agents/${agent}/stats`, { key: "key-tenant-a" }), 401, "unauthorized");
  });
});

describe("POST /recall input", () => {
  it("refuses depth out of range, wrong types and unknown formats with 400", async () => {
    const agent = freshAgent();
    for (const body of [
      { depth: 0 },
      { depth: 7 },
      { depth: 1.5 },
      { keywords: "JWT" },
      { keywords: [""] },
      { format: "xml" },
      { limit: 0 },
    ]) {
      await expectError(await call(`/v1/agents/${agent}/recall`, { body }), 400, "validation_failed");
    }
    await expectError(await call(`/v1/agents/${agent}/recall`, { rawBody: "{" }), 400, "invalid_json");
    await expectError(await call(`/v1/agents/${agent}/recall?format=xml`, { body: {} }), 400, "validation_failed");
    await expectNothingWritten(agent);
  });

  it("answers an agent with no memories with empty text, or empty JSON items", async () => {
    const agent = freshAgent();
    const text = await call(`/v1/agents/${agent}/recall`, { body: { keywords: ["anything"] } });
    expect(text.status).toBe(200);
    expect(text.headers.get("content-type")).toContain("text/plain");
    expect(await text.text()).toBe("");
    const res = await call(`/v1/agents/${agent}/recall?format=json`, { body: { keywords: ["anything"] } });
    expect(await json(res)).toEqual({ items: [], start_nodes: 0, reached_nodes: 0, text: "" });
    await expectNothingWritten(agent);
  });
});

describe("read endpoints", () => {
  it("answers 404 for unknown tasks, nodes and routes, 400 for malformed ids", async () => {
    const agent = freshAgent();
    await expectError(await call(`/v1/agents/${agent}/tasks/tsk_doesnotexist00`), 404, "not_found");
    await expectError(await call(`/v1/agents/${agent}/tasks/nope`), 400, "validation_failed");
    await expectError(await call(`/v1/agents/${agent}/nodes/123`), 404, "not_found");
    await expectError(await call(`/v1/agents/${agent}/nodes/abc`), 400, "validation_failed");
    await expectError(await call(`/v1/agents/${agent}/nodes/0`), 400, "validation_failed");
    await expectError(await call(`/v1/nothing-here`), 404, "not_found");
    await expectError(await call(`/v1/agents/${agent}/tasks/tsk_doesnotexist00?wait_ms=99999`), 400, "validation_failed");
  });

  it("serves focus, node, stats and health", async () => {
    const agent = freshAgent();
    await rememberAndWait(agent, [{ role: "user", content: "Alice moved to Berlin last spring.", name: "Bob", id: "m1" }]);
    const focus = await json<{ focus_limit: number; focus: { node_id: number; name: string }[] }>(await call(`/v1/agents/${agent}/focus`));
    expect(focus.focus_limit).toBe(5);
    expect(focus.focus.map((f) => f.name)).toContain("Alice");
    const alice = focus.focus.find((f) => f.name === "Alice");
    const node = await json<{ kind: string; in_focus: boolean; links: { outgoing: { strength: number; pinned: boolean }[] } }>(
      await call(`/v1/agents/${agent}/nodes/${alice?.node_id}`),
    );
    expect(node.kind).toBe("entity");
    expect(node.in_focus).toBe(true);
    expect(node.links.outgoing.length).toBeGreaterThan(0);
    expect(node.links.outgoing.every((l) => l.strength === 1 && l.pinned)).toBe(true);
    await drainAlarms(agent);
    const stats = await json<{
      nodes: { segments: number };
      queue: { done: number };
      characters: { held: number; remembered: number };
      counters: Record<string, number>;
    }>(await call(`/v1/agents/${agent}/stats`));
    expect(stats.nodes.segments).toBe(1);
    // The remember and the compression cycle it triggered.
    expect(stats.queue.done).toBe(2);
    expect(stats.counters.cycles).toBe(1);
    expect(stats.characters.held).toBe("Alice moved to Berlin last spring.".length);
    expect(stats.characters.remembered).toBe("Alice moved to Berlin last spring.".length);
    const health = await call(`/v1/health`, { key: null });
    expect(await json(health)).toEqual({ status: "ok", model_provider: "local", vector_provider: "local", database: "ok" });
  });

  it("publishes the OpenAPI document", async () => {
    const res = await call(`/v1/openapi.json`, { key: null });
    expect(res.status, await res.clone().text()).toBe(200);
    const doc = await json<{ openapi: string; paths: Record<string, unknown> }>(res);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/v1/agents/{agentId}/remember", "/v1/agents/{agentId}/recall", "/v1/agents/{agentId}/stats"]),
    );
  });
});

it("uses the documented development key", () => {
  expect(env.DEV_API_KEY).toBe(DEV_KEY);
});
