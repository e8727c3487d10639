/**
 * Agents in a jurisdiction (docs/deploy.md, "Near the user"): a tenant the operator set to "eu"
 * has its agents' objects addressed through the EU-scoped namespace, their rows written to the EU
 * D1 shard only and their vectors to the index configured for EU agents; the placement is in the
 * agent's stats; a jurisdiction never changes under an agent, and nothing configured for it is a
 * refusal that writes nothing, never a fallback.
 *
 * workerd has no jurisdictions, so the platform's namespace is stood in for here by the local
 * emulation (src/agent/naming.ts) behind a recorder: the test sees which namespace every agent
 * object was addressed in, and the local configuration's own requests reach the same objects.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AgentState } from "../src/agent/agent-state";
import { AGENT_TASK_HOOKS } from "../src/agent/agent-tasks";
import { agentNamespace } from "../src/agent/naming";
import { setTenantPlacement } from "../src/service/tenant-placement";
import { AgentRegistry, PlacementError } from "../src/storage/agent-registry";
import type { Jurisdiction } from "../src/vocabulary/jurisdictions";
import { fetchWorker } from "./edge-helpers";
import { FakeVectorize } from "./fakes/fake-vectorize";
import { call, freshAgent, json, operatorCall, stubOf, type TaskView } from "./helpers";

interface Addressed {
  jurisdiction: Jurisdiction | null;
  name: string;
}

/** The AGENT namespace as the platform offers it, recording the namespace of every object addressed. */
function recordingEnv(onGet?: (options: DurableObjectNamespaceGetDurableObjectOptions | undefined) => void): {
  env: Env;
  addressed: Addressed[];
} {
  const addressed: Addressed[] = [];
  const emulated = { AGENT: env.AGENT, EMULATE_JURISDICTIONS: "true" };
  const scoped = (jurisdiction: Jurisdiction | null) => {
    const inner = agentNamespace(emulated, jurisdiction ?? undefined);
    return {
      idFromName: (name: string) => {
        addressed.push({ jurisdiction, name });
        return inner.idFromName(name);
      },
      get: (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
        onGet?.(options);
        return inner.get(id, options);
      },
    };
  };
  const namespace = { ...scoped(null), jurisdiction: (j: Jurisdiction) => scoped(j) };
  // The production path: EMULATE_JURISDICTIONS unset, so the code calls AGENT.jurisdiction("eu").
  const changed = { ...env, AGENT: namespace as unknown as Env["AGENT"] };
  delete (changed as { EMULATE_JURISDICTIONS?: string }).EMULATE_JURISDICTIONS;
  return { env: changed, addressed };
}

let tenants = 0;
function freshTenant(prefix: string): string {
  tenants += 1;
  return `${prefix}-${tenants}-${Math.random().toString(36).slice(2, 8)}`;
}

async function setJurisdiction(tenant: string, jurisdiction: Jurisdiction | null): Promise<Response> {
  return operatorCall(`/v1/admin/tenants/${tenant}/placement`, { method: "PUT", body: { jurisdiction } });
}

async function keyFor(tenant: string): Promise<string> {
  const res = await operatorCall(`/v1/admin/tenants/${tenant}/keys`, { body: { scopes: "admin" } });
  expect(res.status).toBe(201);
  return (await json<{ key: string }>(res)).key;
}

/** A request to the Worker with the recording environment. */
function viaPlatform(platform: Env, path: string, key: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method: body === undefined ? "GET" : "POST", headers: { Authorization: `Bearer ${key}` } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  }
  return fetchWorker(new Request(`http://localhost${path}`, init), platform);
}

/** Remembers through the recording environment and waits for the task; answers the task. */
async function rememberVia(platform: Env, agent: string, key: string, content: string): Promise<TaskView> {
  const accepted = await viaPlatform(platform, `/v1/agents/${agent}/remember`, key, { messages: [{ role: "user", content }] });
  expect(accepted.status).toBe(202);
  const { task_id } = await json<{ task_id: string }>(accepted);
  return json<TaskView>(await viaPlatform(platform, `/v1/agents/${agent}/tasks/${task_id}?wait_ms=30000`, key));
}

async function countWith(db: D1Database, marker: string): Promise<number> {
  const row = await db.prepare("SELECT count(*) AS n FROM nodes WHERE content LIKE ?").bind(`%${marker}%`).first<{ n: number }>();
  return row?.n ?? 0;
}

async function registryRow(tenant: string, agent: string) {
  return env.DB.prepare(
    "SELECT d1_shard AS shard, d1_key AS key, vector_index AS vectors, jurisdiction, region FROM agents WHERE tenant_id = ? AND agent_id = ?",
  )
    .bind(tenant, agent)
    .first<{ shard: string; key: number; vectors: string | null; jurisdiction: string | null; region: string | null }>();
}

describe("an agent created with jurisdiction eu", () => {
  it("is addressed through the EU-scoped namespace, its rows go to the EU shard only, and its stats say where it lives", async () => {
    const tenant = freshTenant("eu");
    const set = await setJurisdiction(tenant, "eu");
    expect(set.status).toBe(200);
    expect(await json(set)).toEqual({ tenant, jurisdiction: "eu", region: null });
    const key = await keyFor(tenant);
    const platform = recordingEnv();
    const agent = freshAgent("eu-agent");
    const marker = `Zyxqvor${Math.random().toString(36).slice(2, 8)}`;

    const task = await rememberVia(platform.env, agent, key, `Ilse moved to Utrecht in March; her cat ${marker} only eats herring.`);
    expect(task.status, JSON.stringify(task)).toBe("done");

    // Addressed in the EU namespace, never in the plain one.
    const name = `${tenant}:${agent}`;
    expect(platform.addressed.filter((a) => a.name === name).length).toBeGreaterThan(0);
    expect(platform.addressed.filter((a) => a.name === name && a.jurisdiction !== "eu")).toEqual([]);

    // Registered in the EU shard; its rows there and in no other shard.
    const row = await registryRow(tenant, agent);
    expect(row).toMatchObject({ shard: "DB_EU", jurisdiction: "eu", vectors: null });
    expect(await countWith(env.DB_EU, marker)).toBeGreaterThan(0);
    const keyed = await env.DB_EU.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ?").bind(row?.key).first<{ n: number }>();
    expect(keyed?.n).toBeGreaterThan(0);
    expect(await countWith(env.DB, marker)).toBe(0);
    expect(await countWith(env.DB_2, marker)).toBe(0);

    const stats = await json<{ nodes: { total: number }; placement: unknown }>(
      await viaPlatform(platform.env, `/v1/agents/${agent}/stats`, key),
    );
    expect(stats.placement).toEqual({ jurisdiction: "eu", region: null, d1_shard: "DB_EU", vector_index: null });
    expect(stats.nodes.total).toBeGreaterThan(0);

    // The local configuration's own path (EMULATE_JURISDICTIONS) reaches the same EU object.
    const local = await json<{ nodes: { total: number }; placement: unknown }>(await call(`/v1/agents/${agent}/stats`, { key }));
    expect(local).toEqual(stats);
    // ...which is not the object of the same name outside the EU.
    const outside = await stubOf(agent, tenant).stats({ tenantId: tenant, agentId: agent });
    expect(outside.nodes.total).toBe(0);
    expect(outside.placement).toEqual({ jurisdiction: null, region: null, d1_shard: null, vector_index: null });
  });

  it("puts its vectors in the index configured for EU agents, and is refused (nothing registered) when none is", async () => {
    const tenant = freshTenant("eu-vec");
    expect((await setJurisdiction(tenant, "eu")).status).toBe(200);
    const dims = 256;
    const indexes = {
      VEC_A: new FakeVectorize({ capacity: 1_000, dimensions: dims, clock: Date }),
      VEC_EU: new FakeVectorize({ capacity: 1_000, dimensions: dims, clock: Date }),
    };
    const config = (euIndexes: string) => ({
      ...env,
      VECTOR_PROVIDER: "vectorize",
      VECTORIZE_INDEXES: "VEC_A",
      VECTORIZE_EU_INDEXES: euIndexes,
      ...indexes,
    });
    const inObject = <T>(agent: string, euIndexes: string, body: (state: AgentState) => Promise<T>) =>
      runInDurableObject(stubOf(agent, tenant), async (_instance, ctx) => {
        await ctx.storage.deleteAlarm();
        const state = new AgentState(ctx.storage, config(euIndexes), AGENT_TASK_HOOKS);
        state.bind({ tenantId: tenant, agentId: agent, jurisdiction: "eu" });
        return body(state);
      });

    const refusedAgent = freshAgent("eu-noindex");
    const refused = await inObject(refusedAgent, "", (state) =>
      state.repos().then(
        () => undefined,
        (err: unknown) => err,
      ),
    );
    expect(refused).toBeInstanceOf(PlacementError);
    expect(String(refused)).toContain("VECTORIZE_EU_INDEXES");
    expect(await registryRow(tenant, refusedAgent)).toBeNull();

    const agent = freshAgent("eu-vectors");
    const placed = await inObject(agent, "VEC_EU", async (state) => {
      const repos = await state.repos();
      const index = state.vectors();
      if (!index) throw new Error("no vector index");
      const vector = new Float32Array(dims).fill(1 / Math.sqrt(dims));
      await index.upsert([{ nodeId: 1, kind: "segment", vector }]);
      return repos.placement;
    });
    indexes.VEC_EU.process();
    indexes.VEC_A.process();
    expect(placed).toMatchObject({ d1: "DB_EU", vectors: "VEC_EU", jurisdiction: "eu" });
    expect(indexes.VEC_EU.holds(`${placed.uid}:1`)).toBe(true);
    expect(indexes.VEC_A.vectorCount).toBe(0);
  });

  it("is refused with nothing written when no EU shard is configured", async () => {
    const tenant = freshTenant("eu-nod1");
    expect((await setJurisdiction(tenant, "eu")).status).toBe(200);
    const agent = freshAgent("eu-nod1");
    const refused = await runInDurableObject(stubOf(agent, tenant), async (_instance, ctx) => {
      await ctx.storage.deleteAlarm();
      const state = new AgentState(ctx.storage, { ...env, D1_EU_SHARDS: "" }, AGENT_TASK_HOOKS);
      state.bind({ tenantId: tenant, agentId: agent, jurisdiction: "eu" });
      return state.repos().then(
        () => undefined,
        (err: unknown) => err,
      );
    });
    expect(refused).toBeInstanceOf(PlacementError);
    expect(String(refused)).toContain("D1_EU_SHARDS");
    expect(await registryRow(tenant, agent)).toBeNull();
  });
});

describe("a tenant's jurisdiction", () => {
  it("changes only while the tenant has no agent: then 409, nothing written, and a write through a stale key is refused too", async () => {
    const tenant = freshTenant("switch");
    const key = await keyFor(tenant);
    // The key is read (and cached) with no jurisdiction; the operator then sets eu (no agent yet)
    // with the CLI, straight on D1 (tsx scripts/operator.ts runs this service): this isolate still
    // holds the key with none, as every isolate does for up to 30 s after a change.
    expect((await call(`/v1/agents/${freshAgent("probe")}/stats`, { key })).status).toBe(200);
    await setTenantPlacement(env.DB, tenant, { jurisdiction: "eu" }, { actor: "operator", requestId: null }, Date.now());
    // A write through the cached key addresses the agent outside the EU: refused, nothing registered or written.
    const stale = freshAgent("stale");
    const marker = `Quorbel${Math.random().toString(36).slice(2, 8)}`;
    const refused = await call(`/v1/agents/${stale}/remember`, {
      key,
      body: { messages: [{ role: "user", content: `Remember ${marker}.` }] },
    });
    expect(refused.status).toBe(409);
    expect((await json<{ error: { code: string; message: string } }>(refused)).error.message).toContain("jurisdiction");
    expect(await registryRow(tenant, stale)).toBeNull();
    for (const db of [env.DB, env.DB_2, env.DB_EU]) expect(await countWith(db, marker)).toBe(0);

    // Once the isolate reads the tenant again (here: the admin API's PUT forgets it at once, even
    // with nothing to change), its agents go to the EU; once one exists there, the jurisdiction stays.
    expect((await setJurisdiction(tenant, "eu")).status).toBe(200);
    const platform = recordingEnv();
    const agent = freshAgent("placed");
    expect((await rememberVia(platform.env, agent, key, "Otto keeps bees in Graz.")).status).toBe("done");
    expect(await registryRow(tenant, agent)).toMatchObject({ jurisdiction: "eu", shard: "DB_EU" });
    const locked = await setJurisdiction(tenant, null);
    expect(locked.status).toBe(409);
    expect(await json(await operatorCall(`/v1/admin/tenants/${tenant}/placement`))).toEqual({ tenant, jurisdiction: "eu", region: null });
    // The audit log holds the one change that was made, not the refused one.
    const audit = await json<{ entries: { action: string; details: unknown }[] }>(await operatorCall(`/v1/admin/tenants/${tenant}/audit`));
    expect(audit.entries.filter((e) => e.action === "placement.changed").map((e) => e.details)).toEqual([
      { field: "jurisdiction", from: null, to: "eu" },
    ]);
    // The cron finds the agent in its namespace.
    await env.DB.prepare("UPDATE agents SET due_at = 1 WHERE tenant_id = ? AND agent_id = ?").bind(tenant, agent).run();
    const due = await new AgentRegistry(env.DB).due(2, 10_000);
    expect(due).toContainEqual({ tenantId: tenant, agentId: agent, jurisdiction: "eu" });
    await env.DB.prepare("UPDATE agents SET due_at = NULL WHERE tenant_id = ? AND agent_id = ?").bind(tenant, agent).run();
  });

  it("takes eu or null, and a region of the list or null; anything else is 400 with nothing written", async () => {
    const tenant = freshTenant("bad");
    for (const body of [{ jurisdiction: "mars" }, { jurisdiction: "EU" }, {}, { region: "moon" }, { jurisdiction: "eu", zone: "a" }]) {
      const res = await operatorCall(`/v1/admin/tenants/${tenant}/placement`, { method: "PUT", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await json(await operatorCall(`/v1/admin/tenants/${tenant}/placement`))).toEqual({ tenant, jurisdiction: null, region: null });
  });
});

describe("a tenant's region", () => {
  it("creates its new agents' objects with that location hint and places them on a shard of that region only", async () => {
    const tenant = freshTenant("apac");
    const set = await operatorCall(`/v1/admin/tenants/${tenant}/placement`, { method: "PUT", body: { region: "apac" } });
    expect(await json(set)).toEqual({ tenant, jurisdiction: null, region: "apac" });
    const key = await keyFor(tenant);

    // Addressed with the hint; the local configuration has no shard in apac: refused, nothing written.
    const hints: (string | undefined)[] = [];
    const platform = recordingEnv((options) => hints.push(options?.locationHint));
    const agent = freshAgent("apac-agent");
    const refused = await viaPlatform(platform.env, `/v1/agents/${agent}/remember`, key, {
      messages: [{ role: "user", content: "Mei runs in Osaka." }],
    });
    expect(refused.status).toBe(409);
    expect((await json<{ error: { message: string } }>(refused)).error.message).toContain("D1_SHARD_REGIONS");
    expect(hints.length).toBeGreaterThan(0);
    expect(new Set(hints)).toEqual(new Set(["apac"]));
    expect(await registryRow(tenant, agent)).toBeNull();

    // With DB_2 in apac, the agent goes there (and nowhere else), and its stats say so.
    const placed = freshAgent("apac-placed");
    const placement = await runInDurableObject(stubOf(placed, tenant), async (_instance, ctx) => {
      await ctx.storage.deleteAlarm();
      const state = new AgentState(ctx.storage, { ...env, D1_SHARD_REGIONS: "DB:enam,DB_2:apac" }, AGENT_TASK_HOOKS);
      state.bind({ tenantId: tenant, agentId: placed });
      state.terms.accept({ region: "apac" });
      await state.repos();
      return state.network.placementView(undefined);
    });
    expect(placement).toEqual({ jurisdiction: null, region: "apac", d1_shard: "DB_2", vector_index: null });
    expect(await registryRow(tenant, placed)).toMatchObject({ shard: "DB_2", jurisdiction: null, region: "apac" });
  });
});
