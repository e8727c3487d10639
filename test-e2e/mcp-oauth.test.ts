/**
 * MCP as a connector, with the official MCP client's OAuth support (`@modelcontextprotocol/sdk`:
 * StreamableHTTPClientTransport with an OAuthClientProvider) against the local Worker: the client
 * is refused without credentials, discovers the protected resource and authorization server
 * metadata, registers itself, sends the user to the consent page (here: this test, typing the
 * development key), exchanges the code with PKCE, and lists the tools with its token; once the
 * token is revoked, a request with it gets 401.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { describe, expect, inject, it } from "vitest";
import { TOOLS } from "../sdk/src";

const baseUrl = inject("baseUrl");
const REDIRECT = "http://127.0.0.1:3998/callback";

/** An MCP host's OAuth state, in memory; `redirectToAuthorization` records where it would send the user. */
class TestOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;

  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "e2e MCP host",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The user at the consent page: opens it, types the key, allows; returns the code the redirect carries. */
async function consent(url: URL, apiKey: string): Promise<string> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("e2e MCP host");
  expect(html).toContain("dev-key-local-only"); // the local server names its development key
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const answer = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ handle, decision: "approve", api_key: apiKey }),
  });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get("Location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams.get("code") ?? "";
}

describe("MCP connector with the official client's OAuth flow", () => {
  it("GET /.well-known/oauth-protected-resource answers with the resource and its authorization server", async () => {
    const answer = await fetch(new URL("/.well-known/oauth-protected-resource", baseUrl));
    expect(answer.status).toBe(200);
    const metadata = (await answer.json()) as { resource: string; authorization_servers: string[] };
    expect(metadata.resource).toBe(new URL("/v1/agents/", baseUrl).href);
    expect(metadata.authorization_servers).toEqual([new URL(baseUrl).origin]);
  });

  it("completes the flow with the development key, lists the tools; a revoked token gets 401", async () => {
    const agentId = `mcp-oauth-${Math.random().toString(36).slice(2, 8)}`;
    const endpoint = new URL(`/v1/agents/${agentId}/mcp`, baseUrl);
    const provider = new TestOAuthProvider();

    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    await expect(new Client({ name: "e2e-oauth", version: "1.0.0" }).connect(first)).rejects.toThrow(UnauthorizedError);
    expect(provider.client?.client_id).toBeTruthy();
    expect(provider.authorizationUrl?.pathname).toBe("/oauth/authorize");
    expect(provider.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");

    const code = await consent(provider.authorizationUrl!, "dev-key-local-only");
    await first.finishAuth(code);
    expect(provider.saved?.access_token).toBeTruthy();

    const client = new Client({ name: "e2e-oauth", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    await client.close();

    const token = provider.saved!.access_token;
    const revoke = await fetch(new URL("/oauth/token", baseUrl), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, token_type_hint: "access_token", client_id: provider.client!.client_id }),
    });
    expect(revoke.status).toBe(200);
    const after = await fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(after.status).toBe(401);
  });
});
