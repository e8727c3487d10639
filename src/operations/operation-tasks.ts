/**
 * Every operation's task kind, named by its operationId (the agent's kinds: src/agent/agent-tasks.ts). Written by `npm run generate:sdk` from the folders of src/operations
 * (scripts/operation-lists.ts): do not edit; add an operation's folder and run it again.
 */
import { compressMemoriesTask } from "./compress-memories/task";
import { createMemoryTask } from "./create-memory/task";
import { deleteAgentTask } from "./delete-agent/task";
import { deleteMemoryTask } from "./delete-memory/task";
import { exportAgentTask } from "./export-agent/task";
import { getContextTask } from "./get-context/task";
import { getMemoryTask } from "./get-memory/task";
import { getMemoryHistoryTask } from "./get-memory-history/task";
import { getProfileTask } from "./get-profile/task";
import { importAgentTask } from "./import-agent/task";
import { linkMemoriesTask } from "./link-memories/task";
import { listMemoriesTask } from "./list-memories/task";
import { mergeEntitiesTask } from "./merge-entities/task";
import { pinMemoryTask } from "./pin-memory/task";
import { rebuildEpisodesTask } from "./rebuild-episodes/task";
import { recallTask } from "./recall/task";
import { rememberTask } from "./remember/task";
import { reportFeedbackTask } from "./report-feedback/task";
import { searchMemoriesTask } from "./search-memories/task";
import { unlinkMemoriesTask } from "./unlink-memories/task";
import { unpinMemoryTask } from "./unpin-memory/task";
import { updateConfigTask } from "./update-config/task";
import { updateMemoryTask } from "./update-memory/task";

export const OPERATION_TASKS = {
  compressMemories: compressMemoriesTask,
  createMemory: createMemoryTask,
  deleteAgent: deleteAgentTask,
  deleteMemory: deleteMemoryTask,
  exportAgent: exportAgentTask,
  getContext: getContextTask,
  getMemory: getMemoryTask,
  getMemoryHistory: getMemoryHistoryTask,
  getProfile: getProfileTask,
  importAgent: importAgentTask,
  linkMemories: linkMemoriesTask,
  listMemories: listMemoriesTask,
  mergeEntities: mergeEntitiesTask,
  pinMemory: pinMemoryTask,
  rebuildEpisodes: rebuildEpisodesTask,
  recall: recallTask,
  remember: rememberTask,
  reportFeedback: reportFeedbackTask,
  searchMemories: searchMemoriesTask,
  unlinkMemories: unlinkMemoriesTask,
  unpinMemory: unpinMemoryTask,
  updateConfig: updateConfigTask,
  updateMemory: updateMemoryTask,
} as const;
