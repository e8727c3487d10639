/**
 * Workers RPC (src/rpc/memory-entrypoint.ts) between two local Workers: the example Worker
 * (examples/rpc-worker, its own `wrangler dev`) binds to the memory Worker the e2e setup started,
 * through its MemoryEntrypoint with `props = { tenant = "dev" }` (wrangler's dev registry connects
 * the two processes). Recall through the binding returns the REST API's items; a refused call
 * gets the API's typed error; an Idempotency-Key is honoured; the binding's tenant sees nothing
 * of another tenant's agent of the same id.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MemoryClient, type BindingError } from "../sdk/src";
import { startLocalServer } from "../scripts/local-server.mjs";

const DEV_KEY = "dev-key-local-only";
const baseUrl = inject("baseUrl");
const rest = new MemoryClient({ baseUrl, apiKey: DEV_KEY });

let example: { url: string; stop: () => void };

beforeAll(async () => {
  const port = Number(process.env.E2E_PORT ?? 8797) + 1;
  // Ready once a recall went through the binding to the memory Worker (2xx), not just when it listens.
  example = await startLocalServer({
    port,
    config: path.join("examples", "rpc-worker", "wrangler.toml"),
    persistTo: path.join(".wrangler", "e2e-rpc-example"),
    migrate: false,
    quiet: true,
    readyPath: "/agents/rpc-ready/recall?query=ready",
  });
});

afterAll(() => example?.stop());

function freshAgent(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

async function viaBinding(agentId: string, action: "recall", query: string): Promise<Response>;
async function viaBinding(agentId: string, action: "remember", body: unknown, idempotencyKey?: string): Promise<Response>;
async function viaBinding(agentId: string, action: "recall" | "remember", arg: unknown, idempotencyKey?: string): Promise<Response> {
  const target = `${example.url}/agents/${encodeURIComponent(agentId)}/${action}`;
  if (action === "recall") return fetch(`${target}?query=${encodeURIComponent(String(arg))}`);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;
  return fetch(target, { method: "POST", headers, body: JSON.stringify(arg) });
}

const MESSAGES: { role: "user"; content: string; id: string }[] = [
  { role: "user", content: "My sister Clara moved to Porto last spring and teaches violin there.", id: "r1" },
  { role: "user", content: "I am training for the Lisbon half marathon in October.", id: "r2" },
];

describe("Workers RPC through a service binding", () => {
  it("remembers through the binding, and recall through it returns the REST API's items", async () => {
    const agentId = freshAgent("rpc-same");
    const accepted = await viaBinding(agentId, "remember", { messages: MESSAGES });
    expect(accepted.status).toBe(200);
    const task = (await accepted.json()) as { task_id: string; status: string };
    expect(task.task_id).toMatch(/^tsk_/);
    // The write went to the development tenant's agent: its REST client sees the task.
    expect((await rest.agent(agentId).waitForTask(task.task_id)).status).toBe("done");

    const query = "Where does Clara teach violin?";
    const bound = await viaBinding(agentId, "recall", query);
    expect(bound.status).toBe(200);
    const viaRpc = (await bound.json()) as { items: { node_id?: number }[]; text: string };
    const viaRest = await rest.agent(agentId).recall({ query, locale: "en" });
    expect(viaRest.items.length).toBeGreaterThan(0);
    expect(viaRpc.items).toEqual(viaRest.items);
    expect(viaRpc.text).toBe(viaRest.text);
    expect(viaRpc.text).toContain("Porto");
  });

  it("a refused call gets the API's typed error: code, status, details naming the argument", async () => {
    const answer = await viaBinding("not a valid id!", "recall", "anything");
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: BindingError };
    expect(error.code).toBe("validation_failed");
    expect(error.status).toBe(400);
    expect(JSON.stringify(error.details)).toContain("agentId");

    const wrongBody = await viaBinding(freshAgent("rpc-bad"), "remember", { messages: "not a list" });
    expect(wrongBody.status).toBe(400);
    const refused = ((await wrongBody.json()) as { error: BindingError }).error;
    expect(refused.code).toBe("validation_failed");
    expect(JSON.stringify(refused.details)).toContain("messages");
  });

  it("an Idempotency-Key makes a retried remember the same task, and a different body with it a conflict", async () => {
    const agentId = freshAgent("rpc-idem");
    const key = `idem-${Math.random().toString(36).slice(2)}`;
    const first = (await (await viaBinding(agentId, "remember", { messages: MESSAGES }, key)).json()) as { task_id: string };
    const again = (await (await viaBinding(agentId, "remember", { messages: MESSAGES }, key)).json()) as { task_id: string };
    expect(again.task_id).toBe(first.task_id);
    const other = await viaBinding(agentId, "remember", { messages: [{ role: "user", content: "Something else.", id: "x1" }] }, key);
    expect(other.status).toBe(422);
    expect(((await other.json()) as { error: BindingError }).error.code).toBe("idempotency_conflict");
    await rest.agent(agentId).waitForTask(first.task_id);
  });

  it("the binding's tenant never reaches another tenant's agent of the same id", async () => {
    const agentId = freshAgent("rpc-iso");
    const other = new MemoryClient({ baseUrl, apiKey: inject("otherTenantKey") }).agent(agentId);
    const { task_id } = await other.remember({ messages: MESSAGES });
    await other.waitForTask(task_id);
    expect((await other.recall({ query: "Clara Porto violin", locale: "en" })).items.length).toBeGreaterThan(0);
    const bound = await viaBinding(agentId, "recall", "Clara Porto violin");
    expect(bound.status).toBe(200);
    const seen = (await bound.json()) as { items: unknown[]; text: string };
    expect(seen.items).toEqual([]);
    expect(seen.text).not.toContain("Porto");
  });
});
