/**
 * The operation areas (docs/design.md, "Integration surfaces"): each file of this folder holds a
 * group of operations with their routes, schemas and tool entries, served by a sub-app mounted
 * here. The SDK (sdk/src/generated, by `npm run generate:sdk`), GET /v1/tools,
 * POST /v1/agents/:agentId/tools/call, the MCP server and the Workers RPC entrypoint are derived
 * from OPERATIONS, and test/integration-surfaces.test.ts checks that the OpenAPI document holds
 * exactly these operations: a route without an entry in its area fails the tests.
 *
 * Adding an operation: its route, schemas and entry in its area (in the area's `operations`; a
 * tool when it names one), its task kind (src/agent/registry.ts), then `npm run generate:sdk`.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Area } from "../surfaces/endpoint";
import { isTool, type OperationDefinition } from "../surfaces/operation";
import type { AppEnv } from "../http/app-env";
import { AGENTS } from "../operations/list-agents/route";
import { CONFIG } from "../operations/update-config/route";
import { CONTEXT } from "../operations/get-context/route";
import { HEALTH } from "../operations/get-health/route";
import { integrationArea } from "../operations/mcp/route";
import { LINKS } from "../operations/link-memories/route";
import { MEMORIES } from "../operations/create-memory/route";
import { OPENAPI } from "../operations/get-open-api/route";
import { READS } from "../operations/get-memory-node/route";
import { RECALL } from "../operations/recall/route";
import { REMEMBER } from "../operations/remember/route";
import { SEARCH } from "../operations/search-memories/route";
import { TRANSFER } from "../operations/import-agent/route";

/** The areas of the memory, in the order their tools are listed. */
const MEMORY_AREAS: readonly Area[] = [REMEMBER, RECALL, SEARCH, CONTEXT, READS, CONFIG, MEMORIES, LINKS, AGENTS, TRANSFER, HEALTH];

/** The tools of the memory areas, served as function-calling tools and over MCP. */
const INTEGRATION = integrationArea(MEMORY_AREAS.flatMap((area) => area.operations));

const AREAS: readonly Area[] = [...MEMORY_AREAS, INTEGRATION, OPENAPI];

/** Every operation of the API, tools first (in the order GET /v1/tools lists them). */
export const OPERATIONS: readonly OperationDefinition[] = [
  ...AREAS.flatMap((area) => area.operations.filter(isTool)),
  ...AREAS.flatMap((area) => area.operations.filter((d) => !isTool(d))),
];

export const TOOL_NAMES = INTEGRATION.toolNames;

/** Mounts every area on the root app (after its middleware, so that runs first). */
export function mountAreas(app: OpenAPIHono<AppEnv>): void {
  for (const area of AREAS) app.route("/", area.routes(app));
}
