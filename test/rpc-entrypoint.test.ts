/**
 * The Workers RPC entrypoint (src/rpc/memory-entrypoint.ts) called as workerd calls it for a
 * service binding: constructed with the binding's `ctx.props`. The tenant is the props' and
 * nothing else's; props that name none refuse every call; arguments are validated as the REST
 * request's; the answers are the REST API's; export streams the JSON Lines. (Two Workers over a
 * real binding: test-e2e/rpc-binding.test.ts.)
 */
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { isTool } from "../src/surfaces/operation";
import { OPERATIONS } from "../src/routes";
import { MemoryEntrypoint } from "../src/rpc/memory-entrypoint";
import { unwrap, ValidationError } from "../sdk/src";
import { call, freshAgent, json, rememberAndWait } from "./helpers";

function entrypoint(props: unknown, environment: Env = env): MemoryEntrypoint {
  const ctx = createExecutionContext();
  // What workerd hands an entrypoint reached through a binding with `props`.
  Object.defineProperty(ctx, "props", { value: props });
  return new MemoryEntrypoint(ctx, environment);
}

const MESSAGES = [{ role: "user" as const, content: "Ines keeps bees on the roof of her bakery in Lyon.", id: "b1" }];

describe("MemoryEntrypoint", () => {
  it("has a method for every tool operation of the list, under the SDK's name", () => {
    const methods = Object.getOwnPropertyNames(MemoryEntrypoint.prototype);
    const operations = OPERATIONS.filter(isTool).map((d) => d.name);
    expect(operations.length).toBeGreaterThan(20);
    for (const name of operations) expect(methods).toContain(name);
    expect(methods).toContain("exportAgent");
  });

  it("recall answers what REST answers for the development tenant's agent", async () => {
    const agentId = freshAgent("rpc-unit");
    await rememberAndWait(agentId, MESSAGES);
    const viaRpc = unwrap(await entrypoint({ tenant: "dev" }).recall(agentId, { query: "bees bakery", locale: "en" }));
    const viaRest = await json<{ items: unknown[]; text: string }>(
      await call(`/v1/agents/${agentId}/recall`, { body: { query: "bees bakery", locale: "en", format: "json" } }),
    );
    expect(viaRpc.items.length).toBeGreaterThan(0);
    expect(viaRpc.items).toEqual(viaRest.items);
    expect(viaRpc.text).toBe(viaRest.text);
  });

  it("another tenant's binding sees nothing of the agent of the same id", async () => {
    const agentId = freshAgent("rpc-unit-iso");
    await rememberAndWait(agentId, MESSAGES);
    const other = entrypoint({ tenant: "someone-else" });
    expect(unwrap(await other.recall(agentId, { query: "bees bakery", locale: "en" })).items).toEqual([]);
    expect(unwrap(await other.searchMemories(agentId, { query: "bees", mode: "keyword" })).items).toEqual([]);
  });

  it("issue 34 finding 7: a binding names any tenant unless BINDING_TENANTS lists the ones bindings may name", async () => {
    const agentId = freshAgent("rpc-allowed");
    // Unrestricted (the default, as the README says): any tenant a binding's props name.
    expect((await entrypoint({ tenant: "tenant-anyone" }).getStats(agentId)).ok).toBe(true);
    const restricted = { ...env, BINDING_TENANTS: "acme, dev" };
    const refused = await entrypoint({ tenant: "tenant-anyone" }, restricted).remember(agentId, { messages: MESSAGES });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatchObject({ code: "unauthorized", status: 401 });
    expect((await entrypoint({ tenant: "dev" }, restricted).getStats(agentId)).ok).toBe(true);
    expect((await entrypoint({ tenant: "tenant-anyone" }).getStats(agentId)).ok).toBe(true);
  });

  it("props that name no tenant refuse every call with unauthorized, writing nothing", async () => {
    for (const props of [undefined, {}, { tenant: "" }, { tenant: "a/b" }, { tenant: 7 }]) {
      const result = await entrypoint(props).remember(freshAgent("rpc-noprops"), { messages: MESSAGES });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe("unauthorized");
        expect(result.error.status).toBe(401);
      }
    }
  });

  it("refusals are the API's typed errors: bad agent id, bad arguments, a missing memory", async () => {
    const memory = entrypoint({ tenant: "dev" });
    const badId = await memory.recall("../other", { query: "x" });
    expect(badId.ok ? undefined : badId.error.code).toBe("validation_failed");
    const notString = await memory.getFocus(42 as unknown as string);
    expect(notString.ok ? undefined : notString.error.code).toBe("validation_failed");
    const badArgs = await memory.searchMemories(freshAgent("rpc-args"), { query: "x", mode: "nonsense" } as never);
    expect(badArgs.ok ? undefined : badArgs.error.code).toBe("validation_failed");
    expect(() => unwrap(badArgs)).toThrow(ValidationError);
    const missing = await memory.getMemory(freshAgent("rpc-missing"), { node_id: 999_999 });
    expect(missing.ok ? undefined : missing.error).toMatchObject({ code: "not_found", status: 404 });
  });

  it("an Idempotency-Key makes a repeated remember the same task", async () => {
    const memory = entrypoint({ tenant: "dev" });
    const agentId = freshAgent("rpc-idem");
    const first = unwrap(await memory.remember(agentId, { messages: MESSAGES }, { idempotencyKey: "k-1" }));
    const again = unwrap(await memory.remember(agentId, { messages: MESSAGES }, { idempotencyKey: "k-1" }));
    expect(again.task_id).toBe(first.task_id);
    const conflict = await memory.remember(agentId, { messages: [{ role: "user", content: "other" }] }, { idempotencyKey: "k-1" });
    expect(conflict.ok ? undefined : conflict.error.code).toBe("idempotency_conflict");
  });

  it("exportAgent streams the agent's JSON Lines, as GET export does", async () => {
    const agentId = freshAgent("rpc-export");
    await rememberAndWait(agentId, MESSAGES);
    const stream = unwrap(await entrypoint({ tenant: "dev" }).exportAgent(agentId));
    const lines = (await new Response(stream).text()).trim().split("\n");
    const rest = new TextDecoder()
      .decode(await (await call(`/v1/agents/${agentId}/export`)).arrayBuffer())
      .trim()
      .split("\n");
    expect(lines.length).toBe(rest.length);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ format: "agent-memory-export" });
    expect(lines.slice(1)).toEqual(rest.slice(1));
  });
});
