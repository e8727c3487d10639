/**
 * The local server answers this machine only (docs/architecture.md, "The HTTP edge"). While the
 * development key is configured (wrangler.local.toml: `npm run dev`, the tests), its key is public,
 * so a page anywhere could use it: a site that rebinds its own name to 127.0.0.1 (DNS rebinding)
 * would be same-origin with the local API and read or write its memory. So a request must name
 * the server by a loopback name or address (`localhost`, `127.x.x.x`, `[::1]`) in its URL and
 * `Host`, and a browser's `Origin`, when it sends one, must be the server's own origin (the MCP
 * specification asks the same of servers: validate `Origin`). Refused with 403 `forbidden`. A
 * deployment (no development key) is unaffected: its hosts are those its routes name.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

const IPV4_LOOPBACK = /^127(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;

/** A hostname (as URL.hostname gives it) that only ever means this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || IPV4_LOOPBACK.test(hostname);
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Why the local server refuses `request` (not addressed to this machine, or sent by a page of
 * another origin), or undefined. The one rule of every route, the OAuth ones included
 * (src/oauth/connector.ts).
 */
export function localRefusal(request: Request): string | undefined {
  const url = new URL(request.url);
  const header = request.headers.get("host");
  const host = header === null ? url.hostname : hostnameOf(header);
  if (!isLoopbackHost(url.hostname) || host === undefined || !isLoopbackHost(host)) {
    return "the local development server answers only requests to localhost, 127.0.0.1 or [::1]";
  }
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== url.origin) return `the local development server answers pages of its own origin (${url.origin}) only`;
  return undefined;
}

export const localOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.env.DEV_API_KEY) return next();
  const refusal = localRefusal(c.req.raw);
  if (refusal !== undefined) throw new ApiError("forbidden", refusal);
  await next();
};

/** Every API answer: never sniffed into another type (a JSON error read as HTML, say). */
export const noSniff: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  try {
    c.res.headers.set("X-Content-Type-Options", "nosniff");
  } catch {
    // An answer passed through with immutable headers: copied once to mark it.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("X-Content-Type-Options", "nosniff");
  }
};
