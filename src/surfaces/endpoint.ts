/**
 * One operation as the app serves it (docs/design.md, "Integration surfaces"): its definition
 * (route, arguments, tool entry: operation.ts) and the Hono sub-app serving its route, which the
 * root app mounts with `app.route()` (src/routes/index.ts). Each operation's folder exports one
 * from its route.ts, named by the operationId.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-env";
import { validationHook } from "../http/validation-hook";
import type { OperationDefinition } from "./operation";

export interface Endpoint {
  operation: OperationDefinition;
  /**
   * The sub-app serving the route, built for one root app (the Worker's, the RPC entrypoint's); the
   * integration surfaces send their calls through `root`, and read its OpenAPI document.
   */
  routes(root: OpenAPIHono<AppEnv>): OpenAPIHono<AppEnv>;
}

/** A sub-app with the API's validation hook (every refusal the same 400 envelope). */
export function subApp(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
