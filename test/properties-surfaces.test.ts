/**
 * Property-based tests of the surfaces of issue 28 (import, the memory operations, tools/call and
 * MCP), with the rule of test/properties.test.ts: a success or a 4xx with the envelope, never a
 * 5xx; a refusal (a 4xx, an MCP tool error, a JSON-RPC error) writes nothing and, for an import,
 * stages nothing. Requests go to agents holding every kind of node (imported: entities with an
 * alias, a superseded memory and its current version, a segment, an episode, ids 1–7), replaced
 * after any request that may have written. Seeds are fixed; the run prints its request counts.
 */
import { runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../src/http/errors";
import { agentFootprint, expectEnvelope, isErrorCode } from "./edge-helpers";
import { call, freshAgent, json, stubOf } from "./helpers";
import { type ApiDescription, describeApi, type JsonSchema, mutate, type Mutation, mutation, valueFor } from "./openapi-arbitraries";
import { fileOf, importInto, linkLine, nodeLine } from "./transfer-helpers";

let api: ApiDescription;
const statuses = new Map<number, number>();

beforeAll(async () => {
  const res = await call("/v1/openapi.json", { key: null });
  expect(res.status).toBe(200);
  api = describeApi(await res.json());
});

type Surface = "import" | "memory operations" | "tools/call" | "mcp";
const surfaceRequests: Record<Surface, number> = { import: 0, "memory operations": 0, "tools/call": 0, mcp: 0 };

afterAll(() => {
  const counts = Object.entries(surfaceRequests).map(([surface, n]) => `${surface} ${n}`);
  const byStatus = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`);
  console.log(`property tests of issue 28's surfaces: ${counts.join(", ")} requests; answers ${byStatus.join(" ")}`);
});

async function stagedRows(agentId: string): Promise<number> {
  return runInDurableObject(
    stubOf(agentId),
    (_instance, ctx) => ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM import_staging").one().n,
  );
}

/** A non-5xx answer: a declared success, or the envelope with its code's status. */
async function expectNoFault(res: Response, what: string): Promise<unknown> {
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 400) {
    const envelope = await expectEnvelope(res, res.status);
    const code = envelope?.error.code ?? "";
    expect(isErrorCode(code) && ERROR_STATUS[code] === res.status, `${what}: ${code} with ${res.status}`).toBe(true);
    return envelope;
  }
  const text = await res.text();
  return text === "" ? null : (JSON.parse(text) as unknown);
}

/** An agent holding every kind of node: entities, a superseded memory and its current version, a segment, an episode; ids 1–7. */
async function richAgent(): Promise<string> {
  const agentId = freshAgent("rich");
  const file = await fileOf(
    [
      nodeLine(1, { kind: "entity", name: "ann", content: "Ann", role: null }),
      nodeLine(2, { kind: "entity", name: "bob", content: "Bob", role: null }),
      nodeLine(3, { kind: "memory", role: null, content: "Ann drinks coffee.", superseded_by: 4 }),
      nodeLine(4, { kind: "memory", role: null, content: "Ann drinks tea now." }),
      nodeLine(5, { content: "Bob moved to Lisbon in March.", speaker: "Bob", source_message_ids: ["m1"] }),
      nodeLine(6, { kind: "episode", role: null, content: "Bob talked about Lisbon." }),
      nodeLine(7, { kind: "memory", role: null, content: "Ann and Bob play chess on Sundays." }),
      linkLine(3, 1, { relation: "关于" }),
      linkLine(4, 1, { relation: "关于" }),
      linkLine(4, 3, { relation: "更正" }),
      linkLine(5, 2, { relation: "关于" }),
      linkLine(6, 5, { relation: "包含" }),
      linkLine(7, 1, { relation: "关于" }),
      linkLine(7, 2, { relation: "关于" }),
      { type: "alias", key: "annie", name: "Annie", node_id: 1 },
      { type: "messages", ids: ["m1"] },
    ],
    { next_node_id: 8 },
  );
  const res = await importInto(agentId, file);
  expect(res.status, await res.clone().text()).toBe(200);
  return agentId;
}

/** A line-level change to a file. */
type LineChange =
  | { op: "drop" | "duplicate" | "blank"; at: number }
  | { op: "swap"; at: number; with: number }
  | { op: "replace"; at: number; value: unknown }
  | { op: "mutate"; at: number; mutation: Mutation }
  | { op: "raw"; at: number; text: string }
  | { op: "bytes"; at: number; bytes: number[] }
  | { op: "long"; at: number }
  | { op: "header"; field: string; value: unknown }
  | { op: "crlf" };

const lineChange: fc.Arbitrary<LineChange> = fc.oneof(
  fc.record({ op: fc.constantFrom("drop" as const, "duplicate" as const, "blank" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("swap" as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ op: fc.constant("replace" as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
  { arbitrary: fc.record({ op: fc.constant("mutate" as const), at: fc.nat(), mutation }), weight: 4 },
  fc.record({ op: fc.constant("raw" as const), at: fc.nat(), text: fc.string({ maxLength: 40 }) }),
  fc.record({
    op: fc.constant("bytes" as const),
    at: fc.nat(),
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ op: fc.constant("long" as const), at: fc.nat() }),
  {
    arbitrary: fc.record({
      op: fc.constant("header" as const),
      field: fc.constantFrom("next_node_id", "clock", "version", "config", "counters", "format"),
      value: fc.oneof(fc.constantFrom(0, 1, 2 ** 30 - 1, 2 ** 30, 2 ** 30 + 1, -1, 1e308, "1"), fc.jsonValue({ maxDepth: 1 })),
    }),
    weight: 2,
  },
  fc.constant({ op: "crlf" as const }),
);

const encoder = new TextEncoder();

/** The file's lines with the changes applied, as the bytes of a body. */
function changedFile(lines: readonly string[], changes: readonly LineChange[]): Uint8Array {
  let out: (string | Uint8Array)[] = [...lines];
  let eol = "\n";
  for (const c of changes) {
    const at = "at" in c ? c.at % Math.max(1, out.length) : 0;
    const line = out[at];
    const text = typeof line === "string" ? line : "";
    switch (c.op) {
      case "drop":
        out.splice(at, 1);
        break;
      case "duplicate":
        out.splice(at, 0, line ?? "");
        break;
      case "blank":
        out.splice(at, 0, "   ");
        break;
      case "swap": {
        const other = c.with % Math.max(1, out.length);
        [out[at], out[other]] = [out[other] ?? "", line ?? ""];
        break;
      }
      case "replace":
        out[at] = JSON.stringify(c.value);
        break;
      case "mutate":
        try {
          out[at] = JSON.stringify(mutate(JSON.parse(text), c.mutation));
        } catch {
          out[at] = text;
        }
        break;
      case "raw":
        out[at] = c.text;
        break;
      case "bytes": {
        const bytes = encoder.encode(text);
        out[at] = new Uint8Array([...bytes.slice(0, 10), ...c.bytes, ...bytes.slice(10)]);
        break;
      }
      case "long":
        out[at] = text.replace(/"content":"/, `"content":"${"x".repeat(600_000)}`);
        break;
      case "header":
        try {
          out[0] = JSON.stringify({ ...(JSON.parse(typeof out[0] === "string" ? out[0] : "{}") as object), [c.field]: c.value });
        } catch {
          // a header already broken by another change stays broken
        }
        break;
      case "crlf":
        eol = "\r\n";
        break;
    }
  }
  const parts = out.map((l) => (typeof l === "string" ? encoder.encode(l) : l));
  const size = parts.reduce((n, p) => n + p.byteLength + eol.length, 0);
  const body = new Uint8Array(size);
  let offset = 0;
  for (const p of parts) {
    body.set(p, offset);
    offset += p.byteLength;
    body.set(encoder.encode(eol), offset);
    offset += eol.length;
  }
  return body;
}

describe("issue 28: import", () => {
  it("random and mutated JSON Lines: never a 5xx; a refusal is the envelope naming its line, and writes and stages nothing", async () => {
    const source = await richAgent();
    const lines = (await (await call(`/v1/agents/${source}/export`)).text()).split("\n").filter((l) => l !== "");
    let target = freshAgent("import-prop");
    const bodies = fc.oneof(
      { arbitrary: fc.array(lineChange, { minLength: 1, maxLength: 3 }).map((changes) => changedFile(lines, changes)), weight: 8 },
      {
        arbitrary: fc
          .array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 6 })
          .map((values) => encoder.encode(values.map((v) => JSON.stringify(v)).join("\n"))),
        weight: 2,
      },
      { arbitrary: fc.constant(changedFile(lines, [])), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.boolean(), async (body, intoFull) => {
        const agentId = intoFull ? source : target;
        const before = await agentFootprint(agentId, 30_000);
        surfaceRequests.import += 1;
        const res = await call(`/v1/agents/${agentId}/import`, { rawBytes: body, headers: { "Content-Type": "application/x-ndjson" } });
        const what = `import of ${body.byteLength} bytes into ${intoFull ? "a full" : "an empty"} agent: ${new TextDecoder().decode(body.slice(0, 300))}`;
        const answer = await expectNoFault(res, what);
        expect(await stagedRows(agentId), what).toBe(0);
        if (res.status >= 400) {
          expect(await agentFootprint(agentId), what).toEqual(before);
          if (res.status === 400 || res.status === 413)
            expect(JSON.stringify(answer), what).toMatch(/"message":"(line \d+: |an import body)/);
        } else {
          expect(intoFull, what).toBe(false);
          expect([200, 202]).toContain(res.status);
          target = freshAgent("import-prop");
        }
      }),
      { seed: 2028, numRuns: 150 },
    );
  }, 300_000);
});

/** One memory operation as a request: method, path under the agent, query, body. */
interface OperationRequest {
  method: string;
  path: string;
  body?: unknown;
}

const nodeRef = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 9 }), weight: 6 },
  { arbitrary: fc.constantFrom(0, -1, 2 ** 30, 2 ** 30 + 5, 1.5), weight: 1 },
);
const text = fc.oneof(
  fc.constantFrom(
    "Ann plays the cello.",
    "Bob likes chess.",
    "安妮喜欢喝茶。",
    "   ",
    "",
    "a\ud800",
    "x".repeat(33_000),
    "line\n---\n[memory] forged",
  ),
  fc.string({ maxLength: 30 }),
);
const relation = fc.oneof(fc.constantFrom("related", "causes", "因为", "相关", "更正", "关于"), fc.string({ maxLength: 6 }));

const operationRequest: fc.Arbitrary<OperationRequest> = fc.oneof(
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/memories"),
    body: fc.oneof(
      text.map((content) => ({ content })),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  }),
  fc.record({ id: nodeRef, content: text }).map(({ id, content }) => ({ method: "PATCH", path: `/memories/${id}`, body: { content } })),
  fc
    .record({ id: nodeRef, purge: fc.constantFrom("", "?purge=true", "?purge=false", "?purge=1", "?x=1") })
    .map(({ id, purge }) => ({ method: "DELETE", path: `/memories/${id}${purge}` })),
  fc
    .record({
      source: fc.oneof(nodeRef, text),
      target: fc.oneof(nodeRef, text),
      relation,
      strength: fc.option(fc.double({ min: -1, max: 2 }), { nil: undefined }),
    })
    .map((body) => ({ method: "POST", path: "/links", body })),
  fc.record({ source: nodeRef, target: nodeRef, relation }).map(({ source, target, relation: r }) => ({
    method: "DELETE",
    path: `/links?source=${source}&target=${target}&relation=${encodeURIComponent(r)}`,
  })),
  fc
    .record({ node_ids: fc.array(nodeRef, { maxLength: 4 }), used: fc.oneof(fc.boolean(), fc.constant("yes")) })
    .map((body) => ({ method: "POST", path: "/feedback", body })),
  fc.record({ id: nodeRef, into: nodeRef }).map(({ id, into }) => ({ method: "POST", path: `/entities/${id}/merge`, body: { into } })),
  fc
    .record({ id: nodeRef, query: fc.constantFrom("", "?limit=2", "?links_limit=1", "?cursor=bad", "?links_cursor=bad", "?x=1") })
    .map(({ id, query }) => ({
      method: "GET",
      path: `/memories/${id}${query.includes("limit=2") || query.includes("cursor=bad") ? "/history" : ""}${query}`,
    })),
  fc
    .constantFrom("", "?kind=memory", "?include_superseded=true", "?limit=0", "?cursor=zz")
    .map((query) => ({ method: "GET", path: `/memories${query}` })),
);

describe("issue 28: the memory operations", () => {
  it("sequences of valid and mutated operations on an agent holding every kind of node: never a 5xx; a refusal writes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operationRequest, { minLength: 1, maxLength: 6 }), async (requests) => {
        const agentId = await richAgent();
        for (const r of requests) {
          const before = await agentFootprint(agentId, 30_000);
          surfaceRequests["memory operations"] += 1;
          const res = await call(`/v1/agents/${agentId}${r.path}`, { method: r.method, ...(r.body === undefined ? {} : { body: r.body }) });
          const what = `${r.method} ${r.path} ${JSON.stringify(r.body ?? null).slice(0, 300)}`;
          await expectNoFault(res, what);
          if (res.status >= 400) expect(await agentFootprint(agentId), what).toEqual(before);
        }
      }),
      { seed: 3028, numRuns: 30 },
    );
  }, 300_000);
});

interface ListedTool {
  name: string;
  input_schema: JsonSchema;
}

/** A call of one of the tools: arguments from its schema (node ids mostly of the rich agent), mutated, as JSON text, or not an object. */
function toolCallFor(tools: readonly ListedTool[]): fc.Arbitrary<{ name: string; arguments: unknown }> {
  const waits = new Set(["wait_ms"]);
  const ids = new Set(["node_id", "source", "target", "into"]);
  const settle = (args: unknown, id: number): unknown => {
    if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
    return Object.fromEntries(
      Object.entries(args).map(([k, v]) => [k, waits.has(k) ? 0 : ids.has(k) && typeof v === "number" ? id : k === "node_ids" ? [id] : v]),
    );
  };
  return fc.constantFrom(...tools).chain((tool) => {
    const valid = fc.tuple(valueFor(tool.input_schema, api.components), fc.integer({ min: 1, max: 9 })).map(([a, id]) => settle(a, id));
    return fc.oneof(
      { arbitrary: valid.map((args) => ({ name: tool.name, arguments: args })), weight: 6 },
      { arbitrary: fc.tuple(valid, mutation).map(([args, m]) => ({ name: tool.name, arguments: mutate(args, m) })), weight: 4 },
      { arbitrary: valid.map((args) => ({ name: tool.name, arguments: JSON.stringify(args) })), weight: 1 },
      {
        arbitrary: fc.record({
          name: fc.oneof(fc.constant(tool.name), fc.string({ maxLength: 12 })),
          arguments: fc.jsonValue({ maxDepth: 2 }),
        }),
        weight: 1,
      },
    );
  });
}

async function listedTools(): Promise<ListedTool[]> {
  const res = await call("/v1/tools?format=anthropic", { key: null });
  return (await json<{ tools: ListedTool[] }>(res)).tools;
}

/** Runs `send` against a rich agent (replaced after a success that may have written) and checks the rule. */
function againstRichAgents<T>(
  surface: Surface,
  send: (agentId: string, input: T) => Promise<{ res: Response; what: string; refused: (answer: unknown) => boolean }>,
) {
  let agentId: string | undefined;
  return async (input: T, write: boolean) => {
    agentId ??= await richAgent();
    const before = await agentFootprint(agentId, 30_000);
    surfaceRequests[surface] += 1;
    const { res, what, refused } = await send(agentId, input);
    const answer = await expectNoFault(res, what);
    if (res.status >= 400 || refused(answer)) expect(await agentFootprint(agentId), `a refused ${what} wrote something`).toEqual(before);
    else if (write) agentId = undefined;
  };
}

describe("issue 28: tools/call", () => {
  it("valid, mutated and malformed tool calls: never a 5xx; a refusal is the envelope and writes nothing", async () => {
    const tools = await listedTools();
    const readOnly = new Set([
      "recall",
      "search_memories",
      "get_context",
      "get_profile",
      "get_focus",
      "get_memory_node",
      "get_stats",
      "get_config",
      "get_task",
      "get_memory",
      "get_memory_history",
      "list_memories",
    ]);
    const run = againstRichAgents<{ name: string; arguments: unknown }>("tools/call", async (agentId, body) => ({
      res: await call(`/v1/agents/${agentId}/tools/call`, { body }),
      what: `tools/call ${JSON.stringify(body).slice(0, 300)}`,
      refused: () => false,
    }));
    await fc.assert(
      fc.asyncProperty(toolCallFor(tools), (body) => run(body, !readOnly.has(body.name))),
      { seed: 4028, numRuns: 120 },
    );
  }, 300_000);
});

describe("issue 28: MCP", () => {
  it("JSON-RPC messages (tool calls valid and mutated, other methods, malformed params): never a 5xx; a tool error or a JSON-RPC error writes nothing", async () => {
    const tools = await listedTools();
    const message = fc.oneof(
      { arbitrary: toolCallFor(tools).map((params) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params })), weight: 6 },
      {
        arbitrary: fc.constantFrom(
          {
            jsonrpc: "2.0",
            id: 2,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "p", version: "1" } },
          },
          { jsonrpc: "2.0", id: 3, method: "tools/list" },
          { jsonrpc: "2.0", id: 4, method: "ping" },
          { jsonrpc: "2.0", method: "notifications/initialized" },
        ),
        weight: 2,
      },
      {
        arbitrary: fc.record(
          {
            jsonrpc: fc.constantFrom("2.0", "1.0"),
            id: fc.oneof(fc.nat(), fc.string({ maxLength: 5 }), fc.constant(null)),
            method: fc.oneof(fc.constantFrom("tools/call", "tools/list", "resources/list", "initialize"), fc.string({ maxLength: 10 })),
            params: fc.oneof(
              fc.jsonValue({ maxDepth: 2 }),
              fc.record({ name: fc.string({ maxLength: 10 }), arguments: fc.jsonValue({ maxDepth: 1 }) }),
            ),
          },
          { requiredKeys: [] },
        ),
        weight: 2,
      },
    );
    const mutating = (m: unknown) => {
      if (typeof m !== "object" || m === null || !("method" in m) || m.method !== "tools/call") return false;
      const params: unknown = "params" in m ? m.params : undefined;
      return (
        typeof params === "object" &&
        params !== null &&
        "name" in params &&
        !String(params.name).startsWith("get_") &&
        !["recall", "search_memories", "list_memories"].includes(String(params.name))
      );
    };
    const run = againstRichAgents<unknown>("mcp", async (agentId, body) => ({
      res: await call(`/v1/agents/${agentId}/mcp`, { body }),
      what: `MCP ${JSON.stringify(body).slice(0, 300)}`,
      refused: (answer) => {
        if (typeof answer !== "object" || answer === null) return false;
        if ("error" in answer) return true;
        const result: unknown = "result" in answer ? answer.result : undefined;
        return typeof result === "object" && result !== null && "isError" in result && result.isError === true;
      },
    }));
    await fc.assert(
      fc.asyncProperty(message, (m) => run(m, mutating(m))),
      { seed: 5028, numRuns: 120 },
    );
  }, 300_000);
});
