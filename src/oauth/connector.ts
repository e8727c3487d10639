/**
 * MCP as a connector (docs/design.md, "MCP connector"): OAuth 2.1 for the MCP endpoints, as the MCP
 * authorization specification asks of a remote server, with @cloudflare/workers-oauth-provider:
 * OAuth protected resource metadata (/.well-known/oauth-protected-resource, where a client learns
 * which authorization server guards the resource), authorization server metadata, dynamic client
 * registration, PKCE and token revocation. The consent page asks for an API key (locally the development key): the grant and
 * every token issued from it act for that key's tenant, which is stored as the grant's props and is
 * the only tenant the token reaches, while that key is valid (src/http/grant-auth.ts). A token is
 * revoked at the revocation endpoint, or with its key. Tokens are only accepted on the MCP
 * endpoints; Bearer API keys keep working everywhere, MCP included.
 *
 * The protected resource is `<origin>/v1/agents/`: one token per tenant serves the MCP endpoint of
 * each of its agents (`/v1/agents/{agentId}/mcp`, a URL under that resource). The origin is the
 * request's (the local server's port, the deployment's host), so the provider is built per request.
 */
import type { OAuthHelpers, OAuthProviderOptions } from "@cloudflare/workers-oauth-provider";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { createApp } from "../app";
import type { AppEnv } from "../http/app-env";
import { bearerKey } from "../http/auth";
import { principalOfKey } from "../http/principal";
import { requireGrantTenant, type GrantProps } from "../http/grant-auth";
import { hashKey } from "../storage/api-keys";
import { isLoopbackHost, localRefusal } from "../http/local-origin";
import { boundedRegistration } from "./registration";
import { consentPage } from "./consent-page";

export const AUTHORIZE_PATH = "/oauth/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";
export const RESOURCE_PATH = "/v1/agents/";

const MCP_PATH = /^\/v1\/agents\/[^/]+\/mcp$/;
/** The resource's metadata URL: the resource's path goes after the well-known prefix, so each resource has its own. */
const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${RESOURCE_PATH}`;
/**
 * Where a client may look for it besides: the root (no path), and the URL of an agent's MCP
 * endpoint itself (MCP clients try that first when a 401 names no metadata URL).
 */
const OTHER_METADATA_PATH = /^\/\.well-known\/oauth-protected-resource(\/v1\/agents\/[^/]+\/mcp)?$/;
/** The paths the provider serves itself (metadata, token, registration, revocation) or hands to the consent page. */
const OAUTH_PATH = /^\/(\.well-known\/oauth-(protected-resource|authorization-server)(\/.*)?|oauth\/(authorize|token|register|revoke))$/;

/**
 * The library, loaded on the first OAuth request: on load it warns that Client ID Metadata
 * Documents are off (they are: clients register), which a server no connector uses never prints.
 */
const oauthLibrary = () => import("@cloudflare/workers-oauth-provider");

/** The provider's access tokens are `userId:grantId:secret`; API keys never hold a colon. */
function isIssuedToken(token: string): boolean {
  return token.split(":").length === 3;
}

/** Answers MCP requests of a token: the tenant from the grant's props, while its key is valid. */
const tokenApp = createApp({ authenticate: requireGrantTenant });

function providerOptions(origin: string): OAuthProviderOptions<Env> {
  return {
    apiRoute: RESOURCE_PATH,
    apiHandler: { fetch: (request, env, ctx) => tokenApp.fetch(request, env, ctx) },
    defaultHandler: { fetch: (request, env) => authorize(request, env, origin) },
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    resourceMetadata: {
      resource: `${origin}${RESOURCE_PATH}`,
      authorization_servers: [origin],
      resource_name: "Agent Memory",
    },
    // Refused with the provider's own OAuth error body; nothing to log.
    onError: () => undefined,
  };
}

function html(body: string, status: number, headers = new Headers()): Response {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
  return new Response(body, { status, headers });
}

async function authorizationFailure(error: unknown): Promise<Response> {
  const { AuthorizationError } = await oauthLibrary();
  if (error instanceof AuthorizationError) {
    if (error.redirectTo) return Response.redirect(error.redirectTo, 302);
    return html(
      `<!doctype html><meta charset="utf-8"><title>Cannot connect</title><p>${error.description.replace(/[&<>"']/g, "")}</p>`,
      400,
    );
  }
  throw error;
}

/** GET: the consent page; POST: the key checked, then the grant for its tenant (or the page again, saying why). */
async function authorize(request: Request, env: Env, origin: string): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname !== AUTHORIZE_PATH) return Response.json({ error: { code: "not_found", message: "no such endpoint" } }, { status: 404 });
  if (request.method !== "GET" && request.method !== "POST") {
    return Response.json(
      { error: { code: "method_not_allowed", message: "GET or POST" } },
      { status: 405, headers: { Allow: "GET, POST" } },
    );
  }
  const oauth: OAuthHelpers = (await oauthLibrary()).getOAuthApi(providerOptions(origin), env);
  const devKeyHint = Boolean(env.DEV_API_KEY) && isLoopbackHost(new URL(origin).hostname);
  try {
    const authRequest = await oauth.parseAuthRequest(request);
    const details = await oauth.describeConsent(authRequest);
    if (request.method === "GET") {
      const consent = await oauth.beginConsent(authRequest);
      return html(consentPage(details, consent.handle, { devKeyHint }), 200, consent.headers);
    }
    const form = await request.clone().formData();
    const handle = String(form.get("handle") ?? "");
    if (form.get("decision") !== "approve") {
      const denied = await oauth.denyConsent(request, handle);
      return new Response(null, { status: 302, headers: denied.headers });
    }
    const key = String(form.get("api_key") ?? "").trim();
    // The key's last use, if due, is recorded in the background (no request context here to extend).
    const tenant =
      key === "" ? undefined : (await principalOfKey(env, key, Date.now(), (work) => void work.catch(() => undefined)))?.tenantId;
    if (tenant === undefined) {
      // The handle is still unused: the same form again.
      return html(consentPage(details, handle, { devKeyHint, problem: "Unknown or revoked API key." }), 401);
    }
    const approved = await oauth.approveConsent(request, handle);
    // The key's hash, never the key: its revocation ends the connection (src/http/grant-auth.ts).
    const props: GrantProps = { tenant, key_hash: await hashKey(key) };
    const { redirectTo } = await oauth.completeAuthorization({
      request: approved.request,
      userId: tenant,
      metadata: { via: "consent page" },
      scope: approved.request.scope,
      props,
    });
    approved.headers.set("Location", redirectTo);
    return new Response(null, { status: 302, headers: approved.headers });
  } catch (error) {
    return await authorizationFailure(error);
  }
}

/**
 * An MCP endpoint's 401 names the protected resource metadata in its `WWW-Authenticate` challenge
 * (`resource_metadata="…"`): that URL is where an MCP client starts OAuth.
 */
function withResourceMetadata(response: Response, origin: string): Response {
  const headers = new Headers(response.headers);
  const challenge = headers.get("WWW-Authenticate") ?? "Bearer";
  headers.set("WWW-Authenticate", `${challenge}, resource_metadata="${origin}${RESOURCE_METADATA_PATH}"`);
  return new Response(response.body, { status: response.status, headers });
}

/**
 * The Worker's fetch: OAuth endpoints and MCP requests carrying an issued token go to the
 * provider; everything else, API keys included, to the app as before.
 */
export function withMcpConnector(app: OpenAPIHono<AppEnv>): (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response> {
  return async (request, env, ctx) => {
    const url = new URL(request.url);
    const token = bearerKey(request.headers.get("Authorization") ?? undefined);
    const toProvider = OAUTH_PATH.test(url.pathname) || (MCP_PATH.test(url.pathname) && token !== undefined && isIssuedToken(token));
    if (!toProvider) {
      const response = await app.fetch(request, env, ctx);
      return response.status === 401 && MCP_PATH.test(url.pathname) ? withResourceMetadata(response, url.origin) : response;
    }
    // The local server answers this machine and pages of its own origin only, on every OAuth
    // route too (src/http/local-origin.ts): no grant of CORS, no registration, no consent for a foreign page.
    const refusal = env.DEV_API_KEY ? localRefusal(request) : undefined;
    if (refusal !== undefined) {
      return Response.json(
        { error: { code: "forbidden", message: refusal } },
        { status: 403, headers: { "X-Content-Type-Options": "nosniff" } },
      );
    }
    const { OAuthProvider } = await oauthLibrary();
    const provider = new OAuthProvider<Env>(providerOptions(url.origin));
    if (OTHER_METADATA_PATH.test(url.pathname)) {
      return provider.fetch(new Request(new URL(RESOURCE_METADATA_PATH, url), request), env, ctx);
    }
    if (url.pathname === REGISTER_PATH) {
      const checked = await boundedRegistration(request, env);
      if ("refused" in checked) return checked.refused;
      return provider.fetch(checked.request, env, ctx);
    }
    return provider.fetch(request, env, ctx);
  };
}
