/**
 * How an operation's arguments travel over HTTP. Every surface calls an operation with one flat
 * object of arguments (an SDK method's input, a function-calling tool's arguments, an MCP tool's
 * arguments); its spec (generated from the server's operation list, OPERATIONS in src/routes/index.ts) says
 * which of them fill the path, which the query string, and that the rest is the JSON body. The
 * server's tools/call and MCP endpoints use this same module to reach the REST routes, so the
 * surfaces cannot map an argument differently.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface OperationSpec {
  method: HttpMethod;
  /** The path template, `{agentId}` and other parameters in braces. */
  path: string;
  /** `agent`: addressed to one agent (the path has `{agentId}`); `service`: to the API itself. */
  scope: "agent" | "service";
  /** Argument name → path parameter it fills (besides agentId). */
  pathArgs: Readonly<Record<string, string>>;
  /** Arguments sent in the query string. */
  queryArgs: readonly string[];
  /** Whether the remaining arguments form a JSON body. */
  body: boolean;
  /** Values the surface always sends (recall and context in their JSON form). */
  fixedQuery: Readonly<Record<string, string>>;
  fixedBody: Readonly<Record<string, unknown>>;
  /** Takes an Idempotency-Key (a write). */
  write: boolean;
}

export interface HttpCall {
  method: HttpMethod;
  /** Path and query string, to be appended to the base URL. */
  target: string;
  /** The JSON body, when the operation takes one. */
  body: unknown;
}

/** A programming error of the caller: an argument the operation does not know where to put. */
export class ArgumentError extends TypeError {
  override name = "ArgumentError";
}

function present(value: unknown): boolean {
  return value !== undefined;
}

/**
 * The HTTP request for `input` (flat arguments) of the operation `spec`, for `agentId` when it is one agent's.
 *
 * @example
 * ```ts
 * import { bindCall, OPERATIONS } from "@agent-memory/sdk";
 * const request = bindCall(OPERATIONS.getMemory, "assistant-1", { node_id: 12, links_limit: 50 });
 * console.log(request.method, request.target); // GET /v1/agents/assistant-1/memories/12?links_limit=50
 * ```
 */
export function bindCall(spec: OperationSpec, agentId: string | undefined, input: Readonly<Record<string, unknown>> = {}): HttpCall {
  let path = spec.path;
  if (spec.scope === "agent") {
    if (agentId === undefined) throw new ArgumentError(`${spec.method} ${spec.path} needs an agent id`);
    path = path.replace("{agentId}", encodeURIComponent(agentId));
  }
  const rest: Record<string, unknown> = {};
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    const param = spec.pathArgs[name];
    if (param !== undefined) {
      if (!present(value)) continue;
      path = path.replace(`{${param}}`, encodeURIComponent(String(value)));
    } else if (spec.queryArgs.includes(name)) {
      if (present(value)) query.set(name, String(value));
    } else if (present(value)) rest[name] = value;
  }
  const missing = /\{([^}]+)\}/.exec(path);
  if (missing) throw new ArgumentError(`missing argument for path parameter ${missing[1]}`);
  for (const [name, value] of Object.entries(spec.fixedQuery)) query.set(name, value);
  if (!spec.body && Object.keys(rest).length > 0) {
    throw new ArgumentError(`unknown argument(s) for ${spec.method} ${spec.path}: ${Object.keys(rest).join(", ")}`);
  }
  const search = query.toString();
  return {
    method: spec.method,
    target: search ? `${path}?${search}` : path,
    body: spec.body ? { ...rest, ...spec.fixedBody } : undefined,
  };
}
