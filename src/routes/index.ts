/**
 * The operations of the API, in their areas (docs/design.md, "Integration surfaces"): each
 * operation is a folder of src/operations named by its operationId, whose route.ts exports its
 * endpoint (route, schemas, tool entry); this file only lists and mounts them. The SDK
 * (sdk/src/generated, by `npm run generate:sdk`), GET /v1/tools, POST /v1/agents/:agentId/tools/call,
 * the MCP server and the Workers RPC entrypoint are derived from OPERATIONS, and
 * test/integration-surfaces.test.ts checks that the OpenAPI document holds exactly these
 * operations: a route without an entry here fails the tests.
 *
 * Adding an operation: docs/architecture.md, "Adding an operation".
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-env";
import { scopeGuard } from "../http/scope-guard";
import type { Endpoint } from "../surfaces/endpoint";
import { isTool, type OperationDefinition } from "../surfaces/operation";
import { toolsOf } from "../surfaces/tool-catalog";
import { callTool } from "../operations/call-tool/route";
import { compressMemories } from "../operations/compress-memories/route";
import { createMemory } from "../operations/create-memory/route";
import { deleteAgent } from "../operations/delete-agent/route";
import { deleteMemory } from "../operations/delete-memory/route";
import { exportAgent } from "../operations/export-agent/route";
import { getConfig } from "../operations/get-config/route";
import { getContext } from "../operations/get-context/route";
import { getFocus } from "../operations/get-focus/route";
import { getHealth } from "../operations/get-health/route";
import { getMemory } from "../operations/get-memory/route";
import { getMemoryHistory } from "../operations/get-memory-history/route";
import { getMemoryNode } from "../operations/get-memory-node/route";
import { getOpenApi } from "../operations/get-open-api/route";
import { getProfile } from "../operations/get-profile/route";
import { getStats } from "../operations/get-stats/route";
import { getTask } from "../operations/get-task/route";
import { importAgent } from "../operations/import-agent/route";
import { linkMemories } from "../operations/link-memories/route";
import { listAgents } from "../operations/list-agents/route";
import { listKeys } from "../operations/list-keys/route";
import { listMemories } from "../operations/list-memories/route";
import { listTools } from "../operations/list-tools/route";
import { mcp } from "../operations/mcp/route";
import { mergeEntities } from "../operations/merge-entities/route";
import { ping } from "../operations/ping/route";
import { rebuildEpisodes } from "../operations/rebuild-episodes/route";
import { recall } from "../operations/recall/route";
import { remember } from "../operations/remember/route";
import { reportFeedback } from "../operations/report-feedback/route";
import { revokeKey } from "../operations/revoke-key/route";
import { searchMemories } from "../operations/search-memories/route";
import { unlinkMemories } from "../operations/unlink-memories/route";
import { updateConfig } from "../operations/update-config/route";
import { updateMemory } from "../operations/update-memory/route";

interface Area {
  /** In the order GET /v1/tools lists the tools among them. */
  endpoints: readonly Endpoint[];
  /** The order their routes are mounted in (the OpenAPI document's), when it is not the same. */
  mounted?: readonly Endpoint[];
}

/** The areas of the memory, in the order their tools are listed. */
const MEMORY_AREAS: readonly Area[] = [
  { endpoints: [remember] },
  { endpoints: [recall] },
  { endpoints: [searchMemories] },
  { endpoints: [getContext, getProfile, rebuildEpisodes] },
  { endpoints: [getFocus, getMemoryNode, getStats, getTask, ping], mounted: [ping, getTask, getFocus, getMemoryNode, getStats] },
  { endpoints: [getConfig, updateConfig, compressMemories] },
  {
    endpoints: [createMemory, updateMemory, deleteMemory, getMemory, getMemoryHistory, listMemories],
    mounted: [createMemory, getMemory, getMemoryHistory, listMemories, updateMemory, deleteMemory],
  },
  {
    endpoints: [linkMemories, reportFeedback, unlinkMemories, mergeEntities],
    mounted: [linkMemories, unlinkMemories, reportFeedback, mergeEntities],
  },
  { endpoints: [deleteAgent, listAgents] },
  { endpoints: [exportAgent, importAgent] },
  { endpoints: [getHealth] },
];

/** The tools of the memory areas, served as function-calling tools and over MCP. */
const TOOLS = toolsOf(MEMORY_AREAS.flatMap((area) => area.endpoints.map((e) => e.operation)));

const AREAS: readonly Area[] = [
  ...MEMORY_AREAS,
  { endpoints: [listKeys, revokeKey] },
  { endpoints: [listTools(TOOLS), callTool(TOOLS), mcp(TOOLS)] },
  { endpoints: [getOpenApi] },
];

const ALL = AREAS.flatMap((area) => area.endpoints.map((e) => e.operation));

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
  for (const area of AREAS) {
    for (const endpoint of area.mounted ?? area.endpoints) {
      const { route, scope, name } = endpoint.operation;
      app.on(route.method.toUpperCase(), honoPath(route.path), scopeGuard(name, scope, route.path.includes("{agentId}")));
      app.route("/", endpoint.routes(app));
    }
  }
}
