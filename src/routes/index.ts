/**
 * The operations of the API, in their areas (docs/design.md, "Integration surfaces"): each
 * operation is a folder of src/operations named by its operationId, whose route.ts exports its
 * endpoint (route, schemas, tool entry) and names its area as the route's tag. endpoints.ts lists
 * them, written from the folders by `npm run generate:sdk`; this file orders them area by area
 * (src/surfaces/areas.ts), each area's by operationId, and mounts them. The SDK
 * (sdk/src/generated, by the same command), GET /v1/tools, POST /v1/agents/:agentId/tools/call,
 * the MCP server and the Workers RPC entrypoint are derived from OPERATIONS, and
 * test/integration-surfaces.test.ts checks that the OpenAPI document holds exactly these
 * operations.
 *
 * Adding an operation: docs/architecture.md, "Adding an operation".
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-env";
import { scopeGuard } from "../http/scope-guard";
import { AREAS } from "../surfaces/areas";
import type { Endpoint } from "../surfaces/endpoint";
import { isTool, type OperationDefinition } from "../surfaces/operation";
import { toolsOf } from "../surfaces/tool-catalog";
import { ENDPOINTS, TOOL_ENDPOINTS } from "./endpoints";

const AREA_NAMES: readonly string[] = AREAS.map((area) => area.name);

/** The position of an operation's area; an operation that names none is refused when the app is built. */
function areaOf(endpoint: Endpoint): number {
  const [tag] = endpoint.operation.route.tags ?? [];
  const index = tag === undefined ? -1 : AREA_NAMES.indexOf(tag);
  if (index < 0) throw new Error(`operation ${endpoint.operation.name} names no area of src/surfaces/areas.ts (its route's tag)`);
  return index;
}

const byArea = (a: Endpoint, b: Endpoint) =>
  areaOf(a) - areaOf(b) || (a.operation.name < b.operation.name ? -1 : a.operation.name > b.operation.name ? 1 : 0);

/** The operations on one agent's memory and the service, area by area. */
const MEMORY_ENDPOINTS = [...ENDPOINTS].sort(byArea);

/** The tools of the memory areas, served as function-calling tools and over MCP. */
const TOOLS = toolsOf(MEMORY_ENDPOINTS.map((e) => e.operation));

/** Every endpoint, in the order the app mounts them (the OpenAPI document's). */
const ALL_ENDPOINTS = [...MEMORY_ENDPOINTS, ...TOOL_ENDPOINTS.map((endpoint) => endpoint(TOOLS))].sort(byArea);

const ALL = ALL_ENDPOINTS.map((e) => e.operation);

/** Every operation of the API, tools first (in the order GET /v1/tools lists them). */
export const OPERATIONS: readonly OperationDefinition[] = [...ALL.filter(isTool), ...ALL.filter((d) => !isTool(d))];

export const TOOL_NAMES = TOOLS.names;

/** `/v1/agents/{agentId}` (OpenAPI) → `/v1/agents/:agentId` (hono). */
function honoPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

/**
 * Mounts every operation's route on the root app (after its middleware, so that runs first),
 * each behind the check of its scope (src/http/scope-guard.ts), the one place it is enforced.
 */
export function mountAreas(app: OpenAPIHono<AppEnv>): void {
  for (const endpoint of ALL_ENDPOINTS) {
    const { route, scope, name } = endpoint.operation;
    app.on(route.method.toUpperCase(), honoPath(route.path), scopeGuard(name, scope, route.path.includes("{agentId}")));
    app.route("/", endpoint.routes(app));
  }
}
