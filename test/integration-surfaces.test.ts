/**
 * The integration surfaces (docs/design.md §13) over the one list of operations
 * (OPERATIONS, gathered from the areas of src/routes): the OpenAPI document holds exactly the routes the app serves, each
 * with its operationId, security and error statuses; the function-calling tools are those of the
 * list, their schemas those of the document, in both formats; POST tools/call runs good calls and
 * refuses bad ones with a 400 a model can read, writing nothing, for the agent of its path only.
 * (That the operation lists and the generated SDK module are current: test-e2e/generated.test.ts.)
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { createApp, openApiConfig } from "../src/app";
import { inlineSchema, inputSchemaOf, type OpenApiDocument } from "../src/surfaces/operation-schemas";
import { argumentsSchemaOf, defineOperation, httpSpecOf, isTool } from "../src/surfaces/operation";
import { createRoute, z } from "@hono/zod-openapi";
import { ERROR_STATUS } from "../src/http/errors";
import { OPERATIONS, TOOL_NAMES } from "../src/routes";
import { TASK_KINDS } from "../src/agent/agent-tasks";
import { call, freshAgent, json, rememberAndWait } from "./helpers";

const app = createApp();
const doc = app.getOpenAPI31Document(openApiConfig("http://127.0.0.1:8787")) as unknown as OpenApiDocument & {
  paths: Record<string, Record<string, { operationId?: string; security?: unknown[]; responses: Record<string, unknown> }>>;
  security?: unknown;
  components: { securitySchemes?: Record<string, unknown>; schemas: Record<string, unknown> };
  servers?: unknown[];
};

const HTTP_METHODS = ["get", "post", "put", "delete", "patch"];

function documentedOperations() {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op })),
  );
}

describe("one list of operations", () => {
  it("the OpenAPI document holds every route the app serves, and exactly the operations of the list", () => {
    const served = app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`)
      .sort();
    const documented = documentedOperations()
      .map(({ method, path }) => `${method} ${path}`)
      .sort();
    expect(documented).toEqual([...new Set(served)].sort());
    const listed = OPERATIONS.map((d) => `${d.route.method} ${d.route.path}`).sort();
    expect(listed).toEqual(documented);
    const ids = documentedOperations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(OPERATIONS.map((d) => d.name).sort());
  });

  it("the document has a bearer scheme, a server, and per operation its auth and error statuses", () => {
    expect(doc.components.securitySchemes?.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.servers).toEqual([{ url: "http://127.0.0.1:8787" }]);
    for (const { path, method, op } of documentedOperations()) {
      const statuses = Object.keys(op.responses);
      // Open: no requirement, or an empty one among others (health: a key only for deep=1).
      const open =
        Array.isArray(op.security) && (op.security.length === 0 || op.security.some((r) => Object.keys(r as object).length === 0));
      expect(open, `${method} ${path}`).toBe(["/v1/health", "/v1/tools", "/v1/openapi.json"].includes(path));
      for (const s of ["400", "405", "413", "503"]) expect(statuses, `${method} ${path}`).toContain(s);
      if (!open) expect(statuses, `${method} ${path}`).toContain("401");
      if ((op as { requestBody?: unknown }).requestBody !== undefined) expect(statuses, `${method} ${path}`).toContain("415");
    }
    // Error codes as an enum, Retry-After on 429 and 503.
    const error = doc.components.schemas.Error as { properties: { error: { properties: { code: { enum: string[] } } } } };
    expect(error.properties.error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    const remember = doc.paths["/v1/agents/{agentId}/remember"]?.post?.responses as Record<string, { headers?: Record<string, unknown> }>;
    expect(Object.keys(remember["429"]?.headers ?? {})).toContain("Retry-After");
    expect(Object.keys(remember["503"]?.headers ?? {})).toContain("Retry-After");
  });
});

describe("an operation added to the list", () => {
  it("gets its path and GET query arguments from its route when they are not declared", () => {
    const route = createRoute({
      method: "get",
      path: "/v1/agents/{agentId}/nodes/{nodeId}/links/{linkId}",
      operationId: "getLinkExample",
      request: {
        params: z.object({ agentId: z.string(), nodeId: z.string().regex(/^\d+$/), linkId: z.string() }),
        query: z.object({ depth: z.string().optional() }).strict(),
      },
      responses: { 200: { description: "ok" } },
    });
    const definition = defineOperation(route, { scope: "read", tool: { reason: "an example" }, sdk: { reason: "an example" } });
    expect(httpSpecOf(definition)).toMatchObject({
      method: "GET",
      scope: "agent",
      pathArgs: { node_id: "nodeId", link_id: "linkId" },
      queryArgs: ["depth"],
      body: false,
      write: false,
    });
    const args = argumentsSchemaOf(definition);
    expect(args.safeParse({ node_id: "12", link_id: "a", depth: "2" }).success).toBe(true);
    expect(args.safeParse({ node_id: "x", link_id: "a" }).success).toBe(false);
    expect(args.safeParse({ node_id: "12", link_id: "a", agent_id: "other" }).success).toBe(false);
  });
});

type OpenAiTool = { type: string; function: { name: string; description: string; parameters: Schema } };
type AnthropicTool = { name: string; description: string; input_schema: Schema };

describe("GET /v1/tools", () => {
  it("serves every tool of the list in both formats, their argument schemas those of the OpenAPI document", async () => {
    const openai = await json<{ format: string; tools: OpenAiTool[] }>(await call("/v1/tools?format=openai", { key: null }));
    const anthropic = await json<{ format: string; tools: AnthropicTool[] }>(await call("/v1/tools?format=anthropic", { key: null }));
    const tools = OPERATIONS.filter(isTool);
    expect(openai.tools.map((t) => t.function.name)).toEqual(tools.map((d) => d.tool.name));
    expect(anthropic.tools.map((t) => t.name)).toEqual(tools.map((d) => d.tool.name));
    expect(TOOL_NAMES.length).toBe(tools.length);
    for (const [i, d] of tools.entries()) {
      const o = openai.tools[i];
      const a = anthropic.tools[i];
      if (!o || !a) throw new Error("missing tool");
      expect(o.type).toBe("function");
      // OpenAI: names ^[a-zA-Z0-9_-]{1,64}$, descriptions up to 1024 characters; both: an object schema.
      expect(o.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(o.function.description.length).toBeLessThanOrEqual(1024);
      expect(o.function.parameters).toEqual(a.input_schema);
      expect(a.description).toBe(o.function.description);
      const schema = o.function.parameters as Record<string, unknown>;
      expect(schema.type).toBe("object");
      expect(schema.additionalProperties).toBe(false);
      expect(JSON.stringify(schema)).not.toContain("$ref");
      // Each body argument is the document's request-body property, inlined.
      expect(schema).toEqual(inputSchemaOf(d, doc, { inline: true }));
      const bodyRef = (doc.paths[d.route.path]?.[d.route.method] as { requestBody?: { content: Record<string, { schema: unknown }> } })
        ?.requestBody?.content["application/json"]?.schema;
      if (bodyRef) {
        const body = inlineSchema(bodyRef, doc) as { properties: Record<string, unknown> };
        for (const [name, prop] of Object.entries(body.properties)) {
          if (name in d.fixedBody) continue;
          expect((schema.properties as Record<string, unknown>)[name], `${d.tool.name}.${name}`).toEqual(prop);
        }
      }
      // The schema compiles as JSON Schema 2020-12 and rejects an argument that is not declared.
      const validator = new Validator(schema as Schema, "2020-12", false);
      expect(validator.validate({ agent_id: "someone-else" }).valid, d.tool.name).toBe(false);
    }
  });

  it("refuses an unknown format", async () => {
    const res = await call("/v1/tools?format=gemini", { key: null });
    expect(res.status).toBe(400);
  });
});

/** Arguments a model would produce, valid by the tool's schema, for the tools that take some. */
const GOOD_ARGUMENTS: Record<string, Record<string, unknown>> = {
  remember: { messages: [{ role: "user", content: "我下周二去杭州出差，住在西湖边。", id: "tc-1" }] },
  recall: { query: "杭州出差", locale: "zh" },
  search_memories: { query: "杭州", mode: "keyword" },
  get_context: { query: "出差", budget_tokens: 200 },
  get_profile: { locale: "en" },
  get_focus: {},
  get_stats: { wait_ms: 0 },
  get_config: {},
  update_config: { focus_limit: 9 },
  compress_memories: { cycles: 1 },
  rebuild_episodes: {},
};

function toolSchema(name: string): Schema {
  return inputSchemaOf(
    OPERATIONS.filter(isTool).find((d) => d.tool.name === name)!,
    doc,
    { inline: true },
  ) as Schema;
}

describe("one name per capability", () => {
  const camel = (tool: string) => tool.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  /** Tools the object answers outside its task queue (reads of its own state): no task kind. */
  const NO_TASK = ["getFocus", "getStats", "getConfig", "getTask", "getMemoryNode"];

  it("every tool of GET /v1/tools is the OpenAPI operation of its name in camelCase, and the task kind it runs has that name", async () => {
    const tools = (await json<{ tools: AnthropicTool[] }>(await call("/v1/tools?format=anthropic", { key: null }))).tools.map(
      (t) => t.name,
    );
    const ids = new Set(documentedOperations().map(({ op }) => op.operationId));
    const kinds = new Set<string>(TASK_KINDS);
    expect(tools.length).toBeGreaterThan(20);
    for (const tool of tools) {
      expect(ids.has(camel(tool)), tool).toBe(true);
      expect(kinds.has(camel(tool)) || NO_TASK.includes(camel(tool)), tool).toBe(true);
    }
    // The writes answer with their task: its kind is the tool's name.
    const agent = freshAgent("names");
    await rememberAndWait(agent, [{ role: "user", content: "Ada keeps bees in Lyon.", id: "n-1" }]);
    const writes: [string, Record<string, unknown>][] = [
      ["create_memory", { content: "Ada sells honey on Saturdays." }],
      ["compress_memories", { cycles: 1 }],
      ["rebuild_episodes", {}],
    ];
    for (const [tool, args] of writes) {
      const res = await call(`/v1/agents/${agent}/tools/call`, { body: { name: tool, arguments: args } });
      expect(res.status, tool).toBe(200);
      const { result } = await json<{ result: { task_id?: string; task_ids?: string[] } }>(res);
      const taskId = result.task_id ?? result.task_ids?.[0];
      expect(taskId, tool).toBeTypeOf("string");
      const task = await json<{ kind: string }>(await call(`/v1/agents/${agent}/tasks/${taskId}`));
      expect(task.kind, tool).toBe(camel(tool));
    }
  });
});

describe("POST /v1/agents/:agentId/tools/call", () => {
  it("runs a call of each tool with arguments its schema accepts", async () => {
    const agent = freshAgent("tools");
    const remembered = await call(`/v1/agents/${agent}/tools/call`, { body: { name: "remember", arguments: GOOD_ARGUMENTS.remember } });
    expect(remembered.status).toBe(200);
    const { result } = await json<{ result: { task_id: string } }>(remembered);
    const task = await call(`/v1/agents/${agent}/tools/call`, {
      body: { name: "get_task", arguments: { task_id: result.task_id, wait_ms: 20_000 } },
    });
    expect((await json<{ result: { status: string } }>(task)).result.status).toBe("done");
    for (const [name, args] of Object.entries(GOOD_ARGUMENTS)) {
      if (name === "remember") continue;
      expect(new Validator(toolSchema(name), "2020-12", false).validate(args).valid, name).toBe(true);
      const res = await call(`/v1/agents/${agent}/tools/call`, { body: { name, arguments: JSON.stringify(args) } });
      expect(res.status, name).toBe(200);
      const body = await json<{ name: string; content: string; result: unknown }>(res);
      expect(body.name).toBe(name);
      expect(body.content.length).toBeGreaterThan(0);
    }
    const recalled = await json<{ content: string; result: { items: { node_id: number }[] } }>(
      await call(`/v1/agents/${agent}/tools/call`, { body: { name: "recall", arguments: GOOD_ARGUMENTS.recall } }),
    );
    expect(recalled.content).toContain("杭州");
    const nodeId = recalled.result.items[0]?.node_id;
    expect(nodeId).toBeTypeOf("number");
    const node = await call(`/v1/agents/${agent}/tools/call`, { body: { name: "get_memory_node", arguments: { node_id: nodeId } } });
    expect(node.status).toBe(200);
    // The same node id from another agent's path: that agent has no such node.
    const other = await call(`/v1/agents/${freshAgent("tools-other")}/tools/call`, {
      body: { name: "get_memory_node", arguments: { node_id: nodeId } },
    });
    expect(other.status).toBe(404);
  });

  it("creates, links, unlinks, corrects, reads, lists, reinforces, merges and forgets memories through the memory tools", async () => {
    const agent = freshAgent("memory-tools");
    const tool = async (name: string, args: Record<string, unknown>) => {
      const res = await call(`/v1/agents/${agent}/tools/call`, { body: { name, arguments: args } });
      return { status: res.status, body: await json<{ result: Record<string, unknown> }>(res) };
    };
    for (const [name, args] of [
      ["create_memory", { content: "我喜欢在周末打篮球。" }],
      ["link_memories", { source: 1, target: 2, relation: "related" }],
      ["update_memory", { node_id: 1, content: "x" }],
      ["delete_memory", { node_id: 1, purge: true }],
      ["report_feedback", { node_ids: [1], used: true }],
      ["get_memory", { node_id: 1 }],
      ["get_memory_history", { node_id: 1 }],
      ["list_memories", { kind: "memory", limit: 10 }],
      ["unlink_memories", { source: 1, target: 2, relation: "相关" }],
      ["merge_entities", { node_id: 1, into: 2 }],
    ] as const) {
      expect(new Validator(toolSchema(name), "2020-12", false).validate(args).valid, name).toBe(true);
    }
    const a = await tool("create_memory", { content: "我喜欢在周末打篮球。" });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const b = await tool("create_memory", { content: "Bob moved to Lisbon in March." });
    const idA = Number(a.body.result.node_id);
    const idB = Number(b.body.result.node_id);
    expect(idA).toBeGreaterThan(0);
    expect(idB).toBeGreaterThan(0);
    const link = await tool("link_memories", { source: idA, target: idB, relation: "related" });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body.result).toMatchObject({ source: idA, target: idB });
    const linked = async () =>
      (await json<{ links: { outgoing: { target: number }[] } }>(await call(`/v1/agents/${agent}/nodes/${idA}`))).links.outgoing.some(
        (l) => l.target === idB,
      );
    expect(await linked()).toBe(true);
    const unlinked = await tool("unlink_memories", { source: idA, target: idB, relation: String(link.body.result.relation) });
    expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(200);
    expect(await linked()).toBe(false);
    const updated = await tool("update_memory", { node_id: idB, content: "Bob moved to Porto in March." });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.result.supersedes).toBe(idB);
    const current = Number(updated.body.result.node_id);
    expect((await json<{ content: string }>(await call(`/v1/agents/${agent}/nodes/${current}`))).content).toBe(
      "Bob moved to Porto in March.",
    );
    expect((await tool("report_feedback", { node_ids: [idA], used: true })).status).toBe(200);
    const memory = await tool("get_memory", { node_id: current });
    expect(memory.status, JSON.stringify(memory.body)).toBe(200);
    expect(memory.body.result).toMatchObject({ node_id: current, content: "Bob moved to Porto in March." });
    const history = await tool("get_memory_history", { node_id: current });
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect((history.body.result.history as unknown[]).length).toBe(2);
    const listed = await tool("list_memories", { kind: "memory", limit: 10 });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect((listed.body.result.items as { node_id: number }[]).map((m) => m.node_id).sort((x, y) => x - y)).toEqual(
      [idA, current].sort((x, y) => x - y),
    );
    const focus = await json<{ focus: { node_id: number; name: string }[] }>(await call(`/v1/agents/${agent}/focus`));
    // Any two entities: the merge is the caller's judgement (the name merged away stays an alias).
    const [from, into] = focus.focus.map((f) => f.node_id);
    if (from === undefined || into === undefined) throw new Error(`fewer than two entities in the focus: ${JSON.stringify(focus)}`);
    const merged = await tool("merge_entities", { node_id: from, into });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((await call(`/v1/agents/${agent}/nodes/${from}`)).status).toBe(404);
    // A call its schema refuses writes nothing: the current version stays as it is.
    const before = await json(await call(`/v1/agents/${agent}/stats?wait_ms=5000`));
    expect((await tool("update_memory", { node_id: current, content: "   " })).status).toBe(400);
    expect(await json(await call(`/v1/agents/${agent}/stats?wait_ms=5000`))).toEqual(before);
    const forgotten = await tool("delete_memory", { node_id: idA });
    expect(forgotten.status, JSON.stringify(forgotten.body)).toBe(200);
    expect((await call(`/v1/agents/${agent}/nodes/${idA}`)).status).toBe(404);
  });

  it("delete_agent erases the agent of the path, and only it", async () => {
    const [doomed, kept] = [freshAgent("tools-del"), freshAgent("tools-kept")];
    for (const agent of [doomed, kept]) await rememberAndWait(agent, [{ role: "user", content: "Gus repairs clocks in Bern.", id: "g-1" }]);
    const res = await call(`/v1/agents/${doomed}/tools/call`, { body: { name: "delete_agent", arguments: {} } });
    expect(res.status).toBe(200);
    expect((await json<{ result: { deleted: boolean } }>(res)).result.deleted).toBe(true);
    const stats = async (agent: string) => (await json<{ nodes: { total: number } }>(await call(`/v1/agents/${agent}/stats`))).nodes.total;
    expect(await stats(doomed)).toBe(0);
    expect(await stats(kept)).toBeGreaterThan(0);
  });

  it("refuses bad calls with a 400 naming the problem, and writes nothing", async () => {
    const agent = freshAgent("tools-bad");
    await rememberAndWait(agent, [{ role: "user", content: "Alice moved to Lisbon in May.", id: "b-1" }]);
    const statsBefore = await json(await call(`/v1/agents/${agent}/stats`));
    const bad: [unknown, RegExp][] = [
      [{ name: "forget_everything", arguments: {} }, /unknown tool|name/],
      [{ name: "create_memory", arguments: {} }, /subject/],
      [{ name: "remember", arguments: {} }, /messages/],
      [{ name: "remember", arguments: { messages: [{ role: "user", content: "x" }], agent_id: "victim" } }, /agent_id: unknown argument/],
      [{ name: "remember", arguments: "{not json" }, /not valid JSON/],
      [{ name: "remember", arguments: "[1,2]" }, /must be a JSON object/],
      [{ name: "search_memories", arguments: { query: "Lisbon", mode: "telepathy" } }, /mode/],
      [{ name: "get_memory_node", arguments: { node_id: "12" } }, /node_id/],
      [{ name: "update_config", arguments: { focus_limit: -3 } }, /focus_limit/],
      [{ name: "compress_memories", arguments: { cycles: 10_000 } }, /cycles/],
    ];
    for (const [body, message] of bad) {
      const res = await call(`/v1/agents/${agent}/tools/call`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error } = await json<{ error: { code: string; message: string } }>(res);
      expect(error.code).toBe("validation_failed");
      expect(error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await json(await call(`/v1/agents/${agent}/stats`))).toEqual(statsBefore);
  });

  it("passes the Idempotency-Key to the write: the same call twice is one task", async () => {
    const agent = freshAgent("tools-idem");
    const body = { name: "remember", arguments: { messages: [{ role: "user", content: "Bob prefers tea.", id: "i-1" }] } };
    const first = await json<{ result: { task_id: string } }>(
      await call(`/v1/agents/${agent}/tools/call`, { body, headers: { "Idempotency-Key": "k-1" } }),
    );
    const again = await json<{ result: { task_id: string } }>(
      await call(`/v1/agents/${agent}/tools/call`, { body, headers: { "Idempotency-Key": "k-1" } }),
    );
    expect(again.result.task_id).toBe(first.result.task_id);
  });

  it("needs the agent's key like every agent route", async () => {
    const res = await call(`/v1/agents/${freshAgent()}/tools/call`, { key: "wrong-key", body: { name: "get_focus", arguments: {} } });
    expect(res.status).toBe(401);
  });
});

/** One JSON-RPC message to the agent's MCP endpoint. */
async function mcp(agent: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await call(`/v1/agents/${agent}/mcp`, { body: { jsonrpc: "2.0", ...body }, headers });
  expect(res.status).toBe(200);
  return json<{ result?: { isError?: boolean; structuredContent?: Record<string, unknown> }; error?: { code: number; message: string } }>(
    res,
  );
}

describe("issue 28 finding 13: MCP writes ignore Idempotency-Key", () => {
  it("two create_memory calls over MCP with one Idempotency-Key make one memory and answer alike; another request with it is refused", async () => {
    const agent = freshAgent("mcp-key");
    const create = (content: string) =>
      mcp(
        agent,
        { id: 1, method: "tools/call", params: { name: "create_memory", arguments: { content } } },
        { "Idempotency-Key": "mcp-1" },
      );
    const first = await create("Ursula keeps bees.");
    const second = await create("Ursula keeps bees.");
    expect(first.result?.isError).toBeUndefined();
    expect(second.result?.structuredContent).toEqual(first.result?.structuredContent);
    const stats = await json<{ nodes: { memories: number } }>(await call(`/v1/agents/${agent}/stats?wait_ms=30000`));
    expect(stats.nodes.memories).toBe(1);
    const other = await create("Ursula sells honey.");
    expect(other.result?.isError).toBe(true);
    expect(JSON.stringify(other.result)).toContain("idempotency_conflict");
  });
});

describe("issue 28 finding 17: contract drift", () => {
  it("MCP tools/call with arguments that are not an object (or no name) answers JSON-RPC -32602 with a readable message", async () => {
    const agent = freshAgent("mcp-params");
    for (const params of [{ name: "get_stats", arguments: [] }, { name: "get_stats", arguments: "{}" }, { arguments: {} }, { name: 5 }]) {
      const answer = await mcp(agent, { id: 7, method: "tools/call", params });
      expect(answer.error?.code, JSON.stringify(params)).toBe(-32602);
      expect(answer.error?.message).toMatch(/^Invalid params: tools\/call/);
      expect(answer.error?.message).not.toMatch(/ZodError|"code":/);
    }
    expect(
      (await mcp(agent, { id: 8, method: "tools/call", params: { name: "get_stats", arguments: {} } })).result?.isError,
    ).toBeUndefined();
  });

  it("delete_memory's purge and list_memories' include_superseded take booleans, on tools/call and MCP alike", async () => {
    const agent = freshAgent("purge-boolean");
    const created = await json<{ node_id: number }>(
      await call(`/v1/agents/${agent}/memories`, { body: { content: "Vera owns a kayak." } }),
    );
    const refused = await call(`/v1/agents/${agent}/tools/call`, {
      body: { name: "delete_memory", arguments: { node_id: created.node_id, purge: "true" } },
    });
    expect(refused.status).toBe(400);
    const listed = await call(`/v1/agents/${agent}/tools/call`, {
      body: { name: "list_memories", arguments: { include_superseded: true } },
    });
    expect(listed.status).toBe(200);
    const purged = await mcp(agent, {
      id: 1,
      method: "tools/call",
      params: { name: "delete_memory", arguments: { node_id: created.node_id, purge: true } },
    });
    expect(purged.result?.structuredContent).toMatchObject({ purged: true, node_id: created.node_id });
  });

  it("callTool declares 409 (a tool's conflict passes through); GET memories/{id} and …/history refuse unknown query parameters", async () => {
    const statuses = Object.keys(doc.paths["/v1/agents/{agentId}/tools/call"]?.post?.responses ?? {});
    expect(statuses).toContain("409");
    const agent = freshAgent("drift");
    const created = await json<{ node_id: number }>(
      await call(`/v1/agents/${agent}/memories`, { body: { content: "Walt repairs clocks." } }),
    );
    await call(`/v1/agents/${agent}/memories/${created.node_id}`, { method: "PATCH", body: { content: "Walt repairs watches." } });
    const conflict = await call(`/v1/agents/${agent}/tools/call`, {
      body: { name: "update_memory", arguments: { node_id: created.node_id, content: "Walt repairs radios." } },
    });
    expect(conflict.status).toBe(409);
    for (const path of [`memories/${created.node_id}?verbose=1`, `memories/${created.node_id}/history?verbose=1`]) {
      const res = await call(`/v1/agents/${agent}/${path}`);
      expect(res.status, path).toBe(400);
      expect((await json<{ error: { message: string } }>(res)).error.message).toContain("verbose");
    }
  });
});
