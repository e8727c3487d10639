/**
 * The HTTP edge (reliability issue 10, findings 11–16): no request produces a 5xx but an outage,
 * every refusal is the error envelope and writes nothing, unknown fields and malformed text and
 * ids are refused, wrong methods get 405 with Allow, 401 says how to authenticate, preflights are
 * answered. Each finding's test failed on the code before its fix.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { storeKey } from "../src/storage/api-keys";
import { createDb } from "../src/storage/db";
import { agentFootprint, envWithFailingD1, expectEnvelope, expectUntouched, fetchWorker, IncomingWithBody, request } from "./edge-helpers";
import { call, freshAgent, json, rememberAndWait, type Msg } from "./helpers";

const hello: Msg[] = [{ role: "user", content: "Alice moved to Berlin last spring." }];

/** The message of a refusal, which must name the field at fault. */
async function refusalNaming(res: Response, field: string): Promise<void> {
  const body = await expectEnvelope(res, 400, "validation_failed");
  expect(body?.error.message).toContain(field);
}

describe("#11 a GET or HEAD with a body", () => {
  it("never answers 5xx, authenticated or not, and writes nothing", async () => {
    const agent = freshAgent("get-body");
    for (const method of ["GET", "HEAD"]) {
      // Unauthenticated: the public endpoints, and an agent endpoint (refused before its body is read).
      await expectEnvelope(await fetchWorker(new IncomingWithBody("/v1/health", method, "hello")), 400, "validation_failed", method);
      await expectEnvelope(await fetchWorker(new IncomingWithBody("/v1/openapi.json", method, "{}")), 400, "validation_failed", method);
      await expectEnvelope(await fetchWorker(new IncomingWithBody(`/v1/agents/${agent}/stats`, method, "x")), 401, "unauthorized", method);
      // Authenticated: a body on a request that takes none is refused, not ignored.
      const auth = { Authorization: "Bearer dev-key-local-only", "Content-Type": "application/json" };
      await expectEnvelope(
        await fetchWorker(new IncomingWithBody(`/v1/agents/${agent}/stats`, method, '{"a":1}', auth)),
        400,
        "validation_failed",
        method,
      );
    }
    // A DELETE carries its meaning in its path: a body there is refused too, and deletes nothing.
    await rememberAndWait(agent, hello);
    const before = await agentFootprint(agent);
    await expectEnvelope(
      await fetchWorker(
        request(`/v1/agents/${agent}`, { method: "DELETE", body: '{"really":true}', headers: { "Content-Type": "application/json" } }),
      ),
      400,
      "validation_failed",
    );
    expect(await agentFootprint(agent)).toEqual(before);
  });
});

describe("#12 a D1 failure while authenticating", () => {
  it("answers 503 unavailable with Retry-After, not 500", async () => {
    await storeKey(createDb(env.DB), "key-d1-outage", "tenant-outage", "test", Date.now());
    const failing = envWithFailingD1();
    const res = await fetchWorker(request(`/v1/agents/${freshAgent()}/stats`, { key: "key-d1-outage" }), failing);
    await expectEnvelope(res, 503, "unavailable");
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The same key works when D1 does.
    expect((await fetchWorker(request(`/v1/agents/${freshAgent()}/stats`, { key: "key-d1-outage" }))).status).toBe(200);
  });

  it("answers the health check's failed database round trip with 503 too", async () => {
    const res = await fetchWorker(request("/v1/health", { key: null }), envWithFailingD1());
    await expectEnvelope(res, 503, "unavailable");
    expect(res.headers.get("Retry-After")).not.toBeNull();
  });
});

describe("#13 unknown fields", () => {
  it("are refused in every body, nested objects included, naming the field", async () => {
    const agent = freshAgent("unknown-body");
    const base = `/v1/agents/${agent}`;
    await refusalNaming(await call(`${base}/remember`, { body: { messages: hello, mood: "happy" } }), "mood");
    await refusalNaming(await call(`${base}/remember`, { body: { messages: [{ ...hello[0], mood: "happy" }] } }), "mood");
    await refusalNaming(await call(`${base}/recall`, { body: { keywords: ["Berlin"], verbose: true } }), "verbose");
    await refusalNaming(await call(`${base}/search`, { body: { query: "Berlin", fuzzy: true } }), "fuzzy");
    await refusalNaming(await call(`${base}/search`, { body: { query: "Berlin", time_range: { from: 0, until: 5 } } }), "until");
    await refusalNaming(await call(`${base}/compress`, { body: { cycles: 2, force: true } }), "force");
    await refusalNaming(await call(`${base}/config`, { method: "PUT", body: { decay_rate: 0.5, speed: 2 } }), "speed");
    await expectUntouched(agent);
  });

  it("are refused in the query string of every endpoint, and a refused DELETE deletes nothing", async () => {
    const agent = freshAgent("unknown-query");
    await rememberAndWait(agent, hello);
    const before = await agentFootprint(agent);
    const base = `/v1/agents/${agent}`;
    const cases: [method: string, path: string, body: unknown, field: string][] = [
      ["POST", `${base}/remember?priority=high`, { messages: hello }, "priority"],
      ["POST", `${base}/recall?verbose=1`, { keywords: ["Berlin"] }, "verbose"],
      ["POST", `${base}/search?fuzzy=1`, { query: "Berlin" }, "fuzzy"],
      ["POST", `${base}/compress?force=1`, { cycles: 1 }, "force"],
      ["GET", `${base}/config?all=1`, undefined, "all"],
      ["PUT", `${base}/config?dry_run=1`, { decay_rate: 0.5 }, "dry_run"],
      ["GET", `${base}/focus?limit=3`, undefined, "limit"],
      ["GET", `${base}/nodes/1?depth=2`, undefined, "depth"],
      ["GET", `${base}/stats?wait_ms=0&verbose=1`, undefined, "verbose"],
      ["GET", `${base}/tasks/tsk_doesnotexist00?timeout=5`, undefined, "timeout"],
      ["GET", `${base}/ping?xyzzy=1`, undefined, "xyzzy"],
      ["DELETE", `${base}?confirm=yes`, undefined, "confirm"],
      // The health check takes `deep` (and tolerates a monitor's cache-busting parameter), but not any value of it.
      ["GET", `/v1/health?deep=2`, undefined, "deep"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await call(path, { method, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(400);
      await refusalNaming(res, field);
    }
    expect(await agentFootprint(agent)).toEqual(before);
  });
});

describe("#14 malformed Unicode", () => {
  const lone = "\ud800";
  it("a lone surrogate in any text field is a 400 that names the field", async () => {
    const agent = freshAgent("surrogate");
    const base = `/v1/agents/${agent}`;
    const message = { role: "user", content: "Alice moved to Berlin.", name: "Bob", id: "m1" };
    await refusalNaming(
      await call(`${base}/remember`, { body: { messages: [{ ...message, content: `Berlin ${lone}` }] } }),
      "messages.0.content",
    );
    await refusalNaming(await call(`${base}/remember`, { body: { messages: [{ ...message, name: `B${lone}` }] } }), "messages.0.name");
    await refusalNaming(await call(`${base}/remember`, { body: { messages: [{ ...message, id: `m${lone}` }] } }), "messages.0.id");
    await refusalNaming(await call(`${base}/recall`, { body: { keywords: [`Ber${lone}`] } }), "keywords.0");
    await refusalNaming(await call(`${base}/recall`, { body: { query: `where ${lone}` } }), "query");
    await refusalNaming(await call(`${base}/recall`, { body: { relations: [`关于${lone}`] } }), "relations.0");
    await refusalNaming(await call(`${base}/search`, { body: { query: `\udc00 Berlin` } }), "query");
    await expectUntouched(agent);
  });

  it("a lone surrogate or undecodable bytes in a path parameter are a 400", async () => {
    const agent = freshAgent("surrogate-path");
    await refusalNaming(await call(`/v1/agents/a%ED%A0%80b/stats`), "agentId");
    await refusalNaming(await call(`/v1/agents/a%FFb/stats`), "agentId");
    await refusalNaming(await call(`/v1/agents/${agent}/tasks/tsk_%ED%A0%80aaaaaaaa`), "taskId");
    await refusalNaming(await call(`/v1/agents/${agent}/nodes/1%ED%A0%80`), "nodeId");
  });

  it("a body that is not UTF-8 is refused, not stored as replacement characters", async () => {
    const agent = freshAgent("not-utf8");
    const prefix = new TextEncoder().encode('{"messages":[{"role":"user","content":"Berlin ');
    const suffix = new TextEncoder().encode('"}]}');
    const bytes = new Uint8Array([...prefix, 0xff, 0xfe, ...suffix]);
    const res = await fetchWorker(
      new Request(`http://localhost/v1/agents/${agent}/remember`, {
        method: "POST",
        headers: { Authorization: "Bearer dev-key-local-only", "Content-Type": "application/json" },
        body: bytes,
      }),
    );
    await expectEnvelope(res, 400, "invalid_json");
    await expectUntouched(agent);
  });

  it("a speaker name is one line: a name cannot forge another speaker's line in a merged segment", async () => {
    const agent = freshAgent("name-forgery");
    for (const name of ["Alice\nBob", "Alice\r\nBob", "Alice\u2028Bob", "Alice\u0000", "Ali\tce"]) {
      const res = await call(`/v1/agents/${agent}/remember`, {
        body: {
          messages: [
            { role: "user", name, content: "hi", id: "x1" },
            { role: "user", name: "Carol", content: "ok", id: "x2" },
          ],
        },
      });
      await refusalNaming(res, "messages.0.name");
    }
    await expectUntouched(agent);
  });

  it("two different messages with one id in a submission are refused (one of them would be dropped)", async () => {
    const agent = freshAgent("duplicate-ids");
    const res = await call(`/v1/agents/${agent}/remember`, {
      body: {
        messages: [
          { role: "user", name: "Alice", content: "Alice booked the flights to Tokyo.", id: "m1" },
          { role: "user", name: "Bob", content: "Bob cancelled the hotel in Osaka.", id: "m1" },
        ],
      },
    });
    await refusalNaming(res, "messages.1.id");
    await expectUntouched(agent);
    // The same message twice is no conflict: stored once (test/reliability.test.ts, client retries).
    const same = { role: "user", name: "Alice", content: "Alice booked the flights to Tokyo.", id: "m1" };
    expect((await call(`/v1/agents/${agent}/remember`, { body: { messages: [same, same] } })).status).toBe(202);
  });

  it("every segment's speaker, role and text match the messages its source_message_ids name", async () => {
    const agent = freshAgent("provenance");
    type Sent = { role: "user" | "assistant"; content: string; name?: string; id?: string };
    const alice: Sent = {
      role: "user",
      name: "Alice",
      content: "The Phoenix launch moved to Friday because the payment tests failed twice.",
      id: "a1",
    };
    const first: Sent[] = [
      alice,
      { role: "assistant", name: "Helper", content: "Noted.", id: "a2" },
      { role: "user", name: "Carol", content: "Thanks!" },
      { role: "user", name: "Carol", content: "Carol booked the Tokyo flights for the design review in March." },
    ];
    const second: Sent[] = [
      alice,
      { role: "user", name: "Dave", content: "Dave reviews the quarterly budget with the finance team on Monday.", id: "b1" },
      { role: "assistant", content: "Erin fixed the login bug that locked out the support staff yesterday." },
    ];
    const tasks = [await rememberAndWait(agent, first), await rememberAndWait(agent, second)];
    const byId = new Map<string, Sent>();
    // A message without an id is known by `<task id>#<position in its submission>` (docs/design.md §4).
    [first, second].forEach((sent, t) => sent.forEach((m, i) => byId.set(m.id ?? `${tasks[t]?.task_id}#${i}`, m)));
    let segments = 0;
    for (let id = 1; id <= 40; id++) {
      const res = await call(`/v1/agents/${agent}/nodes/${id}`);
      if (res.status === 404) continue;
      const node = await json<{ kind: string; content: string; speaker: string | null; role: string | null; source_message_ids: string[] }>(
        res,
      );
      if (node.kind !== "segment") continue;
      segments += 1;
      const sources = node.source_message_ids.map((sid) => byId.get(sid));
      expect(
        sources.every((s) => s !== undefined),
        `unknown source ids ${node.source_message_ids.join(",")}`,
      ).toBe(true);
      const names = new Set(sources.map((s) => s?.name ?? null));
      const roles = new Set(sources.map((s) => s?.role));
      expect(node.speaker).toBe(names.size === 1 ? [...names][0] : null);
      expect(node.role).toBe(roles.size === 1 ? [...roles][0] : null);
      // The segment's words come from its sources (merged short messages are prefixed with the speaker).
      const said = sources.map((s) => `${s?.name ?? s?.role}: ${s?.content}`).join(" ");
      for (const word of node.content.split(/[\s:]+/).filter(Boolean)) expect(said).toContain(word);
    }
    // Alice's message, held since the first remember, is not stored twice.
    expect(segments).toBe(5);
  });
});

describe("#15 numeric path and query parameters", () => {
  it("0x1, 1e0, +1, %201, 01, 1.0 and the like never resolve to node 1", async () => {
    const agent = freshAgent("node-ids");
    await rememberAndWait(agent, hello);
    expect((await call(`/v1/agents/${agent}/nodes/1`)).status).toBe(200);
    for (const id of ["0x1", "1e0", "+1", "%201", "1%20", "%2B1", "01", "1.0", "1.", "%31%00", "１", "1_0", "0b1", "-1", "Infinity"]) {
      await refusalNaming(await call(`/v1/agents/${agent}/nodes/${id}`), "nodeId");
    }
  });

  it("wait_ms takes plain decimal milliseconds only", async () => {
    const agent = freshAgent("wait-ms");
    for (const wait of ["0x10", "1e3", "+5", "%2010", "010", "5.0", "-1", "30001", ""]) {
      await refusalNaming(await call(`/v1/agents/${agent}/stats?wait_ms=${wait}`), "wait_ms");
    }
    expect((await call(`/v1/agents/${agent}/stats?wait_ms=0`)).status).toBe(200);
    expect((await call(`/v1/agents/${agent}/stats?wait_ms=10`)).status).toBe(200);
  });
});

describe("#16 methods, authentication and preflights", () => {
  it("a wrong method answers 405 with the path's methods in Allow, before authentication", async () => {
    const agent = freshAgent("methods");
    const cases: [string, string, string][] = [
      ["GET", `/v1/agents/${agent}/remember`, "POST, OPTIONS"],
      ["PUT", `/v1/agents/${agent}/recall`, "POST, OPTIONS"],
      ["POST", `/v1/agents/${agent}/config`, "GET, HEAD, PUT, OPTIONS"],
      ["PATCH", `/v1/agents/${agent}/config`, "GET, HEAD, PUT, OPTIONS"],
      ["GET", `/v1/agents/${agent}`, "DELETE, OPTIONS"],
      ["DELETE", `/v1/agents/${agent}/stats`, "GET, HEAD, OPTIONS"],
      ["POST", `/v1/health`, "GET, HEAD, OPTIONS"],
      ["DELETE", `/v1/openapi.json`, "GET, HEAD, OPTIONS"],
    ];
    for (const [method, path, allow] of cases) {
      for (const key of [undefined, null]) {
        const res = await call(path, { method, key, ...(method === "GET" || method === "DELETE" ? {} : { body: {} }) });
        await expectEnvelope(res, 405, "method_not_allowed");
        expect(res.headers.get("Allow"), `${method} ${path}`).toBe(allow);
      }
    }
    await expectUntouched(agent);
  });

  it("unknown paths answer 404 with the envelope, authenticated or not", async () => {
    for (const path of ["/", "/v1", "/v1/nothing", "/v1/agents/", "/v1/agents/x/unknown", "/v1/agents/x/nodes", "/v1/health/"]) {
      for (const key of [undefined, null]) await expectEnvelope(await call(path, { key }), 404, "not_found");
    }
  });

  it("401 says how to authenticate (WWW-Authenticate: Bearer realm=…)", async () => {
    const agent = freshAgent();
    const missing = await call(`/v1/agents/${agent}/stats`, { key: null });
    await expectEnvelope(missing, 401, "unauthorized");
    expect(missing.headers.get("WWW-Authenticate")).toBe('Bearer realm="agent-memory"');
    const unknown = await call(`/v1/agents/${agent}/stats`, { key: "not-a-key" });
    await expectEnvelope(unknown, 401, "unauthorized");
    expect(unknown.headers.get("WWW-Authenticate")).toBe('Bearer realm="agent-memory", error="invalid_token"');
  });

  it("an OPTIONS preflight is answered without authentication: 204 with Allow, and no cross-origin grant", async () => {
    const preflight = () =>
      request(`/v1/agents/${freshAgent()}/remember`, {
        method: "OPTIONS",
        key: null,
        headers: {
          Origin: "https://elsewhere.example",
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "authorization",
        },
      });
    // A deployment (no development key) answers it; the local server refuses a page of another origin outright.
    const res = await fetchWorker(preflight(), { ...env, DEV_API_KEY: "" });
    expect(res.status).toBe(204);
    expect(res.headers.get("Allow")).toBe("POST, OPTIONS");
    // Same-origin only (README, "CORS"): a foreign page's preflight gets no grant, so its browser refuses.
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const local = await fetchWorker(preflight());
    await expectEnvelope(local, 403, "forbidden");
    expect(local.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const own = await call(`/v1/agents/${freshAgent()}/remember`, {
      method: "OPTIONS",
      key: null,
      headers: { Origin: "http://localhost" },
    });
    expect(own.status).toBe(204);
    await expectEnvelope(await call(`/v1/nothing`, { method: "OPTIONS", key: null }), 404, "not_found");
  });
});

describe("the error envelope", () => {
  it("is the answer of hono's own refusals: 413, 415 and malformed JSON", async () => {
    const agent = freshAgent("envelope");
    const base = `/v1/agents/${agent}`;
    await expectEnvelope(await call(`${base}/remember`, { rawBody: "x".repeat(1024 * 1024 + 1) }), 413, "payload_too_large");
    await expectEnvelope(
      await call(`${base}/remember`, { rawBody: "{}", headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    await expectEnvelope(
      await call(`${base}/compress`, { rawBody: "cycles=2", headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      415,
    );
    await expectEnvelope(await call(`${base}/recall`, { rawBody: "{" }), 400, "invalid_json");
    await expectEnvelope(await call(`${base}/recall`, { rawBody: "" }), 400, "invalid_json");
    await expectUntouched(agent);
  });
});

describe("issue 28 finding 7: DNS rebinding on the local server", () => {
  const KEY = { Authorization: "Bearer dev-key-local-only" };

  it("with the development key configured, a foreign Host or Origin is refused (403) before anything is read or written, on REST and MCP", async () => {
    const agent = freshAgent("rebinding");
    const refused = [
      new Request(`http://evil.example:8796/v1/agents/${agent}/stats`, { headers: KEY }),
      new Request(`http://evil.example:8796/v1/openapi.json`),
      new Request(`http://evil.example:8796/v1/health`),
      new Request(`http://localhost/v1/agents/${agent}/stats`, { headers: { ...KEY, Origin: "http://evil.example:8796" } }),
      new Request(`http://localhost/v1/agents/${agent}/stats`, { headers: { ...KEY, Origin: "null" } }),
      new Request(`http://localhost/v1/agents/${agent}/stats`, { headers: { ...KEY, Origin: "http://localhost:9999" } }),
      new Request(`http://127.0.0.1.evil.example/v1/agents/${agent}/stats`, { headers: KEY }),
      new Request(`http://localhost/v1/agents/${agent}/mcp`, {
        method: "POST",
        headers: { ...KEY, Origin: "http://evil.example:8796", "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "delete_agent", arguments: {} } }),
      }),
      new Request(`http://evil.example:8796/v1/agents/${agent}/memories`, {
        method: "POST",
        headers: { ...KEY, "Content-Type": "application/json" },
        body: JSON.stringify({ content: "Planted by a page of another site." }),
      }),
    ];
    for (const req of refused) {
      const res = await fetchWorker(req);
      const body = await expectEnvelope(res, 403, "forbidden");
      expect(body?.error.message).toMatch(/local development server/);
    }
    await expectUntouched(agent);
    // This machine, by any loopback name, and a page of the server's own origin, are served.
    for (const url of ["http://localhost", "http://127.0.0.1:8787", "http://127.1.2.3", "http://[::1]:8787"]) {
      expect((await fetchWorker(new Request(`${url}/v1/agents/${agent}/stats`, { headers: KEY }))).status, url).toBe(200);
    }
    const sameOrigin = new Request(`http://127.0.0.1:8787/v1/agents/${agent}/stats`, {
      headers: { ...KEY, Origin: "http://127.0.0.1:8787" },
    });
    expect((await fetchWorker(sameOrigin)).status).toBe(200);
  });

  it("servers in /v1/openapi.json: the local server's own origin, and in a deployment a relative URL whatever the Host", async () => {
    const local = await json<{ servers: { url: string }[] }>(await fetchWorker(new Request("http://127.0.0.1:8790/v1/openapi.json")));
    expect(local.servers).toEqual([{ url: "http://127.0.0.1:8790" }]);
    const deployed = { ...env, DEV_API_KEY: "" };
    for (const host of ["https://evil.example", "https://memory.example.com"]) {
      const doc = await json<{ servers: { url: string }[] }>(await fetchWorker(new Request(`${host}/v1/openapi.json`), deployed));
      expect(doc.servers).toEqual([{ url: "/" }]);
    }
  });
});

describe("issue 28 finding 18: API responses are never sniffed", () => {
  it("every answer carries X-Content-Type-Options: nosniff (JSON, text, a stream, errors, preflights)", async () => {
    const agent = freshAgent("nosniff");
    await rememberAndWait(agent, hello);
    const answers = [
      await call(`/v1/agents/${agent}/stats`),
      await call(`/v1/agents/${agent}/recall`, { body: { keywords: ["Alice"] } }),
      await call(`/v1/agents/${agent}/export`),
      await call(`/v1/agents/${agent}/nodes/999`),
      await call(`/v1/agents/${agent}/stats`, { key: null }),
      await call(`/v1/nowhere`),
      await call(`/v1/agents/${agent}/stats`, { method: "OPTIONS" }),
      await call("/v1/health"),
      await fetchWorker(new Request(`http://evil.example/v1/health`)),
    ];
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options"), `${res.status} ${res.url}`).toBe("nosniff");
      await res.arrayBuffer();
    }
  });
});

describe("issue 34 finding 13: NUL content is taken as text", () => {
  it("content of NULs, or of only spaces, control and format characters, or holding a NUL, is refused (400 naming content) by remember, create and update; text with a tab or a line break is taken", async () => {
    const agent = freshAgent("nul");
    const created = await json<{ node_id: number }>(
      await call(`/v1/agents/${agent}/memories`, { body: { content: "Nell plays the oboe." } }),
    );
    const before = await agentFootprint(agent, 30_000);
    for (const content of ["\u0000\u0000\u0000", "Nell\u0000 sings.", " \u0007\u200b\u00ad "]) {
      for (const [path, method, body] of [
        [`/v1/agents/${agent}/remember`, "POST", { messages: [{ role: "user", content }] }],
        [`/v1/agents/${agent}/memories`, "POST", { content }],
        [`/v1/agents/${agent}/memories/${created.node_id}`, "PATCH", { content }],
      ] as const) {
        const envelope = await expectEnvelope(await call(path, { method, body }), 400, "validation_failed");
        expect(envelope?.error.message, `${method} ${path} ${JSON.stringify(content)}`).toMatch(/content/);
      }
    }
    expect(await agentFootprint(agent, 30_000)).toEqual(before);
    expect((await call(`/v1/agents/${agent}/memories`, { body: { content: "Nell\tplays\nthe flute." } })).status).toBe(201);
  });
});

describe("issue 34 finding 11: a POST that takes no body takes any", () => {
  it("POST episodes/rebuild with a text/plain body or a JSON body naming another agent is refused (400) and queues nothing; no body or {} runs it; GET /v1/health ignores a cache-busting parameter, as the README says, but checks deep", async () => {
    const agent = freshAgent("rebuild-body");
    await rememberAndWait(agent, [{ role: "user", content: "Petra fixed the bicycle." }]);
    const before = await agentFootprint(agent, 30_000);
    const path = `/v1/agents/${agent}/episodes/rebuild`;
    for (const options of [
      { rawBody: "rebuild please", headers: { "Content-Type": "text/plain" } },
      { body: { agentId: "other" } },
      { rawBody: "[]" },
    ]) {
      await expectEnvelope(await call(path, { method: "POST", ...options }), 400, "validation_failed");
    }
    expect(await agentFootprint(agent, 30_000)).toEqual(before);
    expect((await call(path, { method: "POST" })).status).toBe(200);
    expect((await call(path, { method: "POST", rawBody: "{ }" })).status).toBe(200);
    expect((await call("/v1/health?foo=bar", { key: null })).status).toBe(200);
    await expectEnvelope(await call("/v1/health?deep=yes", { key: null }), 400, "validation_failed");
  });
});
