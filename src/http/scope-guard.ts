/**
 * The one check of what a key may do (docs/design.md, "Tenants and keys"), run before every
 * operation's route, so REST, tools/call, MCP and Workers RPC (which send the operation's REST
 * request in-process) are checked alike: the key's scope must hold the operation's (its
 * definition's `scope`, src/surfaces/operation.ts), and an operation on one agent must name an
 * agent within the key's agent-id prefix. Refused with 403 `forbidden`, naming the scope or the
 * prefix; nothing ran.
 */
import type { MiddlewareHandler } from "hono";
import { scopeAllows, type ScopeRule } from "../vocabulary/scopes";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

export function scopeGuard(operationId: string, rule: ScopeRule, agentScoped: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (rule === "public") return next();
    // Set by the authentication every non-public route sits behind (src/app.ts).
    const principal = c.get("principal") as AppEnv["Variables"]["principal"] | undefined;
    if (principal === undefined) throw new ApiError("unauthorized", "this operation needs an API key");
    const needed = typeof rule === "function" ? rule((name) => c.req.query(name)) : rule;
    if (!scopeAllows(principal.scope, needed)) {
      throw new ApiError("forbidden", `${operationId} needs a key of scope ${needed}; this key's scope is ${principal.scope}`, {
        details: { needed_scope: needed, key_scope: principal.scope },
      });
    }
    const prefix = principal.agentPrefix;
    const agentId = agentScoped ? c.req.param("agentId") : undefined;
    if (prefix !== null && agentId !== undefined && !agentId.startsWith(prefix)) {
      throw new ApiError("forbidden", `this key reaches only agents whose id starts with "${prefix}"`, {
        details: { agent_prefix: prefix },
      });
    }
    await next();
  };
}
