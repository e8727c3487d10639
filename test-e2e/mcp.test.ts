/**
 * The MCP server (docs/design.md §13) with the official client (`@modelcontextprotocol/sdk`,
 * Streamable HTTP) against the local Worker: initialize, list tools with annotations and output
 * schemas, remember (Chinese and English), wait, recall, search, errors as tool errors with the
 * API's codes, a wrong key refused, and another agent's or tenant's server seeing nothing.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, inject, it } from "vitest";
import { TOOL_RESULT_FRAME, TOOLS } from "../sdk/src";

const DEV_KEY = "dev-key-local-only";
const baseUrl = inject("baseUrl");

let counter = 0;
function freshAgent(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(agentId: string, key = DEV_KEY): Promise<Client> {
  const client = new Client({ name: "e2e-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`/v1/agents/${agentId}/mcp`, baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  open.push(client);
  return client;
}

/** A tool error as the model reads it: the frame (issue 34 finding 6), then the API's error envelope. */
function framedError(text: string | undefined): { error: { code: string; message: string } } {
  const [frame, ...rest] = (text ?? "").split("\n");
  expect(frame).toBe(TOOL_RESULT_FRAME);
  return JSON.parse(rest.join("\n")) as { error: { code: string; message: string } };
}

type ToolAnswer = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args })) as ToolAnswer;
}

async function waitDone(client: Client, taskId: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const task = await callTool(client, "get_task", { task_id: taskId, wait_ms: 20_000 });
    expect(task.isError).toBeFalsy();
    if (task.structuredContent?.status === "done") return;
  }
  throw new Error(`task ${taskId} not done`);
}

describe("MCP server", () => {
  it("initializes, lists the tools of the operation list with annotations and output schemas", async () => {
    const client = await connect(freshAgent("mcp-list"));
    expect(client.getServerVersion()?.name).toBe("agent-memory");
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("recall");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const tool of tools) {
      const definition = TOOLS.find((t) => t.name === tool.name)!;
      expect(tool.inputSchema).toEqual(definition.inputSchema);
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.description).toBe(definition.description);
      expect(tool.annotations).toMatchObject(definition.annotations);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("recall")?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get("remember")?.annotations?.readOnlyHint).toBe(false);
    expect(byName.get("compress_memories")?.annotations?.destructiveHint).toBe(true);
    expect(byName.get("update_config")?.annotations?.idempotentHint).toBe(true);
    expect(byName.get("delete_agent")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    await client.ping();
  });

  it("remembers, waits, recalls and searches, in Chinese and English, with structured content", async () => {
    const client = await connect(freshAgent("mcp-use"));
    const remembered = await callTool(client, "remember", {
      messages: [
        { role: "user", content: "我下个月去成都参加火锅节，想吃九宫格。", id: "m1" },
        { role: "user", content: "My sister Clara lives in Porto and teaches violin.", id: "m2" },
      ],
    });
    expect(remembered.isError).toBeFalsy();
    const taskId = remembered.structuredContent?.task_id;
    expect(taskId).toMatch(/^tsk_/);
    await waitDone(client, String(taskId));

    const recalled = await callTool(client, "recall", { query: "成都 火锅" });
    expect(recalled.isError).toBeFalsy();
    expect(recalled.content[0]?.text).toContain("成都");
    expect(Array.isArray(recalled.structuredContent?.items)).toBe(true);

    const found = await callTool(client, "search_memories", { query: "Clara violin", mode: "keyword" });
    expect(found.isError).toBeFalsy();
    const items = found.structuredContent?.items as { content: string }[];
    expect(items.some((i) => i.content.includes("Clara"))).toBe(true);

    const context = await callTool(client, "get_context", { query: "Where does Clara live?", budget_tokens: 200, locale: "en" });
    expect(context.content[0]?.text).toContain("Porto");
  });

  it("answers a wrong call as a tool error with the API's code, and writes nothing", async () => {
    const agent = freshAgent("mcp-err");
    const client = await connect(agent);
    const bad = await callTool(client, "remember", { messages: [{ role: "robot", content: "x" }], agent_id: "victim" });
    expect(bad.isError).toBe(true);
    const envelope = framedError(bad.content[0]?.text);
    expect(envelope.error.code).toBe("validation_failed");
    expect(envelope.error.message).toMatch(/agent_id|role/);
    const missing = await callTool(client, "get_memory_node", { node_id: 999_999 });
    expect(missing.isError).toBe(true);
    expect(framedError(missing.content[0]?.text).error.code).toBe("not_found");
    const unknown = await callTool(client, "create_memory", {});
    expect(unknown.isError).toBe(true);
    const stats = await callTool(client, "get_stats", {});
    expect((stats.structuredContent?.nodes as Record<string, number> | undefined)?.total ?? 0).toBe(0);
  });

  it("refuses a wrong key before any MCP message is read", async () => {
    await expect(connect(freshAgent("mcp-auth"), "wrong-key")).rejects.toThrow(/401|unauthorized|Unauthorized/);
    const res = await fetch(new URL(`/v1/agents/${freshAgent("mcp-auth")}/mcp`, baseUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("another agent's path, or the same path with another tenant's key, sees nothing of this agent", async () => {
    const agent = freshAgent("mcp-own");
    const mine = await connect(agent);
    const remembered = await callTool(mine, "remember", {
      messages: [{ role: "user", content: "The vault code is amber-falcon-42.", id: "s1" }],
    });
    await waitDone(mine, String(remembered.structuredContent?.task_id));
    const found = await callTool(mine, "search_memories", { query: "vault code amber falcon", mode: "keyword" });
    const nodeId = (found.structuredContent?.items as { node_id: number }[])[0]?.node_id;
    expect(nodeId).toBeTypeOf("number");

    const intruders = [await connect(freshAgent("mcp-other")), await connect(agent, inject("otherTenantKey"))];
    for (const other of intruders) {
      const search = await callTool(other, "search_memories", { query: "vault code amber falcon", mode: "keyword" });
      expect(search.structuredContent?.items).toEqual([]);
      const recall = await callTool(other, "recall", { query: "vault code" });
      expect(JSON.stringify(recall)).not.toContain("amber");
      const node = await callTool(other, "get_memory_node", { node_id: nodeId });
      expect(node.isError).toBe(true);
      expect(framedError(node.content[0]?.text).error.code).toBe("not_found");
      const task = await callTool(other, "get_task", { task_id: String(remembered.structuredContent?.task_id) });
      expect(task.isError).toBe(true);
    }
  });

  it("answers GET (no server-sent stream) with 405 and a JSON-RPC batch with a 400", async () => {
    const url = new URL(`/v1/agents/${freshAgent("mcp-get")}/mcp`, baseUrl);
    const get = await fetch(url, { headers: { Authorization: `Bearer ${DEV_KEY}`, Accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toContain("POST");
    const batch = await fetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${DEV_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]),
    });
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
  });
});
