/**
 * Property-based tests of the whole HTTP surface (docs/design.md §15: bad input gets a 4xx with the
 * error envelope and writes nothing; no request produces a 5xx but an outage). The endpoints are
 * read from the API's own OpenAPI document, so a new endpoint is covered without a change here.
 *
 * For every request, valid or mutated (fields removed, added, retyped, huge, malformed Unicode;
 * bodies that are not JSON or not UTF-8-typed; wrong content types; odd or missing Authorization
 * and Idempotency-Key; random agent, task and node ids; any method; random paths):
 * - the answer is never a 5xx;
 * - a non-2xx answer is the envelope `{error: {code, message, details?}}` with a code of the
 *   closed list and that code's status (405 with Allow, 401 with WWW-Authenticate, 429 with
 *   Retry-After);
 * - a 2xx answer has a status the document declares for that operation;
 * - a 4xx wrote nothing: the addressed agent's stats, queue, counters, parameters, registry entry
 *   and D1 rows are as before.
 *
 * The surfaces of issue 28 have their own properties at the end (import with random and mutated
 * JSON Lines, sequences of memory operations, tools/call, MCP), with the same rule.
 *
 * Seeds are fixed, so a failure reproduces (fast-check prints the seed and the shrunk request).
 * Requests go to fresh agents (nothing written; one is reused until a request may have written to
 * it) and to a few "seeded" agents that hold memories, a finished task and a used Idempotency-Key;
 * an agent that a request may have changed is replaced by a new one. No agent's storage grows
 * (the pool slows down when one does), and few objects are created (it slows down with their
 * number too). The run prints how many requests it made, how long it took and the statuses seen.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_ID_PATTERN } from "../src/config/limits";
import { ERROR_STATUS, type ErrorCode } from "../src/http/errors";
import { agentFootprint, expectEnvelope, fetchWorker, type Footprint, IncomingWithBody } from "./edge-helpers";
import { call, DEV_KEY, freshAgent, json, stubOf } from "./helpers";
import { internals } from "./internals";
import {
  type ApiDescription,
  describeApi,
  type JsonSchema,
  mutate,
  type Mutation,
  mutation,
  type Operation,
  type Parameter,
  valueFor,
} from "./openapi-arbitraries";
import { fileOf, importInto, linkLine, nodeLine } from "./transfer-helpers";

const BASE = "http://localhost";
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"];

let api: ApiDescription;
let requestsMade = 0;
const startedAt = Date.now();

// ---------------------------------------------------------------------------------------------
// Seeded agents: memories, a finished task, and an Idempotency-Key already used ("k-1").

interface Seeded {
  agentId: string;
  taskId: string;
}

const SEEDED_SLOTS = 3;
const seededPool: (Seeded | undefined)[] = Array.from({ length: SEEDED_SLOTS }, () => undefined);

/**
 * Agents nothing was written to. One is reused until a request may have written to it, then
 * replaced: reads and refusals leave an agent as fresh as it was, and every agent's object costs
 * the pool (each request of the pool slows down with the number of objects it has created).
 */
const FRESH_SLOTS = 24;
const freshPool: (string | undefined)[] = Array.from({ length: FRESH_SLOTS }, () => undefined);

function freshSlot(slot: number): string {
  const agentId = freshPool[slot] ?? freshAgent("prop");
  freshPool[slot] = agentId;
  return agentId;
}

async function seededAgent(slot: number): Promise<Seeded> {
  const existing = seededPool[slot];
  if (existing) return existing;
  const agentId = freshAgent("seeded");
  const res = await call(`/v1/agents/${agentId}/remember`, {
    headers: { "Idempotency-Key": "k-1" },
    body: {
      messages: [
        { role: "user", name: "Alice", content: "Alice moved the Phoenix launch to Friday after the login tests failed.", id: "s1" },
        { role: "assistant", content: "Noted: Bob will tell the Berlin team about the budget review.", id: "s2" },
      ],
    },
  });
  expect(res.status).toBe(202);
  const { task_id } = await json<{ task_id: string }>(res);
  const seeded = { agentId, taskId: task_id };
  await agentFootprint(agentId, 30_000);
  seededPool[slot] = seeded;
  return seeded;
}

// ---------------------------------------------------------------------------------------------
// Requests, as generated (pure data: a failure prints and replays exactly).

type AgentChoice = { kind: "fresh"; slot: number } | { kind: "seeded"; slot: number } | { kind: "raw"; segment: string };

/** A path or query value: from the schema (encoded when sent), or a raw, already-encoded string. */
type Value = { encoded: string } | { seededTask: true } | { agent: AgentChoice };

interface Plan {
  method: string;
  operation: Operation;
  params: Record<string, Value>;
  query: [string, string][];
  headers: Record<string, string>;
  body: { text: string; contentType: string | undefined; stream: boolean } | undefined;
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) becomes the bytes of one. */
function encodeSegment(s: string): string {
  let out = "";
  for (const ch of s) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      out += "%ED%A0%80";
    }
  }
  return out;
}

/** Path segments and query values that look like ids but are not, plus arbitrary text. */
const oddValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "0x1",
    "1e0",
    "+1",
    "%201",
    "1%20",
    "01",
    "-1",
    "1.0",
    "..",
    ".",
    "%2e%2e",
    "%2F",
    "a%2Fb",
    "%ED%A0%80",
    "%FF",
    "%00",
    "%20",
    "１",
    "Infinity",
    "null",
  ),
  fc.string({ maxLength: 70 }).map(encodeSegment),
  fc.string({ unit: "binary", maxLength: 12 }).map(encodeSegment),
);

const agentChoice: fc.Arbitrary<AgentChoice> = fc.oneof(
  { arbitrary: fc.nat({ max: FRESH_SLOTS - 1 }).map((slot) => ({ kind: "fresh" as const, slot })), weight: 6 },
  { arbitrary: fc.nat({ max: SEEDED_SLOTS - 1 }).map((slot) => ({ kind: "seeded" as const, slot })), weight: 3 },
  { arbitrary: fc.oneof(fc.stringMatching(AGENT_ID_PATTERN), oddValue).map((segment) => ({ kind: "raw" as const, segment })), weight: 2 },
);

/** Query values that would make a valid request wait: kept short, the waiting itself is not under test. */
const QUERY_OVERRIDES: Record<string, fc.Arbitrary<string>> = { wait_ms: fc.constantFrom("0", "1", "20") };

function pathValue(p: Parameter): fc.Arbitrary<Value> {
  if (p.name === "agentId") return agentChoice.map((agent) => ({ agent }));
  const valid = valueFor(p.schema, api.components).map((v) => ({ encoded: encodeSegment(String(v)) }));
  const known: fc.Arbitrary<Value>[] =
    p.name === "taskId"
      ? [fc.constant({ seededTask: true as const })]
      : p.name === "nodeId"
        ? [fc.integer({ min: 1, max: 12 }).map((n) => ({ encoded: String(n) }))]
        : [];
  return fc.oneof({ arbitrary: valid, weight: 2 }, ...known.map((arbitrary) => ({ arbitrary, weight: 3 })), {
    arbitrary: oddValue.map((encoded) => ({ encoded })),
    weight: 2,
  });
}

function queryValue(p: Parameter): fc.Arbitrary<[string, string] | null> {
  const valid = QUERY_OVERRIDES[p.name] ?? valueFor(p.schema, api.components).map((v) => encodeSegment(String(v)));
  // Left out half the time (fc.option's freq: nil once in `freq`); otherwise valid three times in four.
  return fc.option(
    fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: oddValue, weight: 1 }).map((v): [string, string] => [p.name, v]),
    {
      nil: null,
      freq: 2,
    },
  );
}

const authorization: fc.Arbitrary<string | null> = fc.oneof(
  { arbitrary: fc.constant(`Bearer ${DEV_KEY}`), weight: 16 },
  {
    arbitrary: fc.constantFrom(
      null,
      "Bearer",
      "Bearer nope",
      "Basic ZGV2OmtleQ==",
      `bearer ${DEV_KEY}`,
      `Bearer   ${DEV_KEY}   `,
      `Bearer ${DEV_KEY} extra`,
      `Token ${DEV_KEY}`,
      `Bearer ${DEV_KEY.toUpperCase()}`,
    ),
    weight: 2,
  },
  { arbitrary: fc.stringMatching(/^[\x20-\x7e]{0,40}$/), weight: 1 },
);

const idempotencyKey: fc.Arbitrary<string | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 4 },
  { arbitrary: fc.constantFrom("k-1", "k-2"), weight: 2 },
  { arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,40}$/), weight: 1 },
  { arbitrary: fc.constantFrom("has space", "x".repeat(300), "\t", "key\x7f"), weight: 1 },
);

/** More than the 1 MiB body limit. */
const HUGE_BODY = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(1024 * 1024) }] });
const DEEP_JSON = `${"[".repeat(5000)}${"]".repeat(5000)}`;

const contentTypes = fc.constantFrom(
  undefined,
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/json; charset=utf-16",
  "APPLICATION/JSON",
  "application/merge-patch+json",
  "application/json;;",
);

function bodyFor(operation: Operation): fc.Arbitrary<Plan["body"]> {
  const json = (text: string, contentType: string | undefined = "application/json") => ({ text, contentType, stream: false });
  const schema = operation.body?.schema;
  const anyJson = fc.jsonValue({ maxDepth: 2 }).map((v) => json(JSON.stringify(v)));
  const cases: fc.WeightedArbitrary<Plan["body"]>[] = [
    {
      arbitrary: fc.constantFrom("{", "[1,", "nul", "", '"x"', "1e999", "[]", "null", "true", "{}}", DEEP_JSON).map((t) => json(t)),
      weight: 2,
    },
    { arbitrary: fc.string({ maxLength: 30 }).map((t) => json(t)), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: schema ? 2 : 24 },
    { arbitrary: fc.boolean().map((stream) => ({ text: HUGE_BODY, contentType: "application/json", stream })), weight: 1 },
  ];
  if (!schema) return fc.oneof(...cases, { arbitrary: anyJson, weight: 2 });
  const valid = valueFor(schema, api.components);
  return fc.oneof(
    ...cases,
    { arbitrary: valid.map((v) => json(JSON.stringify(v))), weight: 16 },
    { arbitrary: fc.tuple(valid, mutation).map(([v, m]) => json(JSON.stringify(mutate(v, m)))), weight: 12 },
    { arbitrary: fc.tuple(valid, contentTypes).map(([v, type]) => json(JSON.stringify(v), type)), weight: 4 },
  );
}

function planFor(operation: Operation): fc.Arbitrary<Plan> {
  const pathParams = operation.parameters.filter((p) => p.in === "path");
  const queryParams = operation.parameters.filter((p) => p.in === "query");
  const takesKey = operation.parameters.some((p) => p.in === "header" && p.name === "idempotency-key");
  const params: Record<string, fc.Arbitrary<Value>> = {};
  for (const p of pathParams) params[p.name] = pathValue(p);
  // One request in eight carries a query parameter its endpoint does not declare.
  const unknownParam = fc.oneof(
    { arbitrary: fc.constant(null), weight: 7 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom("verbose", "limit", "wait_ms", "agentId", "format", "x"), oddValue)
        .map(([k, v]): [string, string] => [k, v]),
      weight: 1,
    },
  );
  return fc.record({
    method: fc.oneof({ arbitrary: fc.constant(operation.method), weight: 8 }, { arbitrary: fc.constantFrom(...METHODS), weight: 1 }),
    operation: fc.constant(operation),
    params: fc.record(params),
    query: fc
      .tuple(fc.tuple(...queryParams.map(queryValue)), unknownParam)
      .map(([declared, extra]) => [...declared, extra].filter((q): q is [string, string] => q !== null)),
    headers: fc.tuple(authorization, takesKey ? idempotencyKey : fc.constant(null)).map(([auth, key]) => {
      const headers: Record<string, string> = {};
      if (auth !== null) headers.Authorization = auth;
      if (key !== null) headers["Idempotency-Key"] = key;
      return headers;
    }),
    body: bodyFor(operation),
  });
}

// ---------------------------------------------------------------------------------------------
// Running a plan and checking its answer.

interface Resolved {
  url: string;
  /** The agent whose footprint a 4xx must leave unchanged, when the path names a valid one. */
  agentId: string | undefined;
  seededSlot: number | undefined;
  freshSlot: number | undefined;
}

/**
 * Agents that no earlier request had written to, refused with a 4xx: checked in one D1 query at the
 * end of each property (a D1 round trip per request would dominate the run). For such an agent,
 * no registry row is the whole footprint: the agent's object registers it in D1 before it answers
 * any write it accepted (MemoryAgent.submit), and a read leaves nothing behind.
 */
const refusedUnwritten = new Map<string, string>();
/** Agents some request may have written to (a non-4xx answer to anything but GET, HEAD, OPTIONS). */
const written = new Set<string>();

async function expectRefusedUnwritten(): Promise<void> {
  const candidates = [...refusedUnwritten.keys()].filter((id) => !written.has(id));
  refusedUnwritten.clear();
  if (candidates.length === 0) return;
  const rows = await env.DB.prepare("SELECT agent_id FROM agents WHERE tenant_id = 'dev' AND agent_id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(candidates))
    .all<{ agent_id: string }>();
  const offenders = rows.results.map((r) => `${r.agent_id}: ${refusedUnwritten.get(r.agent_id) ?? ""}`);
  expect(offenders, "refused requests that registered (wrote to) their agent").toEqual([]);
}

async function resolve(plan: Plan): Promise<Resolved> {
  let agentId: string | undefined;
  let seededSlot: number | undefined;
  let freshSlotUsed: number | undefined;
  let path = plan.operation.template;
  for (const [name, value] of Object.entries(plan.params)) {
    let segment: string;
    if ("agent" in value) {
      const choice = value.agent;
      if (choice.kind === "fresh") {
        segment = agentId = freshSlot(choice.slot);
        freshSlotUsed = choice.slot;
      } else if (choice.kind === "seeded") {
        segment = agentId = (await seededAgent(choice.slot)).agentId;
        seededSlot = choice.slot;
      } else {
        segment = choice.segment;
        if (AGENT_ID_PATTERN.test(choice.segment)) agentId = choice.segment;
      }
    } else if ("seededTask" in value) {
      segment = seededSlot === undefined ? "tsk_00000000notseeded" : (seededPool[seededSlot]?.taskId ?? "tsk_00000000gone");
    } else segment = value.encoded;
    path = path.replace(`{${name}}`, segment);
  }
  const query = plan.query.map(([k, v]) => `${encodeSegment(k)}=${v}`).join("&");
  return { url: `${BASE}${path}${query ? `?${query}` : ""}`, agentId, seededSlot, freshSlot: freshSlotUsed };
}

function describePlan(plan: Plan, url: string): string {
  const body = plan.body ? ` ${plan.body.contentType ?? "(no type)"} ${plan.body.text.slice(0, 300)}` : "";
  return `${plan.method} ${url} ${JSON.stringify(plan.headers)}${body}`;
}

async function send(plan: Plan, url: string): Promise<Response> {
  requestsMade += 1;
  const headers: Record<string, string> = { ...plan.headers };
  if (plan.body?.contentType !== undefined) headers["Content-Type"] = plan.body.contentType;
  const path = url.slice(BASE.length);
  // A GET or HEAD with a body cannot be built by the runtime's Request: see IncomingWithBody.
  if (plan.body && (plan.method === "GET" || plan.method === "HEAD")) {
    return fetchWorker(new IncomingWithBody(path, plan.method, plan.body.text, headers));
  }
  let body: BodyInit | undefined = plan.body?.text;
  if (plan.body?.stream) {
    // No Content-Length: the size is found by reading, as for a chunked upload.
    const bytes = new TextEncoder().encode(plan.body.text);
    body = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
  }
  return SELF.fetch(url, { method: plan.method, headers, ...(body === undefined ? {} : { body }) });
}

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}

const statuses = new Map<number, number>();

async function checkAnswer(plan: Plan, url: string, res: Response): Promise<void> {
  const what = describePlan(plan, url);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 200 && res.status < 300) {
    await res.arrayBuffer();
    const operation = api.operations.find(
      (o) => o.template === plan.operation.template && o.method === (plan.method === "HEAD" ? "GET" : plan.method),
    );
    if (plan.method === "OPTIONS") expect(res.status, what).toBe(204);
    else expect(operation?.statuses.has(res.status), `${what} answered ${res.status}, undeclared`).toBe(true);
    return;
  }
  expect(res.status, what).toBeGreaterThanOrEqual(400);
  // A method the operation's path does not take is refused as such (or the path itself, when an odd
  // segment makes it another path), whatever else is wrong with the request.
  const methodTaken = api.operations.some(
    (o) => o.template === plan.operation.template && o.method === (plan.method === "HEAD" ? "GET" : plan.method),
  );
  if (plan.operation.statuses.size > 0 && !methodTaken) expect([404, 405], what).toContain(res.status);
  if (plan.method !== "HEAD") {
    const envelope = await expectEnvelope(res, res.status, undefined, plan.method);
    const code = envelope?.error.code ?? "";
    expect(isErrorCode(code) && ERROR_STATUS[code] === res.status, `${what}: ${code} with ${res.status}`).toBe(true);
  } else await res.arrayBuffer();
  if (res.status === 405) expect(res.headers.get("Allow") ?? "(none)", what).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  if (res.status === 401) expect(res.headers.get("WWW-Authenticate") ?? "(none)", what).toMatch(/^Bearer realm="/);
  if (res.status === 429) expect(Number(res.headers.get("Retry-After")), what).toBeGreaterThan(0);
}

async function runPlan(plan: Plan): Promise<void> {
  const resolved = await resolve(plan);
  const { agentId, seededSlot, freshSlot: usedFreshSlot } = resolved;
  // A seeded agent is idle before it is reused; wait for it anyway, so that `before` is stable.
  const before: Footprint | undefined = seededSlot !== undefined && agentId ? await agentFootprint(agentId, 30_000) : undefined;
  const res = await send(plan, resolved.url);
  await checkAnswer(plan, resolved.url, res);
  const mutating = !["GET", "HEAD", "OPTIONS"].includes(plan.method);
  if (agentId === undefined) return;
  if (res.status >= 400 && before) {
    expect(await agentFootprint(agentId), `a refused ${describePlan(plan, resolved.url)} wrote something`).toEqual(before);
  } else if (res.status >= 400) {
    if (!refusedUnwritten.has(agentId)) refusedUnwritten.set(agentId, describePlan(plan, resolved.url));
  } else if (mutating) {
    written.add(agentId);
    // An agent that a request may have changed is not reused: its successor starts clean.
    if (seededSlot !== undefined) seededPool[seededSlot] = undefined;
    if (usedFreshSlot !== undefined) freshPool[usedFreshSlot] = undefined;
  }
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  const res = await call("/v1/openapi.json", { key: null });
  expect(res.status).toBe(200);
  api = describeApi(await res.json());
});

afterAll(() => {
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const byStatus = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`);
  console.log(`property tests: ${requestsMade} requests in ${seconds} s; answers ${byStatus.join(" ")}`);
});

describe("random paths and methods", () => {
  const segment = fc.oneof(
    fc.constantFrom("v1", "agents", "health", "openapi.json", "remember", "recall", "search", "tasks", "nodes", "stats", "config"),
    fc.constantFrom("compress", "focus", "ping", "FRESH", "tsk_aaaaaaaaaaaa", "1", ""),
    oddValue,
  );
  const randomRequest = fc.record({
    method: fc.constantFrom(...METHODS),
    segments: fc.array(segment, { minLength: 0, maxLength: 6 }),
    lead: fc.constantFrom(["v1"], ["v1", "agents", "FRESH"], []),
    auth: authorization,
    body: fc.option(
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      { nil: undefined, freq: 3 },
    ),
  });

  it("any method on any path: a 404, 405 or other 4xx in the envelope, never a 5xx, nothing written", async () => {
    await fc.assert(
      fc.asyncProperty(randomRequest, async (r) => {
        const agentId = freshAgent("random");
        const path = `/${[...r.lead, ...r.segments].map((s) => (s === "FRESH" ? agentId : s)).join("/")}`;
        const operation: Operation = { method: r.method, template: path, parameters: [], body: undefined, statuses: new Set() };
        const plan: Plan = {
          method: r.method,
          operation,
          params: {},
          query: [],
          headers: r.auth === null ? {} : { Authorization: r.auth },
          body: r.body === undefined ? undefined : { text: r.body, contentType: "application/json", stream: false },
        };
        const url = `${BASE}${path}`;
        const res = await send(plan, url);
        const what = describePlan(plan, url);
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) {
          await checkAnswer(plan, url, res);
          refusedUnwritten.set(agentId, what);
        } else await res.arrayBuffer();
      }),
      { seed: 77, numRuns: 150 },
    );
    await expectRefusedUnwritten();
  }, 180_000);
});

describe("every endpoint of the OpenAPI document", () => {
  it("lists the API's operations (so the properties below cover them all)", () => {
    const listed = api.operations.map((o) => `${o.method} ${o.template}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        "POST /v1/agents/{agentId}/remember",
        "POST /v1/agents/{agentId}/recall",
        "POST /v1/agents/{agentId}/search",
        "PUT /v1/agents/{agentId}/config",
        "DELETE /v1/agents/{agentId}",
        "GET /v1/agents/{agentId}/tasks/{taskId}",
        "GET /v1/agents/{agentId}/nodes/{nodeId}",
        "GET /v1/health",
      ]),
    );
    expect(listed.length).toBeGreaterThanOrEqual(13);
  });

  it("valid and mutated requests: never a 5xx, errors in the envelope, a 4xx writes nothing", async () => {
    const plans = fc.constantFrom(...api.operations).chain(planFor);
    await fc.assert(fc.asyncProperty(plans, runPlan), { seed: 20261123, numRuns: 170 });
    await expectRefusedUnwritten();
  }, 180_000);

  it("each operation with its own method and valid or mutated bodies", async () => {
    // The same property, with the operation's own method and the dev key: every body case reaches validation.
    for (const [i, operation] of api.operations.entries()) {
      const plans = planFor(operation).map((p) => ({
        ...p,
        method: operation.method,
        headers: { ...p.headers, Authorization: `Bearer ${DEV_KEY}` },
      }));
      await fc.assert(fc.asyncProperty(plans, runPlan), { seed: 4000 + i, numRuns: 7 });
    }
    await expectRefusedUnwritten();
  }, 180_000);
});

// ---------------------------------------------------------------------------------------------
// The surfaces of issue 28: import, the memory operations, tools/call and MCP. Same rule: a success
// or a 4xx with the envelope, never a 5xx; a refusal (a 4xx, an MCP tool error, a JSON-RPC error)
// writes nothing and, for an import, stages nothing.

type Surface = "import" | "memory operations" | "tools/call" | "mcp";
const surfaceRequests: Record<Surface, number> = { import: 0, "memory operations": 0, "tools/call": 0, mcp: 0 };

afterAll(() => {
  const counts = Object.entries(surfaceRequests).map(([surface, n]) => `${surface} ${n}`);
  console.log(`property tests of issue 28's surfaces: ${counts.join(", ")} requests`);
});

async function stagedRows(agentId: string): Promise<number> {
  return runInDurableObject(
    stubOf(agentId),
    (instance) => internals(instance).state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM import_staging").one().n,
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
