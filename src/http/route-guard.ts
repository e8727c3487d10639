/**
 * Routing first: a path the API does not serve is a 404 and a method its path does not take is a
 * 405 with `Allow`, before authentication and before any body is read. The route table is public
 * (the OpenAPI document), so answering first tells an anonymous caller nothing new, and a wrong
 * method costs no key lookup in D1.
 *
 * OPTIONS is answered here for every path the API serves: 204 with `Allow`, no authentication
 * (a browser's preflight never carries credentials) and no CORS grant. The API is same-origin only
 * (README, "CORS"): a page of another origin gets no `Access-Control-Allow-Origin`, so its browser
 * refuses the request it was preparing, while curl, SDKs and servers are unaffected.
 */
import type { MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { AppEnv } from "./app-env";
import { errorResponse } from "./errors";

/** A route as hono lists it (`app.routes`): middleware is listed with the method ALL. */
export interface RouteEntry {
  method: string;
  path: string;
}

/** The order methods are listed in `Allow`. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

function byOrder(a: string, b: string): number {
  const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/**
 * A matcher from a path to the methods it takes, with hono's own router so a path matches here
 * exactly when it matches a route. HEAD goes with GET (hono answers it from the GET handler),
 * OPTIONS with every path (answered here).
 */
function methodsByPath(routes: readonly RouteEntry[]): (path: string) => string[] {
  const router = new TrieRouter<string>();
  for (const route of routes) {
    if (route.method === "ALL") continue;
    router.add("ALL", route.path, route.method.toUpperCase());
  }
  return (path) => {
    const methods = new Set(router.match("ALL", path)[0].map(([method]) => method));
    if (methods.size === 0) return [];
    if (methods.has("GET")) methods.add("HEAD");
    methods.add("OPTIONS");
    return [...methods].sort(byOrder);
  };
}

/**
 * `routes` is read on the first request, when every route has been registered (the guard itself
 * is registered before them, so that it runs first).
 */
export function routeGuard(routes: () => readonly RouteEntry[]): MiddlewareHandler<AppEnv> {
  let allowed: ((path: string) => string[]) | undefined;
  return async (c, next) => {
    allowed ??= methodsByPath(routes());
    const methods = allowed(c.req.path);
    if (methods.length === 0) return errorResponse(c, "not_found", "no such endpoint");
    const allow = methods.join(", ");
    if (c.req.method === "OPTIONS") return c.body(null, 204, { Allow: allow });
    if (!methods.includes(c.req.method)) {
      return errorResponse(c, "method_not_allowed", `${c.req.method} is not allowed here; allowed: ${allow}`, {
        headers: { Allow: allow },
      });
    }
    await next();
  };
}
