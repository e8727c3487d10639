/**
 * An MCP client's OAuth flow against the Worker's own fetch (src/oauth/connector.ts): dynamic
 * registration, the consent page given an API key, the code exchanged with PKCE; and MCP requests
 * with the token. Shared by the connector's tests and the key lifecycle's.
 */
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { json } from "./helpers";

export const ORIGIN = "http://localhost";
export const REDIRECT = "http://127.0.0.1:3999/callback";
async function sha256url(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Registration, consent with `key`, code exchange: the token response. */
export async function connect(key: string): Promise<{ access_token: string; token_type: string; client_id: string }> {
  const registered = await SELF.fetch(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Test <Client>" }),
  });
  expect(registered.status).toBe(201);
  const { client_id } = await json<{ client_id: string }>(registered);
  const verifier = `verifier-${crypto.randomUUID()}-${crypto.randomUUID()}`;
  const query = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: REDIRECT,
    code_challenge: await sha256url(verifier),
    code_challenge_method: "S256",
    state: "st-1",
    resource: `${ORIGIN}/v1/agents/`,
  });
  const authorizeUrl = `${ORIGIN}/oauth/authorize?${query}`;
  const page = await SELF.fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const body = await page.text();
  expect(body).toContain("API key");
  expect(body).toContain("Test &#60;Client&#62;");
  expect(body).not.toContain("<Client>");
  const handle = /name="handle" value="([^"]+)"/.exec(body)?.[1];
  expect(handle).toBeDefined();
  const cookie = cookiesOf(page);
  const post = (apiKey: string) =>
    SELF.fetch(authorizeUrl, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: new URLSearchParams({ handle: handle!, decision: "approve", api_key: apiKey }),
    });
  const wrong = await post("not-a-key");
  expect(wrong.status).toBe(401);
  expect(await wrong.text()).toContain("Unknown or revoked API key");
  const approved = await post(key);
  expect(approved.status).toBe(302);
  const location = new URL(approved.headers.get("Location")!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(location.searchParams.get("state")).toBe("st-1");
  const code = location.searchParams.get("code")!;
  const token = await SELF.fetch(`${ORIGIN}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id,
      redirect_uri: REDIRECT,
      resource: `${ORIGIN}/v1/agents/`,
    }),
  });
  expect(token.status).toBe(200);
  return { ...(await json<{ access_token: string; token_type: string }>(token)), client_id };
}

export function mcp(agentId: string, token: string, message: Record<string, unknown>): Promise<Response> {
  return SELF.fetch(`${ORIGIN}/v1/agents/${agentId}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }),
  });
}
