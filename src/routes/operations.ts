/**
 * The one list of operations (docs/design.md, "Integration surfaces"): each entry is a REST route (the OpenAPI entry,
 * its operationId the SDK method's name), the arguments every surface takes, and either the
 * function-calling/MCP tool it is or the reason it is not one. The SDK (sdk/src/generated, by
 * `npm run generate:sdk`), GET /v1/tools, POST /v1/agents/:agentId/tools/call and the MCP server
 * are derived from this list, and test/integration-surfaces.test.ts checks that the OpenAPI
 * document holds exactly these operations: a route without an entry here fails the tests.
 *
 * Adding an operation (docs/design.md, "Integration surfaces"): its route as usual (with an operationId), one entry
 * below (in TOOL_OPERATIONS when it is a tool), then `npm run generate:sdk`.
 */
import { z } from "zod";
import { callToolRoute, listToolsRoute, mcpRoute, openApiRoute, TOOL_FORMATS } from "../api/integration";
import { defineOperation, isTool, type OperationDefinition, type ToolAnnotations } from "../api/operation";
import { LOCALES } from "../vocabulary/locales";
import { deleteAgentRoute } from "./agents";
import { listAgentsRoute } from "./agents-list";
import { compressRoute, getConfigRoute, updateConfigRoute } from "./config";
import { contextRoute, profileRoute, rebuildEpisodesRoute } from "./context";
import { healthRoute } from "./health";
import { feedbackRoute, linkRoute, mergeEntitiesRoute, unlinkRoute } from "./links";
import { createMemoryRoute, deleteMemoryRoute, getMemoryRoute, listMemoriesRoute, memoryHistoryRoute, updateMemoryRoute } from "./memories";
import { focusRoute, nodeRoute, pingRoute, statsRoute, taskRoute } from "./reads";
import { recallRoute } from "./recall";
import { rememberRoute } from "./remember";
import { searchRoute } from "./search";
import { exportAgentRoute, importAgentRoute } from "./transfer";

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Both languages work everywhere; said once in every tool that takes or returns memory text. */
const LANGUAGES = "Memories may be Chinese or English (中文或英文均可).";

const waitMs = z
  .number()
  .int()
  .min(0)
  .max(30_000)
  .optional()
  .describe("Wait up to this many milliseconds (at most 30000) for the work to finish before answering.");

const remember = defineOperation(rememberRoute, {
  tool: {
    name: "remember",
    title: "Remember messages",
    description: `Store conversation messages in the agent's long-term memory: what the user said that matters beyond this conversation (facts, decisions, preferences, events). The memory is built in the background; the answer is a task id (get_task waits for it), and recall, search and get_context called afterwards already see it. ${LANGUAGES} Give every message a stable \`id\`: a message whose id the memory holds is not stored again, so repeating a call is harmless.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
});

const recall = defineOperation(recallRoute, {
  fixedBody: { format: "json" },
  tool: {
    name: "recall",
    title: "Recall memories",
    description: `Recall what the agent remembers about some keywords or a question: starts from its current focus and follows the links of its memory network, plus word and meaning matches. Returns the memories as text (\`[memory] …\`, or \`[记忆] …\` for Chinese memories or locale "zh"; forgotten ones as traces) and as items with ids and scores. Call it before answering anything that may depend on earlier conversations. ${LANGUAGES}`,
    annotations: READ,
  },
});

const search = defineOperation(searchRoute, {
  tool: {
    name: "search_memories",
    title: "Search memories",
    description: `Search all of the agent's memories by words (keyword: BM25), meaning (vector) or both (hybrid, the default), optionally within a time range; returns ranked memories with their time, speaker and source message ids. Use it to look something up that recall does not reach, or to find when something was said. ${LANGUAGES}`,
    annotations: READ,
  },
});

const getContext = defineOperation(contextRoute, {
  fixedBody: { format: "json" },
  tool: {
    name: "get_context",
    title: "Context block for a prompt",
    description: `A block ready to put in front of a prompt: the memories most relevant to a query (or to the latest messages), each with its importance (● strong, ○ medium, ◌ weak) and entities, conflicts marked; summaries of earlier conversations when the query asks about one ("last time", 上次); traces of forgotten memories; the profile when included. Never longer than \`budget_tokens\`. ${LANGUAGES}`,
    annotations: READ,
  },
});

const getProfile = defineOperation(profileRoute, {
  queryArgs: {
    locale: z.enum(LOCALES).optional().describe("Language of the profile's labels: zh or en (default: the language of the memories)."),
  },
  tool: {
    name: "get_profile",
    title: "Profile of the memory",
    description:
      "Who and what the agent's memory is mostly about: its main participants (by messages), its most important entities with their strongest memories, and its current focus; as data and as text.",
    annotations: READ,
  },
});

const getFocus = defineOperation(focusRoute, {
  tool: {
    name: "get_focus",
    title: "Current focus",
    description:
      "The entities the agent is focused on right now, most recent first: recall starts from them, and their links do not weaken.",
    annotations: READ,
  },
});

/** A node view's page of links, as tool arguments (src/operations/views/node-view.ts). */
const linksPageArgs = {
  links_limit: z.number().int().min(1).max(1000).optional().describe("Links listed per direction (1–1000, default 200)."),
  links_cursor: z.string().optional().describe("links.next_cursor of the previous answer for this node: the next page of its links."),
};

const getMemoryNode = defineOperation(nodeRoute, {
  queryArgs: linksPageArgs,
  pathArgs: {
    node_id: {
      param: "nodeId",
      schema: z
        .number()
        .int()
        .min(1)
        .max(Number.MAX_SAFE_INTEGER)
        .describe("The memory's id: node_id in recall, search, focus and context answers."),
    },
  },
  tool: {
    name: "get_memory_node",
    title: "Read one memory",
    description:
      "Read one memory node by id: its full content, kind (segment, entity, memory, episode), keywords, importance, provenance (source message ids, speaker, time) and its links, including links to memories since forgotten.",
    annotations: READ,
  },
});

const getStats = defineOperation(statsRoute, {
  queryArgs: { wait_ms: waitMs },
  tool: {
    name: "get_stats",
    title: "Memory statistics",
    description:
      "Counts of the agent's memory: nodes by kind, links, dangling links (traces of forgotten memories), queued and finished tasks, characters held versus remembered. `wait_ms` first waits until queued work is done.",
    annotations: READ,
  },
});

const getConfig = defineOperation(getConfigRoute, {
  tool: {
    name: "get_config",
    title: "Memory parameters",
    description:
      "The agent's memory parameters: focus size, link decay per compression cycle, deletion threshold, capacity, automatic compression.",
    annotations: READ,
  },
});

const updateConfig = defineOperation(updateConfigRoute, {
  tool: {
    name: "update_config",
    title: "Change memory parameters",
    description:
      "Change some of the agent's memory parameters (any subset; the others stay); they apply from the next compression cycle. A lower capacity or a faster decay makes the agent forget more, so change them only when the user asks.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

const compress = defineOperation(compressRoute, {
  tool: {
    name: "compress_memories",
    title: "Run forgetting cycles",
    description:
      "Run compression cycles now (one also runs after every remember): links weaken, unimportant memories are shortened and at last forgotten, leaving traces. Only when the user asks to forget or to tidy the memory.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
});

const getTask = defineOperation(taskRoute, {
  pathArgs: {
    task_id: {
      param: "taskId",
      schema: z
        .string()
        .regex(/^tsk_[A-Za-z0-9]{8,40}$/)
        .describe("The task id a write answered with (task_id)."),
    },
  },
  queryArgs: { wait_ms: waitMs },
  tool: {
    name: "get_task",
    title: "Task status",
    description:
      "The status of a queued write (remember, compress_memories, update_config): queued, running, done with its result, or failed with the reason. `wait_ms` waits for it to finish.",
    annotations: READ,
  },
});

const rebuildEpisodes = defineOperation(rebuildEpisodesRoute, {
  tool: {
    name: "rebuild_episodes",
    title: "Rebuild episodes",
    description:
      "Give an episode (a summary of one conversation, its participants and time span) to every conversation remembered before episodes existed. Maintenance: once after an upgrade, when get_context finds no earlier conversations that should be there; calling it again does nothing more.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
});

const deleteAgent = defineOperation(deleteAgentRoute, {
  tool: {
    name: "delete_agent",
    title: "Erase the whole memory",
    description:
      "Erase this agent's entire memory irreversibly: every memory, link, index entry and queued task. Only when the user explicitly asks to delete everything the agent remembers; never to tidy up (compress_memories forgets gradually).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

/** A memory's node id as a tool argument: an integer for the model, the path parameter `nodeId` over HTTP. */
const nodeIdArgument = (what: string) => ({
  node_id: {
    param: "nodeId",
    schema: z
      .number()
      .int()
      .min(1)
      .max(2 ** 30)
      .describe(what),
  },
});

/** A write the memory answers when applied (or 202 with a task id after 25 s). */
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

// Memory operations (docs/design.md, "Memory operations"), the tools a model writes its memory with: create, link, correct,
// forget, and say which memories helped.
const createMemory = defineOperation(createMemoryRoute, {
  tool: {
    name: "create_memory",
    title: "Create a memory",
    description: `Store one explicit memory now, as a sentence (\`content\`) or structured (subject, memory_type: event/fact/relation/opinion, topic, object?, attributes? such as 时间 or 地点; relative times like 昨天 are resolved). Use it for a fact the user states that should outlive the conversation. A memory that contradicts an earlier one is reported in \`conflicts\` (and may supersede it). Answers the new node_id. ${LANGUAGES}`,
    annotations: WRITE,
  },
});

const linkMemories = defineOperation(linkRoute, {
  tool: {
    name: "link_memories",
    title: "Link two memories",
    description: `Say that two memories are related: each end is a node_id or a short description of the memory (found by the agent's own search; an ambiguous description answers 409 with the candidates to choose from). relation: causes, because, therefore, cites, based_on or related (or their Chinese names). The link strengthens both in recall and decays like any other. ${LANGUAGES}`,
    annotations: WRITE,
  },
});

const updateMemory = defineOperation(updateMemoryRoute, {
  pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, context and create_memory answers."),
  tool: {
    name: "update_memory",
    title: "Correct a memory",
    description: `Correct a memory: the new content becomes a new version that takes over its links; the old one becomes history that recall and search no longer return. Use it when the user corrects something the agent remembered. ${LANGUAGES}`,
    annotations: WRITE,
  },
});

const deleteMemory = defineOperation(deleteMemoryRoute, {
  pathArgs: nodeIdArgument("The memory's id: node_id in recall, search, context and create_memory answers."),
  queryArgs: { purge: z.boolean().optional().describe("true: remove every trace too (links into it, earlier versions).") },
  tool: {
    name: "delete_memory",
    title: "Forget a memory",
    description:
      "Forget one memory now (links into it stay as a trace that something was known there); with purge also every trace. Only when the user asks to forget that specific thing.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

const reportFeedback = defineOperation(feedbackRoute, {
  tool: {
    name: "report_feedback",
    title: "Report which memories helped",
    description:
      "After answering with recalled memories, report the node_ids you used (used: true): their links are reinforced, so they are forgotten more slowly. Once per memory per forgetting cycle counts.",
    annotations: WRITE,
  },
});

const getMemory = defineOperation(getMemoryRoute, {
  pathArgs: nodeIdArgument("The memory's id (node_id in recall, search and create_memory answers)."),
  queryArgs: linksPageArgs,
  tool: {
    name: "get_memory",
    title: "Read a memory with its history",
    description: `One memory (or entity) with its links, provenance, meta, aliases, the memories it contradicts and its versions: what get_memory_node gives plus what the memory operations recorded. ${LANGUAGES}`,
    annotations: READ,
  },
});

const getMemoryHistory = defineOperation(memoryHistoryRoute, {
  pathArgs: nodeIdArgument("The id of any version of the memory."),
  queryArgs: {
    cursor: z.string().optional().describe("next_cursor of the previous page; omit for the first page."),
    limit: z.number().int().min(1).max(200).optional().describe("Versions per page (1–200, default 50)."),
  },
  tool: {
    name: "get_memory_history",
    title: "Versions of a memory",
    description: "The versions of a corrected memory, oldest first: what it said before each update_memory.",
    annotations: READ,
  },
});

const listMemories = defineOperation(listMemoriesRoute, {
  queryArgs: {
    kind: z.string().optional().describe("Kinds to list, comma-separated: segment, memory (explicit), episode (default all three)."),
    cursor: z.string().optional().describe("next_cursor of the previous page; omit for the first page."),
    limit: z.number().int().min(1).max(200).optional().describe("Memories per page (1–200, default 50)."),
    include_superseded: z.boolean().optional().describe("true: also versions a newer one corrected."),
  },
  tool: {
    name: "list_memories",
    title: "List memories",
    description: `Page through the agent's memories, newest first (never entities). To find something, search_memories or recall is better; this is for reviewing what is stored. ${LANGUAGES}`,
    annotations: READ,
  },
});

const unlinkMemories = defineOperation(unlinkRoute, {
  queryArgs: {
    source: z.number().int().min(1).describe("The link's source node id."),
    target: z.number().int().min(1).describe("The link's target node id."),
    relation: z.string().describe("The link's relation, as get_memory_node lists it."),
  },
  tool: {
    name: "unlink_memories",
    title: "Remove a link",
    description: "Remove one link between two memories (for a link made by mistake with link_memories).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

const mergeEntities = defineOperation(mergeEntitiesRoute, {
  pathArgs: nodeIdArgument("The entity to merge away (an entity's node_id, e.g. from get_focus)."),
  tool: {
    name: "merge_entities",
    title: "Merge two entities",
    description:
      "Say that two entities are one (a nickname, an abbreviation, a translation): the entity is merged into `into`, its links move over, and its name is kept as an alias.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
});

/** The operations that are tools, in the order tools are listed. */
const TOOL_OPERATIONS = [
  remember,
  recall,
  search,
  getContext,
  getProfile,
  getFocus,
  getMemoryNode,
  getStats,
  getConfig,
  updateConfig,
  compress,
  getTask,
  createMemory,
  linkMemories,
  updateMemory,
  deleteMemory,
  reportFeedback,
  getMemory,
  getMemoryHistory,
  listMemories,
  unlinkMemories,
  mergeEntities,
  rebuildEpisodes,
  deleteAgent,
];

function toolNamesOf(definitions: readonly OperationDefinition[]): [string, ...string[]] {
  const [first, ...rest] = definitions.filter(isTool).map((d) => d.tool.name);
  if (first === undefined) throw new Error("no tools");
  return [first, ...rest];
}

export const TOOL_NAMES = toolNamesOf(TOOL_OPERATIONS);

/** POST tools/call: its body names one of the tools above. */
export const CALL_TOOL_ROUTE = callToolRoute(TOOL_NAMES);

/** Every operation of the API, tools first. */
export const OPERATIONS: readonly OperationDefinition[] = [
  ...TOOL_OPERATIONS,
  defineOperation(pingRoute, { tool: { reason: "a latency probe of the agent's object, nothing a model needs" } }),
  defineOperation(exportAgentRoute, {
    tool: { reason: "a whole agent's memory as JSON Lines, for backups and moves" },
    sdk: { reason: "a JSON Lines stream, not a JSON answer: fetch GET /v1/agents/{agentId}/export" },
  }),
  defineOperation(importAgentRoute, {
    tool: { reason: "a whole agent's memory as JSON Lines, for backups and moves" },
    sdk: { reason: "a JSON Lines body, not a JSON one: POST the export with Content-Type application/x-ndjson" },
  }),
  defineOperation(listAgentsRoute, {
    queryArgs: {
      cursor: z.string().optional().describe("next_cursor of the previous page; omit for the first page."),
      limit: z.number().int().min(1).max(200).optional().describe("Agents per page (1–200, default 50)."),
    },
    tool: { reason: "spans the whole tenant, while tools and MCP act for the one agent of their path" },
  }),
  defineOperation(healthRoute, {
    queryArgs: { deep: z.enum(["0", "1"]).optional().describe("1: check every dependency (needs an API key).") },
    tool: { reason: "service liveness, not memory" },
  }),
  defineOperation(openApiRoute, { tool: { reason: "describes the API, not the memory" } }),
  defineOperation(listToolsRoute, {
    queryArgs: { format: z.enum(TOOL_FORMATS).optional().describe("openai (default) or anthropic.") },
    tool: { reason: "lists the tools" },
  }),
  defineOperation(CALL_TOOL_ROUTE, { tool: { reason: "executes the tools" } }),
  defineOperation(mcpRoute, {
    tool: { reason: "the MCP endpoint serves the tools" },
    sdk: { reason: "MCP is spoken by MCP clients (e.g. @modelcontextprotocol/sdk's Client), not by this SDK" },
  }),
];

export function operationNamed(name: string): OperationDefinition | undefined {
  return OPERATIONS.find((d) => d.name === name);
}
