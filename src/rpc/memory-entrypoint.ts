/**
 * Workers RPC (docs/design.md, "Workers RPC"): the memory operations as typed methods for Workers of
 * the same account, through a service binding. No HTTP between the Workers and no key: the binding
 * is the credential, its `props` name the tenant (src/http/binding-auth.ts), each method's first
 * argument names the agent. The caller's wrangler configuration:
 *
 *   [[services]]
 *   binding = "MEMORY"
 *   service = "agent-memory"
 *   entrypoint = "MemoryEntrypoint"
 *   props = { tenant = "acme" }
 *
 * Every method runs the operation's REST request in-process through an app of its own whose only
 * difference is where the tenant comes from (src/app.ts), exactly as tools/call and MCP do
 * (src/surfaces/tool-call.ts): the same validation, errors, idempotency (`options.idempotencyKey`
 * is the Idempotency-Key) and isolation as the REST endpoint. Methods resolve with a
 * BindingResult (binding-result.ts), never throw for a refusal.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { errorFromAnswer } from "../../sdk/src/errors";
import type { OperationTypes } from "../../sdk/src/generated/operations";
import { HttpCore } from "../../sdk/src/http";
import { isTool } from "../surfaces/operation";
import { createApp } from "../app";
import { requireBindingTenant, type BindingProps } from "../http/binding-auth";
import { OPERATIONS } from "../routes";
import { runTool, toolBox } from "../surfaces/tool-call";
import type { BindingCallOptions, BindingError, BindingResult, MemoryBinding } from "../../sdk/src/rpc-binding";
import { failure, failureOf } from "./binding-result";

type Name = keyof OperationTypes;
type Input<N extends Name> = OperationTypes[N]["input"];
type Output<N extends Name> = OperationTypes[N]["output"];

/** Never reached by an HTTP request: only this entrypoint's methods call it. */
const bindingApp = createApp({ authenticate: requireBindingTenant });

/** Operation name (the SDK's method name) → the tool that runs it. */
const TOOL_OF = new Map(OPERATIONS.filter(isTool).map((d) => [d.name, d.tool.name]));

const TOOLS = toolBox(OPERATIONS);

const ORIGIN = "http://localhost";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(where: string, message: string): { ok: false; error: BindingError } {
  return failure("validation_failed", `${where}: ${message}`, {
    issues: [{ in: where === "agentId" ? "path" : "arguments", path: where === "agentId" ? "agentId" : "", message }],
  });
}

export class MemoryEntrypoint extends WorkerEntrypoint<Env, BindingProps> implements MemoryBinding {
  remember(agentId: string, input: Input<"remember">, options?: BindingCallOptions) {
    return this.#run("remember", agentId, input, options);
  }
  recall(agentId: string, input?: Input<"recall">) {
    return this.#run("recall", agentId, input);
  }
  searchMemories(agentId: string, input: Input<"searchMemories">) {
    return this.#run("searchMemories", agentId, input);
  }
  getContext(agentId: string, input?: Input<"getContext">) {
    return this.#run("getContext", agentId, input);
  }
  getProfile(agentId: string, input?: Input<"getProfile">) {
    return this.#run("getProfile", agentId, input);
  }
  getFocus(agentId: string) {
    return this.#run("getFocus", agentId, undefined);
  }
  getMemoryNode(agentId: string, input: Input<"getMemoryNode">) {
    return this.#run("getMemoryNode", agentId, input);
  }
  getStats(agentId: string, input?: Input<"getStats">) {
    return this.#run("getStats", agentId, input);
  }
  getTask(agentId: string, input: Input<"getTask">) {
    return this.#run("getTask", agentId, input);
  }
  getConfig(agentId: string) {
    return this.#run("getConfig", agentId, undefined);
  }
  updateConfig(agentId: string, input: Input<"updateConfig">, options?: BindingCallOptions) {
    return this.#run("updateConfig", agentId, input, options);
  }
  compressMemories(agentId: string, input?: Input<"compressMemories">, options?: BindingCallOptions) {
    return this.#run("compressMemories", agentId, input, options);
  }
  createMemory(agentId: string, input: Input<"createMemory">, options?: BindingCallOptions) {
    return this.#run("createMemory", agentId, input, options);
  }
  getMemory(agentId: string, input: Input<"getMemory">) {
    return this.#run("getMemory", agentId, input);
  }
  getMemoryHistory(agentId: string, input: Input<"getMemoryHistory">) {
    return this.#run("getMemoryHistory", agentId, input);
  }
  listMemories(agentId: string, input?: Input<"listMemories">) {
    return this.#run("listMemories", agentId, input);
  }
  updateMemory(agentId: string, input: Input<"updateMemory">, options?: BindingCallOptions) {
    return this.#run("updateMemory", agentId, input, options);
  }
  deleteMemory(agentId: string, input: Input<"deleteMemory">, options?: BindingCallOptions) {
    return this.#run("deleteMemory", agentId, input, options);
  }
  linkMemories(agentId: string, input: Input<"linkMemories">, options?: BindingCallOptions) {
    return this.#run("linkMemories", agentId, input, options);
  }
  unlinkMemories(agentId: string, input: Input<"unlinkMemories">, options?: BindingCallOptions) {
    return this.#run("unlinkMemories", agentId, input, options);
  }
  reportFeedback(agentId: string, input: Input<"reportFeedback">, options?: BindingCallOptions) {
    return this.#run("reportFeedback", agentId, input, options);
  }
  mergeEntities(agentId: string, input: Input<"mergeEntities">, options?: BindingCallOptions) {
    return this.#run("mergeEntities", agentId, input, options);
  }
  rebuildEpisodes(agentId: string, options?: BindingCallOptions) {
    return this.#run("rebuildEpisodes", agentId, undefined, options);
  }
  deleteAgent(agentId: string, options?: BindingCallOptions) {
    return this.#run("deleteAgent", agentId, undefined, options);
  }

  /** The agent's whole memory as JSON Lines (GET /v1/agents/{agentId}/export), streamed. */
  async exportAgent(agentId: string): Promise<BindingResult<ReadableStream<Uint8Array>>> {
    if (typeof agentId !== "string") return invalid("agentId", "must be a string");
    const response = await bindingApp.fetch(new Request(`${ORIGIN}/v1/agents/${encodeURIComponent(agentId)}/export`), this.env, this.ctx);
    if (!response.ok || response.body === null) {
      return failureOf(errorFromAnswer(response.status, response.headers, await response.text()));
    }
    return { ok: true, value: response.body };
  }

  // `#` members: a TypeScript `private` method would still be callable over RPC.
  #core(): HttpCore {
    return new HttpCore({
      baseUrl: ORIGIN,
      apiKey: "", // unused: the binding app takes the tenant from the binding's props
      fetch: async (request) => bindingApp.fetch(request, this.env, this.ctx),
      // One attempt, no timer: the calling Worker decides about retries.
      retry: { retries: 0 },
      timeoutMs: 0,
    });
  }

  async #run<N extends Name>(name: N, agentId: unknown, input: unknown, options: unknown = {}): Promise<BindingResult<Output<N>>> {
    if (typeof agentId !== "string") return invalid("agentId", "must be a string");
    if (input !== undefined && !isPlainObject(input)) return invalid(name, "the arguments must be an object");
    if (!isPlainObject(options)) return invalid(name, "options must be an object");
    const key = options.idempotencyKey;
    if (key !== undefined && typeof key !== "string") return invalid(name, "options.idempotencyKey must be a string");
    const tool = TOOL_OF.get(name);
    if (tool === undefined) throw new Error(`${name} is not a tool operation`);
    const outcome = await runTool(TOOLS, this.#core(), agentId, tool, input ?? {}, { idempotencyKey: key });
    if (!outcome.ok) {
      return failure(
        outcome.code,
        outcome.message,
        outcome.details,
        outcome.retryAfterS === undefined ? undefined : outcome.retryAfterS * 1000,
      );
    }
    // The answer of the operation's own route, checked by its response schema there.
    return { ok: true, value: outcome.result as Output<N> };
  }
}
