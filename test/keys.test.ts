/**
 * Keys with a lifecycle (issue 37 items 1, 2 and 6; docs/design.md, "Tenants and keys"): the admin
 * API exists only with the operator secret and takes no tenant key; keys are shown once and stored
 * hashed; a key's scope and agent-id prefix bound it on REST, tools/call, MCP and Workers RPC alike;
 * rotation keeps the old key for its grace period; revocation ends every surface, the OAuth tokens
 * made with the key included; the audit log records each step, with no key and no memory text.
 * Walked against a real local server, end to end: test-e2e/operator-day.test.ts.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MemoryEntrypoint } from "../src/rpc/memory-entrypoint";
import { fetchWorker } from "./edge-helpers";
import { call, DEV_KEY, freshAgent, json, operatorCall, OPERATOR_SECRET } from "./helpers";
import { connect, mcp } from "./oauth-client";

interface KeyView {
  prefix: string;
  scopes: string;
  agent_prefix: string | null;
  status: string;
  last_used_at: number | null;
  expires_at: number | null;
  replaced_by: string | null;
}

let tenants = 0;
function freshTenant(name: string): string {
  tenants += 1;
  return `${name}-${tenants}-${Math.random().toString(36).slice(2, 8)}`;
}

async function createKey(tenant: string, body: Record<string, unknown>): Promise<KeyView & { key: string }> {
  const res = await operatorCall(`/v1/admin/tenants/${tenant}/keys`, { body });
  expect(res.status).toBe(201);
  return json(res);
}

const remember = (agent: string, key: string, content = "Ada keeps the spare keys under the blue pot.") =>
  call(`/v1/agents/${agent}/remember`, { key, body: { messages: [{ role: "user", content }] } });

const toolCall = (agent: string, key: string, name: string, args: Record<string, unknown>) =>
  call(`/v1/agents/${agent}/tools/call`, { key, body: { name, arguments: args } });

async function errorOf(res: Response): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  return (await json<{ error: { code: string; message: string; details?: Record<string, unknown> } }>(res)).error;
}

function entrypoint(props: unknown): MemoryEntrypoint {
  const ctx = createExecutionContext();
  Object.defineProperty(ctx, "props", { value: props });
  return new MemoryEntrypoint(ctx, env);
}

describe("the admin API", () => {
  it("does not exist without the operator secret: every path under it answers 404, whatever the method", async () => {
    const without = { ...env, OPERATOR_SECRET: "" };
    for (const [method, path] of [
      ["GET", "/v1/admin/tenants/acme/keys"],
      ["POST", "/v1/admin/tenants/acme/keys"],
      ["DELETE", "/v1/admin/keys/revoke"],
      ["OPTIONS", "/v1/admin/tenants/acme/quotas"],
      ["GET", "/v1/admin"],
    ] as const) {
      const res = await fetchWorker(
        new Request(`http://localhost${path}`, { method, headers: { Authorization: `Bearer ${OPERATOR_SECRET}` } }),
        without,
      );
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await errorOf(res)).code).toBe("not_found");
    }
  });

  it("takes the operator secret only: no key (a tenant's, the development key), no other secret", async () => {
    const tenant = freshTenant("admin-auth");
    const { key } = await createKey(tenant, { scopes: "admin" });
    for (const credential of [key, DEV_KEY, `${OPERATOR_SECRET}x`, OPERATOR_SECRET.slice(0, -1)]) {
      const res = await call(`/v1/admin/tenants/${tenant}/keys`, { key: credential });
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toContain("agent-memory-operator");
      expect(await res.text()).not.toContain(credential);
    }
    expect((await call(`/v1/admin/tenants/${tenant}/keys`, { key: null })).status).toBe(401);
    expect((await operatorCall(`/v1/admin/tenants/${tenant}/keys`)).status).toBe(200);
  });

  it("refuses bad input with 400, creating nothing", async () => {
    const tenant = freshTenant("admin-input");
    for (const body of [{ scopes: "owner" }, { expires_in: "30 days" }, { agent_prefix: "a/b" }, { label: "two\nlines" }, { extra: 1 }]) {
      const res = await operatorCall(`/v1/admin/tenants/${tenant}/keys`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await operatorCall("/v1/admin/tenants/bad%20tenant/keys")).status).toBe(400);
    expect((await json<{ keys: unknown[] }>(await operatorCall(`/v1/admin/tenants/${tenant}/keys`))).keys).toEqual([]);
  });
});

describe("a key's scope and agent-id prefix", () => {
  it("a read key reads, and cannot write (403 naming the scope) on REST, tools/call, MCP or Workers RPC", async () => {
    const tenant = freshTenant("scopes");
    const writer = await createKey(tenant, { scopes: "write" });
    const reader = await createKey(tenant, { scopes: "read", agent_prefix: "sup-" });
    expect(writer.key).toMatch(/^amk_[A-Za-z0-9]{32}$/);
    expect(reader.prefix).toBe(reader.key.slice(0, 12));
    const agent = `sup-${freshAgent("desk")}`;
    expect((await remember(agent, writer.key)).status).toBe(202);

    expect((await call(`/v1/agents/${agent}/recall`, { key: reader.key, body: { query: "spare keys" } })).status).toBe(200);
    const refused = await remember(agent, reader.key);
    expect(refused.status).toBe(403);
    const error = await errorOf(refused);
    expect(error).toMatchObject({ code: "forbidden", details: { needed_scope: "write", key_scope: "read" } });
    expect(error.message).toContain("scope write");

    const viaTool = await toolCall(agent, reader.key, "remember", { messages: [{ role: "user", content: "x" }] });
    expect(viaTool.status).toBe(403);
    expect((await errorOf(viaTool)).details).toMatchObject({ needed_scope: "write" });
    expect((await toolCall(agent, reader.key, "search_memories", { query: "spare keys", mode: "keyword" })).status).toBe(200);

    const viaMcp = await mcp(agent, reader.key, { method: "tools/call", params: { name: "create_memory", arguments: { content: "x" } } });
    const answer = await json<{ result: { isError?: boolean; content: { text: string }[] } }>(viaMcp);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]?.text).toContain('"forbidden"');

    const rpc = await entrypoint({ tenant, key: reader.prefix }).remember(agent, { messages: [{ role: "user", content: "x" }] });
    expect(rpc.ok ? null : rpc.error.code).toBe("forbidden");
    const rpcRead = await entrypoint({ tenant, key: reader.prefix }).searchMemories(agent, { query: "spare", mode: "keyword" });
    expect(rpcRead.ok).toBe(true);

    const stats = await json<{ counters: Record<string, number> }>(await call(`/v1/agents/${agent}/stats`, { key: writer.key }));
    expect(stats.counters.remembers).toBe(1);
  });

  it("a key limited to a prefix reaches no agent outside it, and lists only the agents within it", async () => {
    const tenant = freshTenant("prefix");
    const writer = await createKey(tenant, { scopes: "write" });
    const limited = await createKey(tenant, { scopes: "write", agent_prefix: "team-a-" });
    const inside = `team-a-${freshAgent("bot")}`;
    const outside = `team-b-${freshAgent("bot")}`;
    expect((await remember(inside, limited.key)).status).toBe(202);
    expect((await remember(outside, writer.key)).status).toBe(202);
    for (const res of [
      await remember(outside, limited.key),
      await call(`/v1/agents/${outside}/stats`, { key: limited.key }),
      await toolCall(outside, limited.key, "recall", { query: "keys" }),
    ]) {
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toMatchObject({ code: "forbidden", details: { agent_prefix: "team-a-" } });
    }
    const listed = await json<{ agents: { agent_id: string }[] }>(await call("/v1/agents", { key: limited.key }));
    expect(listed.agents.map((a) => a.agent_id)).toEqual([inside]);
    const all = await json<{ agents: { agent_id: string }[] }>(await call("/v1/agents", { key: writer.key }));
    expect(all.agents.map((a) => a.agent_id).sort()).toEqual([inside, outside].sort());
  });

  it("deleting an agent and purging a memory need admin; forgetting one needs write", async () => {
    const tenant = freshTenant("admin-scope");
    const writer = await createKey(tenant, { scopes: "write" });
    const admin = await createKey(tenant, { scopes: "admin" });
    const agent = freshAgent("erasable");
    const created = await call(`/v1/agents/${agent}/memories`, { key: writer.key, body: { content: "Ada's locker code is 4711." } });
    expect(created.status).toBe(201);
    const { node_id } = await json<{ node_id: number }>(created);
    const purge = await call(`/v1/agents/${agent}/memories/${node_id}?purge=true`, { key: writer.key, method: "DELETE" });
    expect(purge.status).toBe(403);
    expect((await errorOf(purge)).details).toMatchObject({ needed_scope: "admin" });
    expect((await call(`/v1/agents/${agent}`, { key: writer.key, method: "DELETE" })).status).toBe(403);
    expect((await call(`/v1/agents/${agent}/memories/${node_id}?purge=true`, { key: admin.key, method: "DELETE" })).status).toBe(200);
    expect((await call(`/v1/agents/${agent}`, { key: admin.key, method: "DELETE" })).status).toBe(200);
  });
});

describe("the key lifecycle", () => {
  it("keys are stored hashed, listed without secrets; a tenant sees its keys by prefix and an admin key revokes one", async () => {
    const tenant = freshTenant("listing");
    const admin = await createKey(tenant, { scopes: "admin", label: "ops" });
    const reader = await createKey(tenant, { scopes: "read", expires_in: "30d" });
    expect(reader.expires_at).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const stored = await env.DB.prepare("SELECT * FROM api_keys WHERE tenant_id = ?").bind(tenant).all();
    expect(JSON.stringify(stored.results)).not.toContain(admin.key);
    expect(JSON.stringify(stored.results)).not.toContain(reader.key.slice(12));

    const list = await call("/v1/keys", { key: admin.key });
    const text = await list.text();
    expect(text).not.toContain(admin.key);
    expect(text).not.toContain(reader.key);
    const keys = (JSON.parse(text) as { keys: KeyView[] }).keys;
    expect(keys.map((k) => k.prefix).sort()).toEqual([admin.prefix, reader.prefix].sort());
    // A key that is not an admin sees itself only.
    const own = await json<{ keys: KeyView[] }>(await call("/v1/keys", { key: reader.key }));
    expect(own.keys.map((k) => k.prefix)).toEqual([reader.prefix]);

    expect((await call(`/v1/keys/${admin.prefix}`, { key: reader.key, method: "DELETE" })).status).toBe(403);
    const revoked = await call(`/v1/keys/${reader.prefix}`, { key: admin.key, method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(await json(revoked)).toMatchObject({ revoked: true, key: { prefix: reader.prefix, status: "revoked" } });
    expect((await call("/v1/keys", { key: reader.key })).status).toBe(401);
    expect((await call(`/v1/keys/amk_00000000`, { key: admin.key, method: "DELETE" })).status).toBe(404);
  });

  it("rotation: both keys work during the grace period, only the new one after", async () => {
    const tenant = freshTenant("rotation");
    const old = await createKey(tenant, { scopes: "write", label: "bot" });
    const agent = freshAgent("rotated");
    const rotated = await operatorCall(`/v1/admin/keys/${old.prefix}/rotate`, { body: { grace: "2s" } });
    expect(rotated.status).toBe(201);
    const fresh = await json<KeyView & { key: string; old: KeyView }>(rotated);
    expect(fresh.old).toMatchObject({ prefix: old.prefix, replaced_by: fresh.prefix, status: "valid" });
    expect(fresh).toMatchObject({ scopes: "write", status: "valid" });
    expect((await remember(agent, old.key)).status).toBe(202);
    expect((await remember(agent, fresh.key)).status).toBe(202);
    await expect.poll(async () => (await remember(agent, old.key)).status, { timeout: 10_000, interval: 250 }).toBe(401);
    expect((await remember(agent, fresh.key)).status).toBe(202);
    // A key past its grace period cannot be rotated again.
    expect((await operatorCall(`/v1/admin/keys/${old.prefix}/rotate`, { body: { grace: "1h" } })).status).toBe(404);
  });

  it("revocation ends REST, tools/call, MCP (the OAuth token too) and a binding naming the key", async () => {
    const tenant = freshTenant("revocation");
    const { key, prefix } = await createKey(tenant, { scopes: "write" });
    const agent = freshAgent("revoked");
    expect((await remember(agent, key)).status).toBe(202);
    const { access_token } = await connect(key);
    expect((await mcp(agent, access_token, { method: "tools/list" })).status).toBe(200);
    expect((await operatorCall("/v1/admin/keys/revoke", { body: { key } })).status).toBe(200);

    expect((await remember(agent, key)).status).toBe(401);
    expect((await toolCall(agent, key, "recall", { query: "keys" })).status).toBe(401);
    expect((await mcp(agent, key, { method: "tools/list" })).status).toBe(401);
    expect((await mcp(agent, access_token, { method: "tools/list" })).status).toBe(401);
    const rpc = await entrypoint({ tenant, key: prefix }).recall(agent, { query: "keys" });
    expect(rpc.ok ? null : rpc.error.code).toBe("unauthorized");
  });

  it("a key's last use is recorded to the hour: one D1 write, not one per request", async () => {
    const tenant = freshTenant("last-used");
    const { key, prefix } = await createKey(tenant, { scopes: "read" });
    const lastUsed = async () =>
      (await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE prefix = ?").bind(prefix).first<{ last_used_at: number | null }>())
        ?.last_used_at ?? null;
    expect(await lastUsed()).toBeNull();
    expect((await call("/v1/keys", { key })).status).toBe(200);
    await expect.poll(lastUsed, { timeout: 5_000, interval: 50 }).not.toBeNull();
    const first = await lastUsed();
    for (let i = 0; i < 3; i++) expect((await call("/v1/keys", { key })).status).toBe(200);
    expect(await lastUsed()).toBe(first);
    const listed = await json<{ keys: KeyView[] }>(await call("/v1/keys", { key }));
    expect(listed.keys[0]?.last_used_at).toBe(first);
  });
});

describe("the audit log", () => {
  it("records each step with time, actor prefix and request id; never a key or memory text", async () => {
    const tenant = freshTenant("audit");
    const admin = await createKey(tenant, { scopes: "admin" });
    const writer = await createKey(tenant, { scopes: "write" });
    const agent = freshAgent("audited");
    const secret = "Ada's vault combination is 31-7-12.";
    const created = await call(`/v1/agents/${agent}/memories`, { key: writer.key, body: { content: secret } });
    const { node_id } = await json<{ node_id: number }>(created);
    expect((await call(`/v1/agents/${agent}/memories/${node_id}?purge=true`, { key: admin.key, method: "DELETE" })).status).toBe(200);
    expect((await call(`/v1/agents/${agent}`, { key: admin.key, method: "DELETE" })).status).toBe(200);
    const rotated = await json<{ key: string; prefix: string }>(
      await operatorCall(`/v1/admin/keys/${writer.prefix}/rotate`, { body: { grace: "1h" } }),
    );
    expect((await call(`/v1/keys/${writer.prefix}`, { key: admin.key, method: "DELETE" })).status).toBe(200);
    expect((await operatorCall(`/v1/admin/tenants/${tenant}/quotas`, { method: "PATCH", body: { agents: 5 } })).status).toBe(200);

    const res = await operatorCall(`/v1/admin/tenants/${tenant}/audit`);
    const text = await res.text();
    const { entries } = JSON.parse(text) as {
      entries: { action: string; actor: string; request_id: string; agent_id: string | null; subject: string | null; at: number }[];
    };
    expect(entries.map((e) => e.action).reverse()).toEqual([
      "key.created",
      "key.created",
      "memory.purged",
      "agent.deleted",
      "key.rotated",
      "key.revoked",
      "quota.changed",
    ]);
    const byAction = (action: string) => entries.filter((e) => e.action === action);
    expect(byAction("memory.purged")[0]).toMatchObject({ actor: admin.prefix, agent_id: agent, subject: String(node_id) });
    expect(byAction("agent.deleted")[0]).toMatchObject({ actor: admin.prefix, agent_id: agent });
    expect(byAction("key.revoked")[0]).toMatchObject({ actor: admin.prefix, subject: writer.prefix });
    expect(byAction("key.rotated")[0]).toMatchObject({ actor: "operator", subject: writer.prefix });
    for (const e of entries) {
      expect(e.request_id).toMatch(/\S/);
      expect(e.at).toBeGreaterThan(0);
    }
    for (const forbidden of [secret, "vault", "31-7-12", admin.key, writer.key, rotated.key]) expect(text).not.toContain(forbidden);
  });
});

describe("a key never leaks", () => {
  it("no log line, error body or header holds a key, whatever the failure: wrong scope, outside its prefix, unknown, revoked, in a query", async () => {
    const tenant = freshTenant("leaks");
    const reader = await createKey(tenant, { scopes: "read", agent_prefix: "mine-" });
    const revoked = await createKey(tenant, { scopes: "write" });
    expect((await operatorCall("/v1/admin/keys/revoke", { body: { prefix: revoked.prefix } })).status).toBe(200);
    // Well-formed keys no one issued, one sharing a real key's prefix.
    const unknown = `amk_${"Q".repeat(32)}`;
    const samePrefix = `${reader.key.slice(0, 12)}${"Z".repeat(20)}`;
    const keys = [reader.key, revoked.key, unknown, samePrefix, OPERATOR_SECRET];

    const lines: string[] = [];
    const methods = ["log", "info", "warn", "error", "debug"] as const;
    const originals = methods.map((m) => console[m]);
    for (const m of methods)
      console[m] = (...args: unknown[]) => {
        lines.push(
          args.map((a) => (a instanceof Error ? `${a.message} ${a.stack ?? ""}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "),
        );
      };
    const answers: string[] = [];
    const keep = async (res: Response, status: number) => {
      expect(res.status).toBe(status);
      answers.push(`${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${await res.text()}`);
    };
    try {
      await keep(await remember("mine-bot", reader.key), 403);
      await keep(await call("/v1/agents/other-bot/search", { key: reader.key, body: { query: "pot" } }), 403);
      await keep(await toolCall("mine-bot", reader.key, "remember", { messages: [{ role: "user", content: "x" }] }), 403);
      for (const key of [revoked.key, unknown, samePrefix]) {
        await keep(await call("/v1/agents/mine-bot/search", { key, body: { query: "pot" } }), 401);
        await keep(await mcp("mine-bot", key, { method: "tools/list" }), 401);
      }
      await keep(await call(`/v1/agents/mine-bot/search?api_key=${reader.key}`, { key: reader.key, body: { query: "pot" } }), 400);
      await keep(await call(`/v1/keys/${reader.key}`, { key: reader.key, method: "DELETE" }), 403);
      await keep(await operatorCall("/v1/admin/keys/revoke", { body: { key: unknown } }), 404);
      await keep(await call("/v1/admin/tenants/x/keys", { key: reader.key }), 401);
      await keep(await operatorCall(`/v1/admin/keys/${reader.key}/rotate`, { body: { grace: "1h" } }), 400);
    } finally {
      methods.forEach((m, i) => (console[m] = originals[i] as (typeof console)[typeof m]));
    }
    for (const text of [...answers, ...lines]) for (const key of keys) expect(text).not.toContain(key);
    // The prefix identifies a key where one must be named; the secret part never appears.
    for (const text of answers) expect(text).not.toContain(reader.key.slice(12));
  });
});
