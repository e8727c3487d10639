/**
 * An operation area (docs/design.md, "Integration surfaces"): one file of src/routes holding a
 * group of operations, each with its route, schemas and tool entry, served by a Hono sub-app the
 * root app mounts with `app.route()`. A new operation is an entry in its area plus its task.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-env";
import { validationHook } from "../http/validation-hook";
import type { OperationDefinition } from "./operation";

export interface Area {
  /** The area's operations, in the order they are listed (tools first, as GET /v1/tools lists them). */
  operations: readonly OperationDefinition[];
  /**
   * The sub-app serving them, built for one root app (the Worker's, the RPC entrypoint's); the
   * integration surfaces send their calls through `root`, and read its OpenAPI document.
   */
  routes(root: OpenAPIHono<AppEnv>): OpenAPIHono<AppEnv>;
}

/** A sub-app with the API's validation hook (every refusal the same 400 envelope). */
export function subApp(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
