/**
 * The TypeScript SDK (sdk/) against the local Worker: every method, typed errors, retries that
 * honour Retry-After and never apply a write twice, timeouts and AbortSignal, task waits, paging,
 * function-calling tools (handleToolCall), and the context-window helper over a 200-turn
 * conversation.
 */
import { describe, expect, inject, it } from "vitest";
import {
  MemoryClient,
  NotFoundError,
  OPERATIONS,
  PayloadTooLargeError,
  TimeoutError,
  TOOL_RESULT_FRAME,
  UnauthorizedError,
  ValidationError,
  estimateTokens,
  type ChatMessage,
  type FetchLike,
  type OperationName,
} from "../sdk/src";

const DEV_KEY = "dev-key-local-only";
const baseUrl = inject("baseUrl");

let counter = 0;
function freshAgent(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A fetch that records what it sends (method, path, Idempotency-Key, body). */
function recordingFetch(
  log: { method: string; path: string; key: string | null; body: string }[],
  inner: FetchLike = (r) => fetch(r),
): FetchLike {
  return async (request) => {
    const body = request.method === "GET" ? "" : await request.clone().text();
    log.push({ method: request.method, path: new URL(request.url).pathname, key: request.headers.get("idempotency-key"), body });
    return inner(request);
  };
}

/** The operations of the SDK when this test was written. */
const BASELINE: OperationName[] = [
  "remember",
  "recall",
  "searchMemories",
  "getContext",
  "getProfile",
  "getFocus",
  "getMemoryNode",
  "getStats",
  "getConfig",
  "updateConfig",
  "compressMemories",
  "getTask",
  "rebuildEpisodes",
  "deleteAgent",
  "ping",
  "listAgents",
  "getHealth",
  "getOpenApi",
  "listTools",
  "callTool",
];

describe("every operation of the list is a method", () => {
  it("each method answers from the running server", async () => {
    const called = new Set<OperationName>();
    const log: { method: string; path: string; key: string | null; body: string }[] = [];
    const memory = new MemoryClient({ baseUrl, apiKey: DEV_KEY, fetch: recordingFetch(log) });
    const agent = memory.agent(freshAgent("sdk-all"));
    const note = (name: OperationName) => called.add(name);

    const accepted = await agent.remember({ messages: [{ role: "user", content: "周五晚上和小林去看《长安三万里》。", id: "a1" }] });
    note("remember");
    expect(accepted.status).toBe("queued");
    const task = await agent.getTask({ task_id: accepted.task_id, wait_ms: 20_000 });
    note("getTask");
    expect(task.task_id).toBe(accepted.task_id);
    expect((await agent.waitForTask(accepted.task_id)).status).toBe("done");
    const recall = await agent.recall({ query: "长安三万里" });
    note("recall");
    expect(recall.text).toContain("长安");
    const search = await agent.searchMemories({ query: "小林", mode: "keyword" });
    note("searchMemories");
    const nodeId = search.items[0]?.node_id;
    expect(nodeId).toBeTypeOf("number");
    expect((await agent.getMemoryNode({ node_id: nodeId! })).node_id).toBe(nodeId);
    note("getMemoryNode");
    expect((await agent.getContext({ query: "周五", budget_tokens: 120 })).used_tokens).toBeLessThanOrEqual(120);
    note("getContext");
    expect(Array.isArray((await agent.getProfile({ locale: "en" })).participants)).toBe(true);
    note("getProfile");
    expect(Array.isArray((await agent.getFocus()).focus)).toBe(true);
    note("getFocus");
    expect((await agent.getStats({ wait_ms: 1000 })).nodes.total).toBeGreaterThan(0);
    note("getStats");
    const config = await agent.getConfig();
    note("getConfig");
    const updated = await agent.updateConfig({ focus_limit: config.focus_limit + 1 });
    note("updateConfig");
    expect("focus_limit" in updated ? updated.focus_limit : undefined).toBe(config.focus_limit + 1);
    const compressed = await agent.compressMemories({ cycles: 1 });
    note("compressMemories");
    expect(compressed.task_ids.length).toBe(1);
    expect(["queued", "running", "done"]).toContain((await agent.rebuildEpisodes()).status);
    note("rebuildEpisodes");
    expect((await agent.ping()).ok).toBe(true);
    note("ping");
    const viaTool = await agent.callTool({ name: "get_focus", arguments: {} });
    note("callTool");
    expect(viaTool.name).toBe("get_focus");
    expect((await memory.listAgents({ limit: 200 })).agents.some((a) => a.agent_id === agent.agentId)).toBe(true);
    note("listAgents");
    expect((await memory.getHealth()).status).toBe("ok");
    note("getHealth");
    expect((await memory.listTools({ format: "anthropic" })).tools.length).toBe(agent.toolDefinitions().length);
    note("listTools");
    expect((await memory.getOpenApi()).openapi).toBe("3.1.0");
    note("getOpenApi");
    const deleted = await agent.deleteAgent();
    note("deleteAgent");
    expect(deleted.deleted === true || "task_id" in deleted).toBe(true);

    // Every operation the SDK had when this was written was called above (MCP is spoken by MCP
    // clients: test-e2e/mcp.test.ts). An operation added to the list later is a method at once (the
    // generated module); its calls are covered by test/properties.test.ts until a case is added here.
    expect([...called].sort()).toEqual([...BASELINE].sort());
    const client = {
      ...Object.fromEntries(
        Object.keys(OPERATIONS).map((n) => [
          n,
          (agent as unknown as Record<string, unknown>)[n] ?? (memory as unknown as Record<string, unknown>)[n],
        ]),
      ),
    };
    for (const [name, method] of Object.entries(client)) expect(typeof method, name).toBe("function");
    // Every write carried an Idempotency-Key the client made; reads none.
    const writes = log.filter((e) => /\/(remember|compress|config|episodes\/rebuild)$/.test(e.path) && e.method !== "GET");
    writes.push(...log.filter((e) => e.method === "DELETE"));
    expect(writes.length).toBe(5);
    for (const entry of writes) expect(entry.key, `${entry.method} ${entry.path}`).toMatch(/^[0-9a-f-]{32,36}$/);
    for (const entry of log.filter((e) => e.method === "GET")) expect(entry.key, entry.path).toBeNull();
  });
});

describe("typed errors", () => {
  it("400, 401, 404 and 413 are their classes, with the API's code and message", async () => {
    const agent = new MemoryClient({ baseUrl, apiKey: DEV_KEY }).agent(freshAgent("sdk-err"));
    const invalid = await agent.searchMemories({ query: "   " }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 400, code: "validation_failed" });
    const unauthorized = await new MemoryClient({ baseUrl, apiKey: "nope" })
      .agent("x")
      .getFocus()
      .catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    expect(unauthorized).toMatchObject({ status: 401, code: "unauthorized" });
    const missing = await agent.getMemoryNode({ node_id: 987_654 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    const huge = Array.from({ length: 40 }, (_, i) => ({ role: "user" as const, content: "x".repeat(30_000), id: `h${i}` }));
    const tooLarge = await agent.remember({ messages: huge }).catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(PayloadTooLargeError);
    expect(tooLarge).toMatchObject({ status: 413, code: "payload_too_large" });
    // Nothing of the refused writes was stored.
    expect((await agent.getStats()).nodes.total).toBe(0);
  });
});

describe("retries", () => {
  it("a 429 with Retry-After is retried after that long, then the 202 is the answer", async () => {
    const log: { method: string; path: string; key: string | null; body: string }[] = [];
    let refused = 0;
    const flaky: FetchLike = async (request) => {
      if (request.method === "POST" && refused === 0) {
        refused++;
        return new Response(JSON.stringify({ error: { code: "queue_full", message: "full" } }), {
          status: 429,
          headers: { "Content-Type": "application/json", "Retry-After": "1" },
        });
      }
      return fetch(request);
    };
    const agent = new MemoryClient({ baseUrl, apiKey: DEV_KEY, fetch: recordingFetch(log, flaky) }).agent(freshAgent("sdk-429"));
    const started = Date.now();
    const accepted = await agent.remember({ messages: [{ role: "user", content: "Retry me once.", id: "r1" }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(accepted.status).toBe("queued");
    expect(log.length).toBe(2);
    expect(log[0]?.key).toBeTruthy();
    expect(log[1]?.key).toBe(log[0]?.key);
  });

  it("a write whose answer was lost (503 after it was applied) is retried with the same key and applied once", async () => {
    const log: { method: string; path: string; key: string | null; body: string }[] = [];
    let lost: { task_id: string } | undefined;
    const losing: FetchLike = async (request) => {
      const answer = await fetch(request);
      if (request.method === "POST" && lost === undefined) {
        lost = (await answer.json()) as { task_id: string };
        return new Response(JSON.stringify({ error: { code: "unavailable", message: "lost" } }), {
          status: 503,
          headers: { "Content-Type": "application/json", "Retry-After": "0" },
        });
      }
      return answer;
    };
    const agent = new MemoryClient({ baseUrl, apiKey: DEV_KEY, fetch: recordingFetch(log, losing) }).agent(freshAgent("sdk-lost"));
    const first = await agent.remember({ messages: [{ role: "user", content: "Dana's birthday is on the ninth of March.", id: "d1" }] });
    expect(log.length).toBe(2);
    expect(log[1]?.key).toBe(log[0]?.key);
    // The retry was answered with the task the lost answer named: the write was applied once.
    expect(first.task_id).toBe(lost?.task_id);
    await agent.waitForTask(first.task_id);
    const control = new MemoryClient({ baseUrl, apiKey: DEV_KEY }).agent(freshAgent("sdk-control"));
    const once = await control.remember({ messages: [{ role: "user", content: "Dana's birthday is on the ninth of March.", id: "d1" }] });
    await control.waitForTask(once.task_id);
    const [stats, expected] = [await agent.getStats({ wait_ms: 5000 }), await control.getStats({ wait_ms: 5000 })];
    expect(stats.nodes).toEqual(expected.nodes);
    expect(stats.queue).toEqual(expected.queue);
  });

  it("a 400 is not retried, and retries stop after the policy's number", async () => {
    let calls = 0;
    const counting: FetchLike = async (request) => {
      calls++;
      return fetch(request);
    };
    const agent = new MemoryClient({ baseUrl, apiKey: DEV_KEY, fetch: counting }).agent(freshAgent("sdk-noretry"));
    await expect(agent.searchMemories({ query: "" })).rejects.toBeInstanceOf(ValidationError);
    expect(calls).toBe(1);
    let unavailable = 0;
    const down: FetchLike = async () => {
      unavailable++;
      return new Response("upstream down", { status: 503, headers: { "Retry-After": "0" } });
    };
    const failing = new MemoryClient({ baseUrl, apiKey: DEV_KEY, fetch: down, retry: { retries: 2 } }).agent("x");
    await expect(failing.getFocus()).rejects.toMatchObject({ status: 503, code: "unavailable" });
    expect(unavailable).toBe(3);
  });
});

describe("timeouts, AbortSignal, task waits, paging", () => {
  it("a timeout per attempt is a TimeoutError; an abort rejects with the signal's reason", async () => {
    const agent = new MemoryClient({ baseUrl, apiKey: DEV_KEY, retry: { retries: 0 } }).agent(freshAgent("sdk-time"));
    const slow: FetchLike = (request) =>
      new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason as Error), { once: true }));
    const stalled = new MemoryClient({ baseUrl, apiKey: DEV_KEY, fetch: slow, retry: { retries: 0 } }).agent("t");
    await expect(stalled.getFocus({ timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    setTimeout(() => controller.abort(reason), 50);
    await expect(stalled.getFocus({ signal: controller.signal, timeoutMs: 0 })).rejects.toBe(reason);
    expect((await agent.getFocus()).focus).toEqual([]);
  });

  it("waitForTask resolves when the task is done; agents() pages through every agent", async () => {
    const memory = new MemoryClient({ baseUrl, apiKey: DEV_KEY });
    const prefix = freshAgent("sdk-page");
    const ids = [`${prefix}-a`, `${prefix}-b`, `${prefix}-c`];
    for (const id of ids) {
      const { task_id } = await memory.agent(id).remember({ messages: [{ role: "user", content: `Hello from ${id}`, id: "p1" }] });
      expect((await memory.agent(id).waitForTask(task_id)).status).toBe("done");
    }
    const seen: string[] = [];
    const pages: number[] = [];
    const paging = new MemoryClient({
      baseUrl,
      apiKey: DEV_KEY,
      fetch: async (r) => {
        if (new URL(r.url).pathname === "/v1/agents") pages.push(1);
        return fetch(r);
      },
    });
    for await (const a of paging.agents({ limit: 1 })) seen.push(a.agent_id);
    for (const id of ids) expect(seen).toContain(id);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe("function-calling tools in the SDK", () => {
  it("handleToolCall runs OpenAI and Anthropic shaped calls, and returns a wrong call as a tool error", async () => {
    const agent = new MemoryClient({ baseUrl, apiKey: DEV_KEY }).agent(freshAgent("sdk-tools"));
    expect(agent.tools("openai").map((t) => t.function.name)).toContain("search_memories");
    expect(agent.tools("anthropic").every((t) => t.input_schema.type === "object")).toBe(true);
    const stored = await agent.handleToolCall({
      id: "call_1",
      type: "function",
      function: {
        name: "remember",
        arguments: JSON.stringify({ messages: [{ role: "user", content: "Eve keeps bees in Ghent.", id: "e1" }] }),
      },
    });
    expect(stored).toMatchObject({ id: "call_1", name: "remember", isError: false });
    await agent.waitForTask((stored.result as { task_id: string }).task_id);
    const found = await agent.handleToolCall({
      type: "tool_use",
      id: "toolu_1",
      name: "search_memories",
      input: { query: "bees Ghent", mode: "keyword" },
    });
    expect(found.isError).toBe(false);
    expect(found.content).toContain("Ghent");
    const wrong = await agent.handleToolCall({ name: "search_memories", arguments: { q: "bees" } });
    expect(wrong.isError).toBe(true);
    // Framed (issue 34 finding 6): the frame's line, then the API's error envelope.
    const [frame, ...envelope] = wrong.content.split("\n");
    expect(frame).toBe(TOOL_RESULT_FRAME);
    expect(JSON.parse(envelope.join("\n")).error.code).toBe("validation_failed");
    expect(wrong.content).toMatch(/query|q: unknown argument/);
  });
});

describe("context-window helper", () => {
  it("a 200-turn conversation never passes the threshold, every message is remembered exactly once, the block stays in its budget", async () => {
    const log: { method: string; path: string; key: string | null; body: string }[] = [];
    const memory = new MemoryClient({ baseUrl, apiKey: DEV_KEY, fetch: recordingFetch(log) });
    const agent = memory.agent(freshAgent("sdk-window"));
    const contextMaxTokens = 1500;
    const window = agent.contextWindow({ contextMaxTokens, blockTokens: 150, conversationId: "conv-1" });
    const conversation: ChatMessage[] = [{ role: "system", content: "You are a helpful travel assistant." }];
    const topics = ["杭州的西湖", "the Lisbon tram 28", "成都的火锅", "hiking in the Dolomites", "北京的胡同", "Kyoto in autumn"];
    let trims = 0;
    for (let turn = 0; turn < 200; turn++) {
      const topic = topics[turn % topics.length]!;
      const role = turn % 2 === 0 ? "user" : "assistant";
      const content =
        role === "user"
          ? `第${turn}轮：我想聊聊${topic}，你还记得我们之前说过什么吗？ (turn ${turn})`
          : `Turn ${turn}: about ${topic}, here is what I suggest for your trip, step by step.`;
      conversation.push({ role, content });
      const prepared = await window.prepare(conversation);
      if (prepared.remembered > 0) trims++;
      expect(prepared.tokens, `turn ${turn}`).toBeLessThanOrEqual(contextMaxTokens * 0.8);
      expect(estimateTokens(prepared.block)).toBeLessThanOrEqual(150);
      expect(prepared.messages[0]?.role).toBe("system");
      expect(prepared.messages.at(-1)?.content).toBe(content);
      // The same conversation again: nothing more to remember.
      if (turn % 50 === 49) expect((await window.prepare(conversation)).remembered).toBe(0);
    }
    expect(trims).toBeGreaterThan(3);
    const flushed = await window.flush(conversation);
    for (const id of flushed) await agent.waitForTask(id);
    const sent = log
      .filter((e) => e.path.endsWith("/remember"))
      .flatMap((e) => (JSON.parse(e.body) as { messages: { id: string }[] }).messages.map((m) => m.id));
    expect(sent.length).toBe(200);
    expect(new Set(sent).size).toBe(200);
    const blocks = log.filter((e) => e.path.endsWith("/context"));
    expect(blocks.length).toBeGreaterThanOrEqual(200);
    // The block had memories to give once the first overflow was remembered.
    const last = await window.prepare(conversation);
    expect(last.block).not.toBe("");

    // Another helper on the same conversation (a restarted process) sends the same ids: stored once.
    const before = await agent.getStats({ wait_ms: 5000 });
    const again = agent.contextWindow({ contextMaxTokens, blockTokens: 150, conversationId: "conv-1" });
    for (const id of await again.flush(conversation)) await agent.waitForTask(id);
    const after = await agent.getStats({ wait_ms: 5000 });
    expect(after.characters.remembered).toBe(before.characters.remembered);
  });
});
