/** GET /v1/agents: one tenant's agents, paged by a stable cursor; other tenants never show. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { storeKey } from "../src/storage/api-keys";
import { createDb } from "../src/storage/db";
import { call, json, rememberAndWait } from "./helpers";

interface AgentPage {
  agents: { agent_id: string; created_at: number; last_active_at: number }[];
  next_cursor: string | null;
}

let tenants = 0;

/** A new tenant with its own API key, stored hashed in D1 as `npm run key:create` does. */
async function newTenant(): Promise<{ tenant: string; key: string }> {
  tenants += 1;
  const tenant = `tenant-${tenants}-${Math.random().toString(36).slice(2, 8)}`;
  const key = `amk_test_${tenant}`;
  await storeKey(createDb(env.DB), key, tenant, "agents-list test", Date.now());
  return { tenant, key };
}

/** Registers agents directly in the registry (the rows remember would create), with distinct times. */
async function register(tenant: string, agentIds: readonly string[]): Promise<void> {
  const statements = agentIds.map((agentId, i) =>
    env.DB.prepare("INSERT INTO agents (tenant_id, agent_id, created_at, last_active_at) VALUES (?, ?, ?, ?)").bind(
      tenant,
      agentId,
      1_700_000_000_000 + i,
      1_700_000_100_000 + i,
    ),
  );
  await env.DB.batch(statements);
}

async function page(key: string, query = ""): Promise<AgentPage> {
  const res = await call(`/v1/agents${query}`, { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return json<AgentPage>(res);
}

/** Follows next_cursor to the end; returns the ids page by page. */
async function allPages(key: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const p = await page(key, query);
    pages.push(p.agents.map((a) => a.agent_id));
    cursor = p.next_cursor;
    expect(pages.length).toBeLessThan(50);
  } while (cursor !== null);
  return pages;
}

async function expectError(res: Response, status: number, code: string): Promise<void> {
  expect(res.status).toBe(status);
  const body = await json<{ error: { code: string; message: string } }>(res);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
}

describe("GET /v1/agents", () => {
  it("lists the tenant's agents in agent id order with their times", async () => {
    const { tenant, key } = await newTenant();
    await register(tenant, ["zeta", "Alpha", "beta-2", "beta.1", "0-first", "Z_x"]);
    const body = await page(key);
    // Byte order, the order of the unique index the listing walks.
    expect(body.agents.map((a) => a.agent_id)).toEqual(["0-first", "Alpha", "Z_x", "beta-2", "beta.1", "zeta"]);
    expect(body.next_cursor).toBeNull();
    const zeta = body.agents.find((a) => a.agent_id === "zeta");
    expect(zeta).toEqual({ agent_id: "zeta", created_at: 1_700_000_000_000, last_active_at: 1_700_000_100_000 });
  });

  it("answers a tenant without agents with an empty page", async () => {
    const { key } = await newTenant();
    expect(await page(key)).toEqual({ agents: [], next_cursor: null });
  });

  it("pages through every agent exactly once with a stable cursor", async () => {
    const { tenant, key } = await newTenant();
    const ids = Array.from({ length: 7 }, (_, i) => `agent-${String(i).padStart(2, "0")}`);
    await register(tenant, ids);
    const pages = await allPages(key, 3);
    expect(pages).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
    // A page that ends exactly at the last agent says so: no empty page after it.
    expect(await allPages(key, 7)).toEqual([ids]);
  });

  it("keeps its place when agents are added and removed between pages", async () => {
    const { tenant, key } = await newTenant();
    await register(tenant, ["b", "d", "f", "h"]);
    const first = await page(key, "?limit=2");
    expect(first.agents.map((a) => a.agent_id)).toEqual(["b", "d"]);
    // Before the cursor: not seen on later pages; after it: seen; a removed agent just disappears.
    await register(tenant, ["a", "e"]);
    await env.DB.prepare("DELETE FROM agents WHERE tenant_id = ? AND agent_id = 'f'").bind(tenant).run();
    const second = await page(key, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.agents.map((a) => a.agent_id)).toEqual(["e", "h"]);
    expect(second.next_cursor).toBeNull();
  });

  it("never shows another tenant's agents, not even through a cursor of theirs", async () => {
    const a = await newTenant();
    const b = await newTenant();
    await register(a.tenant, ["shared-name", "only-a-1", "only-a-2"]);
    await register(b.tenant, ["shared-name", "only-b"]);
    expect((await page(a.key)).agents.map((x) => x.agent_id)).toEqual(["only-a-1", "only-a-2", "shared-name"]);
    expect((await page(b.key)).agents.map((x) => x.agent_id)).toEqual(["only-b", "shared-name"]);
    const cursorOfA = (await page(a.key, "?limit=1")).next_cursor;
    expect(cursorOfA).not.toBeNull();
    const bWithIt = await page(b.key, `?cursor=${cursorOfA}`);
    expect(bWithIt.agents.map((x) => x.agent_id)).toEqual(["only-b", "shared-name"]);
    // The development key is a tenant of its own ("dev") and sees none of these.
    const dev = await page("dev-key-local-only");
    expect(dev.agents.map((x) => x.agent_id)).not.toContain("only-a-1");
    expect(dev.agents.map((x) => x.agent_id)).not.toContain("only-b");
  });

  it("lists an agent once something is remembered for it, and no longer once it is deleted", async () => {
    const { key } = await newTenant();
    expect((await page(key)).agents).toEqual([]);
    const res = await call("/v1/agents/listed-agent/remember", {
      key,
      body: { messages: [{ role: "user", content: "Ines is learning the piano." }] },
    });
    expect(res.status).toBe(202);
    const { task_id } = await json<{ task_id: string }>(res);
    await call(`/v1/agents/listed-agent/tasks/${task_id}?wait_ms=30000`, { key });
    expect((await page(key)).agents.map((a) => a.agent_id)).toEqual(["listed-agent"]);
    expect((await call("/v1/agents/listed-agent", { key, method: "DELETE" })).status).toBe(200);
    expect((await page(key)).agents).toEqual([]);
  });

  it("lists the development tenant's agents too", async () => {
    const agent = `dev-listed-${Math.random().toString(36).slice(2, 8)}`;
    await rememberAndWait(agent, [{ role: "user", content: "Kofi runs the bakery." }]);
    const ids = (await allPages("dev-key-local-only", 200)).flat();
    expect(ids).toContain(agent);
  });

  it("refuses bad limits and cursors with 400 and the error envelope", async () => {
    const { tenant, key } = await newTenant();
    await register(tenant, ["x1"]);
    for (const query of ["?limit=0", "?limit=201", "?limit=abc", "?limit=1.5", "?limit=-3", "?limit="]) {
      await expectError(await call(`/v1/agents${query}`, { key }), 400, "validation_failed");
    }
    const notAnId = btoa("has:colon").replaceAll("=", "");
    for (const cursor of ["!!!", "%20", notAnId, "a".repeat(101), "====", encodeURIComponent("é")]) {
      await expectError(await call(`/v1/agents?cursor=${cursor}`, { key }), 400, "validation_failed");
    }
  });

  it("needs a valid key", async () => {
    await expectError(await call("/v1/agents", { key: null }), 401, "unauthorized");
    await expectError(await call("/v1/agents", { key: "nope" }), 401, "unauthorized");
  });

  it("is in the OpenAPI document with its schemas", async () => {
    const doc = await json<{
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    }>(await call("/v1/openapi.json", { key: null }));
    const op = doc.paths["/v1/agents"]?.get;
    expect(op).toBeDefined();
    expect(op?.parameters?.map((p) => p.name).sort()).toEqual(["cursor", "limit"]);
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "401"]));
    expect(doc.components.schemas).toHaveProperty("AgentList");
    expect(doc.components.schemas).toHaveProperty("AgentSummary");
  });
});
