/**
 * Per-tenant quotas and usage (issue 37 items 3 and 5; docs/deploy.md, "Quotas", "Usage"): over a
 * quota a request is a 429 quota_exceeded naming it, its limit and Retry-After, and writes
 * nothing; hard counts hold under concurrency; the usage report equals the requests made. The
 * property test drives random requests against small quotas (fast-check, fixed seed). The request
 * rate (the rate-limiting binding with a tenant's own limit) is tested against a local server:
 * test-e2e/operator-day.test.ts.
 */
import { env, runDurableObjectAlarm } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentStub } from "../src/agent/naming";
import { call, freshAgent, json, operatorCall } from "./helpers";

let tenants = 0;
function freshTenant(name: string): string {
  tenants += 1;
  return `${name}-${tenants}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A tenant with small quotas and an admin key. */
async function tenantWith(name: string, quotas: Record<string, number>): Promise<{ tenant: string; key: string }> {
  const tenant = freshTenant(name);
  expect((await operatorCall(`/v1/admin/tenants/${tenant}/quotas`, { method: "PATCH", body: quotas })).status).toBe(200);
  const res = await operatorCall(`/v1/admin/tenants/${tenant}/keys`, { body: { scopes: "admin" } });
  return { tenant, key: (await json<{ key: string }>(res)).key };
}

let messageCounter = 0;
function messages(n: number): { role: "user"; content: string; id: string }[] {
  return Array.from({ length: n }, () => {
    messageCounter += 1;
    return {
      role: "user" as const,
      content: `Note ${messageCounter}: the tram to Ostend leaves at ${messageCounter % 24}:15.`,
      id: `q${messageCounter}`,
    };
  });
}

interface ErrorBody {
  error: { code: string; details?: { quota?: string; limit?: number } };
}

async function expectQuotaRefusal(res: Response, quota: string, limit: number): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThan(0);
  expect((await json<ErrorBody>(res)).error).toMatchObject({ code: "quota_exceeded", details: { quota, limit } });
}

/** Every agent of the tenant reports its usage now (its alarm, which the report rides). */
async function reportUsage(tenant: string, agents: readonly string[]): Promise<void> {
  for (const agentId of agents) await runDurableObjectAlarm(agentStub(env, { tenantId: tenant, agentId }));
}

interface UsageDay {
  messages_remembered: number;
  remembers: number;
  recalls: number;
  searches: number;
  context_calls: number;
  d1_rows_read: number;
  d1_rows_written: number;
  requests: Record<string, number>;
}

async function usageTotals(tenant: string): Promise<UsageDay> {
  const res = await operatorCall(`/v1/admin/tenants/${tenant}/usage`);
  expect(res.status).toBe(200);
  return (await json<{ totals: UsageDay }>(res)).totals;
}

async function agentIds(key: string): Promise<string[]> {
  return (await json<{ agents: { agent_id: string }[] }>(await call("/v1/agents?limit=200", { key }))).agents.map((a) => a.agent_id);
}

const waitFor = (agent: string, key: string, taskId: string) => call(`/v1/agents/${agent}/tasks/${taskId}?wait_ms=30000`, { key });

describe("the agents quota", () => {
  it("a new agent beyond it is refused with 429 naming it, and registers nothing; a deletion makes room", async () => {
    const { key } = await tenantWith("q-agents", { agents: 2 });
    const [a, b, c] = [freshAgent("qa"), freshAgent("qb"), freshAgent("qc")];
    expect((await call(`/v1/agents/${a}/remember`, { key, body: { messages: messages(1) } })).status).toBe(202);
    expect((await call(`/v1/agents/${b}/memories`, { key, body: { content: "Ostend has a tram." } })).status).toBe(201);
    await expectQuotaRefusal(await call(`/v1/agents/${c}/remember`, { key, body: { messages: messages(1) } }), "agents", 2);
    await expectQuotaRefusal(await call(`/v1/agents/${c}/config`, { key, method: "PUT", body: { focus_limit: 3 } }), "agents", 2);
    expect((await agentIds(key)).sort()).toEqual([a, b].sort());
    const stats = await json<{ nodes: { total: number }; queue: { queued: number; done: number } }>(
      await call(`/v1/agents/${c}/stats`, { key }),
    );
    expect(stats.nodes.total).toBe(0);
    expect(stats.queue).toMatchObject({ queued: 0, done: 0 });
    expect((await call(`/v1/agents/${a}`, { key, method: "DELETE" })).status).toBe(200);
    expect((await call(`/v1/agents/${c}/remember`, { key, body: { messages: messages(1) } })).status).toBe(202);
  });
});

describe("the messages-per-day quota", () => {
  it("concurrent remembers of many agents never pass it together; the refused ones wrote nothing", async () => {
    const { tenant, key } = await tenantWith("q-messages", { messages_per_day: 50 });
    const agents = Array.from({ length: 6 }, () => freshAgent("qm"));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const agent = agents[i % agents.length] ?? "";
        return call(`/v1/agents/${agent}/remember`, { key, body: { messages: messages(5) } }).then((res) => ({ agent, res }));
      }),
    );
    const accepted = answers.filter((a) => a.res.status === 202);
    const refused = answers.filter((a) => a.res.status !== 202);
    expect(accepted.length).toBe(10);
    for (const { res } of refused) await expectQuotaRefusal(res, "messages_per_day", 50);
    const acceptedPerAgent = new Map<string, number>();
    for (const { agent, res } of accepted) {
      const { task_id } = await json<{ task_id: string }>(res);
      expect((await json<{ status: string }>(await waitFor(agent, key, task_id))).status).toBe("done");
      acceptedPerAgent.set(agent, (acceptedPerAgent.get(agent) ?? 0) + 1);
    }
    for (const agent of agents) {
      const stats = await json<{ counters: Record<string, number> }>(await call(`/v1/agents/${agent}/stats`, { key }));
      expect(stats.counters.remembers ?? 0, agent).toBe(acceptedPerAgent.get(agent) ?? 0);
    }
    await reportUsage(tenant, agents);
    expect(await usageTotals(tenant)).toMatchObject({ messages_remembered: 50, remembers: 10 });
    // A retry of an accepted remember (its Idempotency-Key) is not charged again.
    const agent = agents[0] ?? "";
    const headers = { "Idempotency-Key": "retry-1", "Content-Type": "application/json" };
    const body = { messages: messages(1) };
    await expectQuotaRefusal(await call(`/v1/agents/${agent}/remember`, { key, body, headers }), "messages_per_day", 50);
  });

  it("a retried remember with its Idempotency-Key is charged once", async () => {
    const { tenant, key } = await tenantWith("q-idem", { messages_per_day: 4 });
    const agent = freshAgent("qi");
    const headers = { "Idempotency-Key": "once", "Content-Type": "application/json" };
    const body = { messages: messages(3) };
    const first = await call(`/v1/agents/${agent}/remember`, { key, body, headers });
    const again = await call(`/v1/agents/${agent}/remember`, { key, body, headers });
    expect([first.status, again.status]).toEqual([202, 202]);
    expect((await json<{ task_id: string }>(again)).task_id).toBe((await json<{ task_id: string }>(first)).task_id);
    await expectQuotaRefusal(await call(`/v1/agents/${agent}/remember`, { key, body: { messages: messages(2) } }), "messages_per_day", 4);
    await reportUsage(tenant, [agent]);
    expect(await usageTotals(tenant)).toMatchObject({ messages_remembered: 3, remembers: 1 });
  });
});

describe("the nodes-per-agent quota", () => {
  it("caps the agent's capacity: a larger one is refused, and forgetting keeps the agent within it", async () => {
    const { key } = await tenantWith("q-nodes", { nodes_per_agent: 30 });
    const agent = freshAgent("qn");
    await expectQuotaRefusal(
      await call(`/v1/agents/${agent}/config`, { key, method: "PUT", body: { capacity: 31 } }),
      "nodes_per_agent",
      30,
    );
    expect((await agentIds(key)).includes(agent)).toBe(false);
    for (let i = 0; i < 4; i++) {
      const res = await call(`/v1/agents/${agent}/remember`, { key, body: { messages: messages(20) } });
      expect(res.status).toBe(202);
      await waitFor(agent, key, (await json<{ task_id: string }>(res)).task_id);
    }
    const stats = await json<{ nodes: { total: number }; counters: Record<string, number> }>(
      await call(`/v1/agents/${agent}/stats?wait_ms=30000`, { key }),
    );
    expect(stats.nodes.total).toBeLessThanOrEqual(30);
    expect(stats.counters.nodes_evicted).toBeGreaterThan(0);
  });
});

describe("usage per tenant and day", () => {
  it("counts what the tenant's requests did: messages, remembers, recalls, searches, context calls, D1 rows", async () => {
    const { tenant, key } = await tenantWith("q-usage", {});
    const [a, b] = [freshAgent("qu"), freshAgent("qu")];
    for (const [agent, n] of [
      [a, 4],
      [b, 3],
      [a, 2],
    ] as const) {
      const res = await call(`/v1/agents/${agent}/remember`, { key, body: { messages: messages(n) } });
      await waitFor(agent, key, (await json<{ task_id: string }>(res)).task_id);
    }
    expect((await call(`/v1/agents/${a}/recall`, { key, body: { query: "tram Ostend" } })).status).toBe(200);
    expect((await call(`/v1/agents/${b}/recall`, { key, body: { keywords: ["tram"] } })).status).toBe(200);
    expect((await call(`/v1/agents/${a}/search`, { key, body: { query: "tram" } })).status).toBe(200);
    expect((await call(`/v1/agents/${b}/context`, { key, body: { query: "tram" } })).status).toBe(200);
    // Through a tool call: the same request, counted once.
    expect((await call(`/v1/agents/${b}/tools/call`, { key, body: { name: "recall", arguments: { query: "tram" } } })).status).toBe(200);
    await reportUsage(tenant, [a, b]);
    const totals = await usageTotals(tenant);
    expect(totals).toMatchObject({ messages_remembered: 9, remembers: 3, recalls: 3, searches: 1, context_calls: 1 });
    expect(totals.d1_rows_written).toBeGreaterThan(0);
    expect(totals.d1_rows_read).toBeGreaterThan(0);
    const report = await (await operatorCall(`/v1/admin/tenants/${tenant}/usage`)).text();
    expect(report).not.toContain("Ostend");
    expect(report).not.toContain(key);
    expect((await operatorCall(`/v1/admin/tenants/${tenant}/usage?from=2026-02-30`)).status).toBe(400);
    expect((await operatorCall(`/v1/admin/tenants/${tenant}/usage?from=2026-12-02&to=2026-12-01`)).status).toBe(400);
  });
});

type Command =
  | { op: "remember"; agent: number; messages: number }
  | { op: "recall"; agent: number }
  | { op: "search"; agent: number }
  | { op: "context"; agent: number };

const COMMAND: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("remember" as const),
      agent: fc.integer({ min: 0, max: 4 }),
      messages: fc.integer({ min: 1, max: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("recall" as const), agent: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("search" as const), agent: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("context" as const), agent: fc.integer({ min: 0, max: 4 }) }) },
);

describe("quotas, property", () => {
  it("random requests against small quotas: every refusal is a 429 quota_exceeded that wrote nothing, every accepted remember is remembered, and usage equals the requests", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(COMMAND, { minLength: 4, maxLength: 14 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 5, max: 25 }),
        async (commands, agentsQuota, messagesQuota) => {
          const { tenant, key } = await tenantWith("q-prop", { agents: agentsQuota, messages_per_day: messagesQuota });
          const names = Array.from({ length: 5 }, () => freshAgent("qp"));
          const registered = new Set<string>();
          const expected = { messages_remembered: 0, remembers: 0, recalls: 0, searches: 0, context_calls: 0 };
          const remembered = new Map<string, number>();
          const touched = new Set<string>();
          for (const command of commands) {
            const agent = names[command.agent] ?? "";
            if (command.op === "remember") {
              const res = await call(`/v1/agents/${agent}/remember`, { key, body: { messages: messages(command.messages) } });
              const wouldRegister = !registered.has(agent);
              const fits = expected.messages_remembered + command.messages <= messagesQuota;
              // The messages are charged first; a registration the agents quota refuses gives them back.
              if (!fits) {
                await expectQuotaRefusal(res, "messages_per_day", messagesQuota);
              } else if (wouldRegister && registered.size >= agentsQuota) {
                await expectQuotaRefusal(res, "agents", agentsQuota);
              } else {
                expect(res.status).toBe(202);
                registered.add(agent);
                expected.messages_remembered += command.messages;
                expected.remembers += 1;
                remembered.set(agent, (remembered.get(agent) ?? 0) + 1);
                await waitFor(agent, key, (await json<{ task_id: string }>(res)).task_id);
              }
              touched.add(agent);
              continue;
            }
            const path = command.op === "recall" ? "recall" : command.op === "search" ? "search" : "context";
            const res = await call(`/v1/agents/${agent}/${path}`, { key, body: { query: "tram" } });
            expect(res.status).toBe(200);
            touched.add(agent);
            if (command.op === "recall") expected.recalls += 1;
            else if (command.op === "search") expected.searches += 1;
            else expected.context_calls += 1;
          }
          expect((await agentIds(key)).sort()).toEqual([...registered].sort());
          for (const agent of names) {
            const stats = await json<{ counters: Record<string, number>; queue: { queued: number } }>(
              await call(`/v1/agents/${agent}/stats`, { key }),
            );
            expect(stats.counters.remembers ?? 0, agent).toBe(remembered.get(agent) ?? 0);
          }
          await reportUsage(tenant, [...touched]);
          expect(await usageTotals(tenant)).toMatchObject(expected);
        },
      ),
      { seed: 37, numRuns: 12 },
    );
  });
});
