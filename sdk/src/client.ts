/**
 * The clients: `MemoryClient` for the API itself (agents list, health, tools) and `AgentClient`
 * for one agent (every memory operation, task waits, function-calling tools, the context-window
 * helper). Their methods are generated, one per operation of the server's list
 * (generated/operations.ts); what is written here is what a generated method cannot be.
 */
import { ContextWindow, type ContextWindowOptions } from "./context-window.js";
import { MemoryApiError, TaskFailedError, TimeoutError } from "./errors.js";
import {
  AgentOperations,
  OPERATIONS,
  ServiceOperations,
  TOOLS,
  type AgentSummary,
  type CallToolInput,
  type CallToolOutput,
  type ListAgentsInput,
  type OperationName,
  type TaskStatus,
} from "./generated/operations.js";
import { HttpCore, type ClientOptions, type RequestOptions } from "./http.js";
import { sleep } from "./retry.js";
import {
  formatTools,
  framedToolText,
  normalizeToolCall,
  type AnthropicTool,
  type OpenAiTool,
  type ToolCallLike,
  type ToolDefinition,
  type ToolFormat,
} from "./tools.js";

export class MemoryClient extends ServiceOperations {
  /** @internal */
  readonly core: HttpCore;

  constructor(options: ClientOptions) {
    super();
    this.core = new HttpCore(options);
  }

  /**
   * The client of one agent (created on first write; agent ids: 1–64 of `A-Za-z0-9_.-`).
   *
   * @example
   * ```ts
   * const assistant = memory.agent("assistant-1");
   * const { text } = await assistant.recall({ query: "Where does Ines live?" });
   * ```
   */
  agent(agentId: string): AgentClient {
    return new AgentClient(this.core, agentId);
  }

  /**
   * Every agent of the tenant, page after page (`listAgents` with its cursor).
   *
   * @example
   * ```ts
   * for await (const summary of memory.agents({ limit: 100 })) console.log(summary.agent_id, summary.last_active_at);
   * ```
   */
  async *agents(input: Omit<ListAgentsInput, "cursor"> = {}, options?: RequestOptions): AsyncGenerator<AgentSummary, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.listAgents({ ...input, ...(cursor === undefined ? {} : { cursor }) }, options);
      yield* page.agents;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /**
   * The function-calling tools, as the server's GET /v1/tools serves them (no request made).
   *
   * @example
   * ```ts
   * const tools = memory.tools("openai"); // pass as `tools` to chat.completions.create
   * console.log(tools.map((t) => t.function.name));
   * ```
   */
  tools(format: "openai"): OpenAiTool[];
  tools(format: "anthropic"): AnthropicTool[];
  tools(format: ToolFormat): OpenAiTool[] | AnthropicTool[] {
    return formatTools(TOOLS, format);
  }

  protected invoke(name: OperationName, input: object | undefined, options: RequestOptions | undefined): Promise<unknown> {
    return this.core.call(OPERATIONS[name], undefined, input as Record<string, unknown> | undefined, options);
  }
}

export interface WaitOptions {
  /** Give up after this many milliseconds (default 120 000) with a TimeoutError. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The answer of handleToolCall: what to hand back to the model as the tool's result. */
export interface ToolCallResult {
  /** The provider's id of the call (OpenAI `tool_call_id`, Anthropic `tool_use_id`), when it had one. */
  id: string | undefined;
  name: string;
  /** The text for the model: the operation's text, or the error envelope as JSON. */
  content: string;
  /** True when the call was refused (bad arguments, unknown tool, a missing node): the model may correct it. */
  isError: boolean;
  /** The operation's answer (absent on error). */
  result?: unknown;
}

/** Refusals a model can act on: returned as tool errors, not thrown. */
const MODEL_ERRORS = new Set(["validation_failed", "invalid_json", "not_found", "payload_too_large", "idempotency_conflict"]);

export class AgentClient extends AgentOperations {
  constructor(
    private readonly core: HttpCore,
    readonly agentId: string,
  ) {
    super();
  }

  protected invoke(name: OperationName, input: object | undefined, options: RequestOptions | undefined): Promise<unknown> {
    return this.core.call(OPERATIONS[name], this.agentId, input as Record<string, unknown> | undefined, options);
  }

  /**
   * Waits until a task is done and resolves with its status; rejects with TaskFailedError when it
   * failed, TimeoutError after `timeoutMs`. Long-polls (`wait_ms`), so it makes few requests.
   *
   * @example
   * ```ts
   * const { task_id } = await agent.remember({ messages: [{ role: "user", content: "I moved to Porto in May." }] });
   * const task = await agent.waitForTask(task_id, { timeoutMs: 30_000 });
   * console.log(task.status, task.result);
   * ```
   */
  async waitForTask(taskId: string, options: WaitOptions = {}): Promise<TaskStatus> {
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    for (;;) {
      const left = deadline - Date.now();
      const waitMs = Math.max(0, Math.min(25_000, left));
      const task = await this.getTask({ task_id: taskId, wait_ms: waitMs }, options.signal ? { signal: options.signal } : {});
      if (task.status === "done") return task;
      if (task.status === "failed") throw new TaskFailedError(`task ${taskId} failed: ${task.error ?? "no reason given"}`, task);
      if (Date.now() >= deadline) throw new TimeoutError(`task ${taskId} still ${task.status} after ${options.timeoutMs ?? 120_000} ms`);
      if (waitMs === 0) await sleep(200, options.signal);
    }
  }

  /**
   * The function-calling tools (the same for every agent; no request made).
   *
   * @example
   * ```ts
   * const tools = agent.tools("anthropic"); // pass as `tools` to messages.create
   * console.log(tools.map((t) => t.name));
   * ```
   */
  tools(format: "openai"): OpenAiTool[];
  tools(format: "anthropic"): AnthropicTool[];
  tools(format: ToolFormat): OpenAiTool[] | AnthropicTool[] {
    return formatTools(TOOLS, format);
  }

  /**
   * The tools independent of format (names, schemas, annotations).
   *
   * @example
   * ```ts
   * for (const tool of agent.toolDefinitions()) console.log(tool.name, tool.annotations.readOnlyHint);
   * ```
   */
  toolDefinitions(): readonly ToolDefinition[] {
    return TOOLS;
  }

  /**
   * Executes one tool call a model produced (OpenAI's, Anthropic's or `{name, arguments}`) for
   * this agent, on the server (POST tools/call validates it with the operation's own schemas). A
   * call the model got wrong resolves with `isError` and a message naming the argument, to hand
   * back so that it corrects itself; failures of the service (auth, outage after retries) throw.
   *
   * @example
   * ```ts
   * // A tool call as OpenAI returns it (Anthropic's tool_use blocks are taken too).
   * const call = { id: "call_1", type: "function" as const, function: { name: "recall", arguments: '{"query":"Where does Ines live?"}' } };
   * const { id, content, isError } = await agent.handleToolCall(call);
   * const reply = { role: "tool" as const, tool_call_id: id, content }; // hand back to the model, isError or not
   * console.log(reply, isError);
   * ```
   */
  async handleToolCall(call: ToolCallLike, options?: RequestOptions): Promise<ToolCallResult> {
    const { id, name, arguments: args } = normalizeToolCall(call);
    try {
      // As the model produced them: the server checks the name and the arguments (a 400 below).
      const input = { name, arguments: args } as CallToolInput;
      const answer: CallToolOutput = await this.callTool(input, options);
      return { id, name, content: answer.content, isError: false, result: answer.result };
    } catch (error) {
      if (error instanceof MemoryApiError && MODEL_ERRORS.has(error.code)) {
        const envelope = {
          error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
        };
        // The refusal may quote stored memory (a missing node's neighbours, an ambiguous description's candidates).
        return { id, name, content: framedToolText(JSON.stringify(envelope)), isError: true };
      }
      throw error;
    }
  }

  /**
   * Seed 001 §9.1's trigger for this agent: see ContextWindow.
   *
   * @example
   * ```ts
   * const window = agent.contextWindow({ contextMaxTokens: 128_000 });
   * const { messages, block } = await window.prepare([{ role: "user", content: "Where does Ines live now?" }]);
   * console.log(messages.length, block);
   * ```
   */
  contextWindow(options: ContextWindowOptions): ContextWindow {
    return new ContextWindow(this, options);
  }
}
