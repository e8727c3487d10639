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
import { OPERATIONS as SDK_OPERATIONS, RPC_METHODS, type OperationTypes } from "../../sdk/src/generated/operations";
import { HttpCore } from "../../sdk/src/http";
import { isTool } from "../surfaces/operation";
import { createApp } from "../app";
import { requireBindingTenant, type BindingProps } from "../http/binding-auth";
import { OPERATIONS } from "../routes";
import { runTool, toolBox } from "../surfaces/tool-call";
import type { BindingError, BindingResult, MemoryBinding } from "../../sdk/src/rpc-binding";
import { failure, failureOf } from "./binding-result";

type Name = keyof OperationTypes;
type Output<N extends Name> = OperationTypes[N]["output"];

/** Never reached by an HTTP request: only this entrypoint's methods call it. */
const bindingApp = createApp({ authenticate: requireBindingTenant });

/** Operation name (the SDK's method name) → the tool that runs it. */
const TOOL_OF = new Map(OPERATIONS.filter(isTool).map((d) => [d.name, d.tool.name]));

const TOOLS = toolBox(OPERATIONS);

const ORIGIN = "http://localhost";

function isOperation(name: string): name is Name {
  return Object.hasOwn(SDK_OPERATIONS, name);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(where: string, message: string): { ok: false; error: BindingError } {
  return failure("validation_failed", `${where}: ${message}`, {
    issues: [{ in: where === "agentId" ? "path" : "arguments", path: where === "agentId" ? "agentId" : "", message }],
  });
}

/** The operations' methods, declared by MemoryBinding and defined from RPC_METHODS in the class below. */
export interface MemoryEntrypoint extends Omit<MemoryBinding, "exportAgent"> {}

export class MemoryEntrypoint extends WorkerEntrypoint<Env, BindingProps> implements MemoryBinding {
  /**
   * One method per tool operation (RPC_METHODS, generated from the operation list): the agent id,
   * then the input when the operation takes one, then a write's options. Defined on the prototype,
   * as RPC requires of a method, so no operation is added here by hand.
   */
  static {
    for (const [name, args] of Object.entries(RPC_METHODS)) {
      if (!isOperation(name)) continue;
      const method = function (this: MemoryEntrypoint, agentId: unknown, first?: unknown, second?: unknown) {
        return args.input === "none"
          ? this.#run(name, agentId, undefined, args.write ? first : undefined)
          : this.#run(name, agentId, first, args.write ? second : undefined);
      };
      Object.defineProperty(this.prototype, name, { value: method, writable: true, configurable: true });
    }
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
