/**
 * MCP as a connector (src/oauth/connector.ts), through the Worker's own fetch: the metadata a
 * client discovers, dynamic registration, the consent page that asks for an API key, the code
 * exchanged with PKCE for a token of that key's tenant, MCP with the token, revocation, and
 * isolation (a token reaches its tenant's agents only; tokens reach nothing but MCP). The official
 * MCP client's flow against the local server: test-e2e/mcp-oauth.test.ts.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../src/storage/db";
import { storeKey } from "../src/storage/api-keys";
import { untilRateLimited } from "./edge-helpers";
import { call, freshAgent, json, rememberAndWait, revokeByKey } from "./helpers";
import { connect, mcp, ORIGIN, REDIRECT } from "./oauth-client";

const OTHER_KEY = "key-oauth-other";

beforeAll(async () => {
  await storeKey(createDb(env.DB), OTHER_KEY, "tenant-oauth-other", "test", Date.now());
});

describe("MCP connector (OAuth 2.1)", () => {
  it("publishes protected resource and authorization server metadata", async () => {
    const resource = await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource`);
    expect(resource.status).toBe(200);
    expect(await json(resource)).toMatchObject({ resource: `${ORIGIN}/v1/agents/`, authorization_servers: [ORIGIN] });
    const server = await json<Record<string, unknown>>(await SELF.fetch(`${ORIGIN}/.well-known/oauth-authorization-server`));
    expect(server).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
    });
    expect(server.code_challenge_methods_supported).toContain("S256");
  });

  it("a token from the consent page with the development key serves MCP for the development tenant; revoked, it gets 401", async () => {
    const agentId = freshAgent("oauth-dev");
    await rememberAndWait(agentId, [{ role: "user", content: "Tomas grows saffron near Valencia.", id: "o1" }]);
    const { access_token, token_type, client_id } = await connect("dev-key-local-only");
    expect(token_type.toLowerCase()).toBe("bearer");
    // The current protocol revision of the official SDKs (1.32 and 2.4 alike), negotiated with a token.
    const init = await mcp(agentId, access_token, {
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    expect((await json<{ result: { protocolVersion: string } }>(init)).result.protocolVersion).toBe("2025-11-25");
    const listed = await mcp(agentId, access_token, { method: "tools/list" });
    expect(listed.status).toBe(200);
    const tools = (await json<{ result: { tools: { name: string }[] } }>(listed)).result.tools.map((t) => t.name);
    expect(tools).toContain("recall");
    const recalled = await mcp(agentId, access_token, {
      method: "tools/call",
      params: { name: "search_memories", arguments: { query: "saffron", mode: "keyword" } },
    });
    expect(JSON.stringify(await json(recalled))).toContain("Valencia");
    // Tokens are for MCP only: REST with a token is an unknown key.
    expect((await call(`/v1/agents/${agentId}/stats`, { key: access_token })).status).toBe(401);

    const revoked = await SELF.fetch(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      // A public client (no secret) names itself: RFC 7009 revocation at the token endpoint.
      body: new URLSearchParams({ token: access_token, token_type_hint: "access_token", client_id }),
    });
    expect(revoked.status).toBe(200);
    const after = await mcp(agentId, access_token, { method: "tools/list" });
    expect(after.status).toBe(401);
    expect(after.headers.get("WWW-Authenticate")).toContain("resource_metadata=");
  });

  it("a token of another tenant never reaches the development tenant's agent", async () => {
    const agentId = freshAgent("oauth-iso");
    await rememberAndWait(agentId, [{ role: "user", content: "Tomas grows saffron near Valencia.", id: "o1" }]);
    const { access_token } = await connect(OTHER_KEY);
    const answer = await mcp(agentId, access_token, {
      method: "tools/call",
      params: { name: "search_memories", arguments: { query: "saffron", mode: "keyword" } },
    });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(await json(answer))).not.toContain("Valencia");
  });

  it("revoking the API key ends the connections made with it", async () => {
    const key = `key-oauth-revoke-${crypto.randomUUID()}`;
    await storeKey(createDb(env.DB), key, "tenant-oauth-revoke", "test", Date.now());
    const { access_token } = await connect(key);
    const agentId = freshAgent("oauth-revoke");
    expect((await mcp(agentId, access_token, { method: "tools/list" })).status).toBe(200);
    await revokeByKey(key);
    const after = await mcp(agentId, access_token, { method: "tools/list" });
    expect(after.status).toBe(401);
    expect((await json<{ error: { code: string } }>(after)).error.code).toBe("unauthorized");
  });

  it("bad OAuth requests are 4xx, and Bearer API keys keep working on MCP", async () => {
    expect((await SELF.fetch(`${ORIGIN}/oauth/authorize?client_id=nope&response_type=code`)).status).toBeLessThan(500);
    expect((await SELF.fetch(`${ORIGIN}/oauth/authorize?client_id=nope&response_type=code`)).status).toBeGreaterThanOrEqual(400);
    expect((await SELF.fetch(`${ORIGIN}/oauth/token`, { method: "POST", body: "grant_type=nonsense" })).status).toBe(400);
    const junk = await SELF.fetch(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(junk.status).toBe(400);
    const anonymous = await SELF.fetch(`${ORIGIN}/v1/agents/${freshAgent("oauth-anon")}/mcp`, { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("WWW-Authenticate")).toBe(
      `Bearer realm="agent-memory", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/v1/agents/"`,
    );
    expect((await json<{ error: { code: string } }>(anonymous)).error.code).toBe("unauthorized");
    const fake = await mcp(freshAgent("oauth-fake"), "a:b:c", { method: "tools/list" });
    expect(fake.status).toBe(401);
    const withKey = await mcp(freshAgent("oauth-key"), "dev-key-local-only", { method: "tools/list" });
    expect(withKey.status).toBe(200);
  });
});

describe("issue 34 finding 4: OAuth routes skip the local Origin rule", () => {
  it("on the local server, a page of another origin gets 403 from registration, the token endpoint's preflight and the consent form: no CORS grant, no client, no code", async () => {
    const evil = { Origin: "https://evil.example" };
    const register = await SELF.fetch(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...evil },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Evil" }),
    });
    const preflight = await SELF.fetch(`${ORIGIN}/oauth/token`, {
      method: "OPTIONS",
      headers: { ...evil, "Access-Control-Request-Method": "POST" },
    });
    const consent = await SELF.fetch(`${ORIGIN}/oauth/authorize?client_id=x&response_type=code`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...evil },
      body: new URLSearchParams({ handle: "h", decision: "approve", api_key: "dev-key-local-only" }),
    });
    const rebound = await SELF.fetch("http://localhost/oauth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json", Host: "attacker.example" },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    for (const res of [register, preflight, consent, rebound]) {
      expect(res.status).toBe(403);
      expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
      expect(res.headers.get("Location")).toBeNull();
      expect((await json<{ error: { code: string } }>(res)).error.code).toBe("forbidden");
    }
    // The server's own origin is served as before.
    const own = await SELF.fetch(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
    });
    expect(own.status).toBe(201);
  });
});

describe("issue 34 finding 12: dynamic client registration is unbounded", () => {
  const register = (metadata: unknown, address = "192.0.2.1") =>
    SELF.fetch(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
      body: typeof metadata === "string" ? metadata : JSON.stringify(metadata),
    });

  it("refuses a 50 KB name (413), a name over 200 characters, more than 10 redirect URIs or a URI over 2,048 characters (400 invalid_client_metadata); stores none of them", async () => {
    const address = `198.51.100.${Math.floor(Math.random() * 200)}`;
    const base = { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" };
    const huge = await register({ ...base, client_name: "n".repeat(50_000) }, address);
    expect(huge.status).toBe(413);
    expect(await json(huge)).toMatchObject({ error: "invalid_client_metadata" });
    for (const metadata of [
      { ...base, client_name: "n".repeat(201) },
      { ...base, redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:3999/cb${i}`) },
      { ...base, redirect_uris: [`http://127.0.0.1:3999/${"p".repeat(2100)}`] },
      { ...base, client_uri: `https://example.com/${"u".repeat(2100)}` },
    ]) {
      const res = await register(metadata, address);
      expect(res.status, JSON.stringify(metadata).slice(0, 80)).toBe(400);
      expect(await json(res)).toMatchObject({ error: "invalid_client_metadata" });
    }
    expect((await register({ ...base, client_name: "n".repeat(200) }, address)).status).toBe(201);
  });

  it("refuses registrations past 10 a minute from one address (429, Retry-After); another address is served", async () => {
    const address = `203.0.113.${Math.floor(Math.random() * 200)}`;
    const refused = await untilRateLimited(
      () => register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }, address),
      10,
      201,
    );
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect((await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }, `${address}1`)).status).toBe(201);
  });
});
