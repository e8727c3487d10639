/**
 * @agent-memory/sdk: the TypeScript client of the Agent Memory API (README, "SDK").
 *
 *   const memory = new MemoryClient({ baseUrl: "http://127.0.0.1:8787", apiKey });
 *   const agent = memory.agent("assistant-1");
 *   const { task_id } = await agent.remember({ messages: [{ role: "user", content: "…", id: "m1" }] });
 *   await agent.waitForTask(task_id);
 *   const { text } = await agent.recall({ query: "…" });
 */
export { AgentClient, MemoryClient, type ToolCallResult, type WaitOptions } from "./client.js";
export { ContextWindow, MIN_BLOCK_TOKENS, type ChatMessage, type ContextWindowOptions, type PreparedContext } from "./context-window.js";
export * from "./errors.js";
export * from "./generated/operations.js";
export { DEFAULT_TIMEOUT_MS, newIdempotencyKey, type ClientOptions, type FetchLike, type RequestOptions } from "./http.js";
export { DEFAULT_RETRY, type RetryPolicy } from "./retry.js";
export { estimateTokens } from "./tokens.js";
// OpenAiTool and AnthropicTool come from the generated schemas (the same shapes).
export {
  formatTools,
  normalizeToolCall,
  TOOL_FORMATS,
  TOOL_RESULT_FRAME,
  framedToolText,
  type JsonObject,
  type NormalizedToolCall,
  type ToolAnnotations,
  type ToolCallLike,
  type ToolDefinition,
  type ToolFormat,
} from "./tools.js";
export { bindCall, ArgumentError, type OperationSpec } from "./binding.js";
export {
  unwrap,
  type BindingCallOptions,
  type BindingError,
  type BindingResult,
  type JsonValue,
  type MemoryBinding,
} from "./rpc-binding.js";
