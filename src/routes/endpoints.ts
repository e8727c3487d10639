/**
 * Every operation's endpoint (its route, schemas and tool entry), mounted in its area by src/routes/index.ts. Written by `npm run generate:sdk` from the folders of src/operations
 * (scripts/operation-lists.ts): do not edit; add an operation's folder and run it again.
 */
import type { Endpoint } from "../surfaces/endpoint";
import type { Tools } from "../surfaces/tool-catalog";
import { callTool } from "../operations/call-tool/route";
import { compressMemories } from "../operations/compress-memories/route";
import { createMemory } from "../operations/create-memory/route";
import { deleteAgent } from "../operations/delete-agent/route";
import { deleteMemory } from "../operations/delete-memory/route";
import { deleteSession } from "../operations/delete-session/route";
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
import { listSessions } from "../operations/list-sessions/route";
import { listTools } from "../operations/list-tools/route";
import { mcp } from "../operations/mcp/route";
import { mergeEntities } from "../operations/merge-entities/route";
import { pinMemory } from "../operations/pin-memory/route";
import { ping } from "../operations/ping/route";
import { rebuildEpisodes } from "../operations/rebuild-episodes/route";
import { recall } from "../operations/recall/route";
import { remember } from "../operations/remember/route";
import { reportFeedback } from "../operations/report-feedback/route";
import { revokeKey } from "../operations/revoke-key/route";
import { searchMemories } from "../operations/search-memories/route";
import { unlinkMemories } from "../operations/unlink-memories/route";
import { unpinMemory } from "../operations/unpin-memory/route";
import { updateConfig } from "../operations/update-config/route";
import { updateMemory } from "../operations/update-memory/route";

/** The operations' endpoints, by operationId. */
export const ENDPOINTS: readonly Endpoint[] = [
  compressMemories,
  createMemory,
  deleteAgent,
  deleteMemory,
  deleteSession,
  exportAgent,
  getConfig,
  getContext,
  getFocus,
  getHealth,
  getMemory,
  getMemoryHistory,
  getMemoryNode,
  getOpenApi,
  getProfile,
  getStats,
  getTask,
  importAgent,
  linkMemories,
  listAgents,
  listKeys,
  listMemories,
  listSessions,
  mergeEntities,
  pinMemory,
  ping,
  rebuildEpisodes,
  recall,
  remember,
  reportFeedback,
  revokeKey,
  searchMemories,
  unlinkMemories,
  unpinMemory,
  updateConfig,
  updateMemory,
];

/** The endpoints over the other operations' tools (function calling, tool calls, MCP). */
export const TOOL_ENDPOINTS: readonly ((tools: Tools) => Endpoint)[] = [callTool, listTools, mcp];
