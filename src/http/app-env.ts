import type { Principal } from "./principal";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    /** The tenant of the authenticated request: with the path's agent id, the agent's identity. */
    tenantId: string;
    /** Who the request acts for: tenant, scope, agent-id prefix, limits (src/http/principal.ts). */
    principal: Principal;
    /** hono/request-id's id of the request (the audit log records it). */
    requestId: string;
  };
}
