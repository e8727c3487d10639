/**
 * One operation of the API as every surface sees it (docs/design.md, "Integration surfaces"): its REST route (method,
 * path, schemas, statuses: the OpenAPI entry), the flat arguments an SDK method, a function-calling
 * tool and an MCP tool take, and whether it is a tool at all. The list of operations is
 * OPERATIONS (src/routes/index.ts), gathered from the areas; everything here derives from a
 * definition, nothing is declared twice.
 *
 * Arguments: the route's JSON body fields are arguments as they are; path and query parameters are
 * declared here with the schema a caller (a model, typically) should see: `node_id: 12`, not the
 * path segment "12". `fixedQuery` and `fixedBody` are sent by every surface (recall and context
 * answer JSON, with the model-facing text inside it).
 */
import type { RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import type { OperationSpec } from "../../sdk/src/binding";
import { snakeCase } from "../text/snake-case";
import type { ScopeRule } from "../vocabulary/scopes";

/** MCP tool annotations (hints a host shows or acts on; MCP specification, "Tool annotations"). */
export interface ToolAnnotations {
  /** Changes nothing. */
  readOnlyHint: boolean;
  /** May delete or overwrite what is there (meaningful when not read-only). */
  destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** Reaches beyond the agent's own memory. Always false here. */
  openWorldHint: false;
}

export interface ToolSpec {
  /** The tool's name: `^[a-z][a-z0-9_]{0,63}$`, the same in MCP, OpenAI and Anthropic formats. */
  name: string;
  /** A short human title (MCP hosts show it). */
  title: string;
  /** What it does and when a model should call it; the memory may be Chinese or English. */
  description: string;
  annotations: ToolAnnotations;
}

/** Why an operation is not on a surface (stated, so the difference between surfaces is explicit). */
export interface NotOnSurface {
  reason: string;
}

/**
 * The operation as an SDK method: `example` is the method called as a developer would, with
 * `memory` (a MemoryClient) and `agent` (one agent's client) given; the generated method carries it
 * as its `@example`, and test/unit/sdk/examples.test.ts type-checks it.
 */
export interface SdkSpec {
  example: string;
  /**
   * A tool operation's Workers RPC method called through a service binding (`env.MEMORY`, a
   * MemoryBinding): the generated RPC_METHODS entry carries it as its `@example`, checked by the same test.
   */
  binding?: string;
}

export interface PathArgument {
  /** The path parameter it fills. */
  param: string;
  schema: z.ZodType;
}

export interface OperationDefinition {
  /** The operationId: also the SDK method's name. */
  name: string;
  route: RouteConfig & { operationId: string };
  scope: ScopeRule;
  pathArgs: Readonly<Record<string, PathArgument>>;
  queryArgs: Readonly<Record<string, z.ZodType>>;
  fixedQuery: Readonly<Record<string, string>>;
  fixedBody: Readonly<Record<string, unknown>>;
  tool: ToolSpec | NotOnSurface;
  /** An SDK method with its example, or the reason it is none. */
  sdk: SdkSpec | NotOnSurface;
}

function shapeOf(schema: unknown): Record<string, z.ZodType> {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
}

/**
 * One entry of the list. Arguments not declared are derived from the route: a path parameter
 * besides agentId becomes a snake_case argument with the route's own schema (`{nodeId}` →
 * `node_id`, as the path's string); a GET route's query parameters become arguments as they are.
 * Declare them only to show a model a better type (`node_id` as an integer).
 */
export function defineOperation(
  route: RouteConfig & { operationId: string },
  spec: {
    scope: ScopeRule;
    pathArgs?: Record<string, PathArgument>;
    queryArgs?: Record<string, z.ZodType>;
    fixedQuery?: Record<string, string>;
    fixedBody?: Record<string, unknown>;
    tool: ToolSpec | NotOnSurface;
    sdk: SdkSpec | NotOnSurface;
  },
): OperationDefinition {
  const pathArgs: Record<string, PathArgument> = { ...spec.pathArgs };
  const declared = new Set(Object.values(pathArgs).map((p) => p.param));
  const params = shapeOf(route.request?.params);
  for (const [, param] of route.path.matchAll(/\{([^}]+)\}/g)) {
    if (param === undefined || param === "agentId" || declared.has(param)) continue;
    pathArgs[snakeCase(param)] = { param, schema: params[param] ?? z.string().min(1) };
  }
  const queryArgs = spec.queryArgs ?? (route.method === "get" ? shapeOf(route.request?.query) : {});
  return {
    name: route.operationId,
    route,
    scope: spec.scope,
    pathArgs,
    queryArgs,
    fixedQuery: spec.fixedQuery ?? {},
    fixedBody: spec.fixedBody ?? {},
    tool: spec.tool,
    sdk: spec.sdk,
  };
}

export function onSdk(definition: OperationDefinition): definition is OperationDefinition & { sdk: SdkSpec } {
  return "example" in definition.sdk;
}

export function isTool(definition: OperationDefinition): definition is OperationDefinition & { tool: ToolSpec } {
  return "name" in definition.tool;
}

/** The zod schema of the route's JSON body, when it takes one. */
export function bodySchemaOf(route: RouteConfig): z.ZodObject | undefined {
  const media: unknown = route.request?.body?.content["application/json"];
  const schema: unknown = typeof media === "object" && media !== null && "schema" in media ? media.schema : undefined;
  return schema instanceof z.ZodObject ? schema : undefined;
}

/** Where each argument of the operation travels over HTTP (the SDK's binding, sdk/src/binding.ts). */
export function httpSpecOf(definition: OperationDefinition): OperationSpec {
  const { route } = definition;
  const headers: unknown = route.request?.headers;
  return {
    method: route.method.toUpperCase() as OperationSpec["method"],
    path: route.path,
    scope: route.path.includes("{agentId}") ? "agent" : "service",
    pathArgs: Object.fromEntries(Object.entries(definition.pathArgs).map(([arg, p]) => [arg, p.param])),
    queryArgs: Object.keys(definition.queryArgs),
    body: route.request?.body !== undefined,
    fixedQuery: definition.fixedQuery,
    fixedBody: definition.fixedBody,
    write: headers instanceof z.ZodObject && "idempotency-key" in headers.shape,
  };
}

/**
 * The operation's arguments as one strict object: path and query arguments as declared, then the
 * body's fields (less the fixed ones) with the body's own schemas, so a tool call is validated by
 * the same rules as the REST request. A rule across body fields (context: query or messages) is
 * checked by the route when the call reaches it.
 */
export function argumentsSchemaOf(definition: OperationDefinition): z.ZodObject {
  const body = bodySchemaOf(definition.route);
  const bodyShape = body ? Object.fromEntries(Object.entries(body.shape).filter(([k]) => !(k in definition.fixedBody))) : {};
  const pathShape = Object.fromEntries(Object.entries(definition.pathArgs).map(([arg, p]) => [arg, p.schema]));
  return z.object({ ...pathShape, ...definition.queryArgs, ...bodyShape }).strict();
}
