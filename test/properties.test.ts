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
 * The surfaces of issue 28 have their own properties, with the same rule, in
 * test/properties-surfaces.test.ts (import with random and mutated JSON Lines, sequences of memory
 * operations, tools/call, MCP): a second file, so the two run side by side.
 *
 * Seeds are fixed, so a failure reproduces (fast-check prints the seed and the shrunk request).
 * Requests go to fresh agents (nothing written; one is reused until a request may have written to
 * it) and to a few "seeded" agents that hold memories, a finished task and a used Idempotency-Key;
 * an agent that a request may have changed is replaced by a new one. No agent's storage grows
 * (the pool slows down when one does), and few objects are created (it slows down with their
 * number too). The run prints how many requests it made, how long it took and the statuses seen.
 */
import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_ID_PATTERN } from "../src/config/limits";
import { ERROR_STATUS } from "../src/http/errors";
import { agentFootprint, expectEnvelope, fetchWorker, type Footprint, IncomingWithBody, isErrorCode } from "./edge-helpers";
import { call, DEV_KEY, freshAgent, json } from "./helpers";
import { type ApiDescription, describeApi, mutate, mutation, type Operation, type Parameter, valueFor } from "./openapi-arbitraries";

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
