/**
 * The memory as AI SDK tools, for generateText, streamText and agents: one `tool()` per tool of the
 * API (the SDK's definitions: the server's own names, descriptions and JSON Schemas), executed by
 * the server's tools/call (`AgentClient.handleToolCall`), which validates the arguments with the
 * operation's own schemas. A call the model got wrong comes back as the API's error text for the
 * model to correct; an outage (after the SDK's retries) fails the step.
 */
import type { ToolDefinition } from "@agent-memory/sdk";
import { jsonSchema, tool, type Tool } from "ai";
import { agentOf, type MemoryOptions } from "./agent.js";

/**
 * The tools given by default: reading (recall, search, context, profile, focus, one memory, its
 * history, the list) and the memory operations (remember, create, correct, link, forget one,
 * report use). Not by default (name them in `tools`): erasing the agent, changing its parameters,
 * forcing forgetting cycles, rebuilding episodes, task and statistics reads.
 */
export const DEFAULT_MEMORY_TOOLS = [
  "recall",
  "search_memories",
  "get_context",
  "get_profile",
  "get_focus",
  "get_memory",
  "get_memory_history",
  "list_memories",
  "remember",
  "create_memory",
  "update_memory",
  "link_memories",
  "unlink_memories",
  "delete_memory",
  "report_feedback",
] as const;

export type MemoryToolsOptions = MemoryOptions & {
  /** Tool names to give (default DEFAULT_MEMORY_TOOLS); any of the API's tools. */
  tools?: readonly string[];
};

/** The AI SDK tools of one agent's memory, by tool name (what `generateText({ tools })` takes). */
export function memoryTools(options: MemoryToolsOptions): Record<string, Tool<Record<string, unknown>, string>> {
  const agent = agentOf(options);
  const wanted = options.tools ?? DEFAULT_MEMORY_TOOLS;
  const definitions = new Map(agent.toolDefinitions().map((d) => [d.name, d]));
  const unknown = wanted.filter((name) => !definitions.has(name));
  if (unknown.length > 0) {
    throw new TypeError(`unknown memory tool(s): ${unknown.join(", ")}; the tools are: ${[...definitions.keys()].join(", ")}`);
  }
  const tools: Record<string, Tool<Record<string, unknown>, string>> = {};
  for (const name of wanted) {
    const definition: ToolDefinition | undefined = definitions.get(name);
    if (definition === undefined) continue;
    tools[name] = tool({
      title: definition.title,
      description: definition.description,
      inputSchema: jsonSchema<Record<string, unknown>>(definition.inputSchema),
      // The text the model reads: the answer's text framed as stored memory, or the refusal.
      execute: async (input, { abortSignal }) => {
        const outcome = await agent.handleToolCall({ name, arguments: input }, abortSignal ? { signal: abortSignal } : {});
        return outcome.content;
      },
    });
  }
  return tools;
}
