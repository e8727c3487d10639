/**
 * The tools (the operations whose definition names a tool) as the integration surfaces serve them:
 * by name for a call, and with their JSON Schemas, read once per app from its own OpenAPI document
 * (the document needs every route registered, so it is read on first use, not at registration).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ToolDefinition } from "../../sdk/src/tools";
import { toolDefinitions, type OpenApiDocument } from "./operation-schemas";
import type { AppEnv } from "../http/app-env";
import type { OperationDefinition } from "./operation";
import { toolBox, toolNamesOf, type ToolBox } from "./tool-call";

export interface Tools {
  /** The tools' names, in the order GET /v1/tools lists them. */
  names: readonly [string, ...string[]];
  box: ToolBox;
  /** The tools with their schemas, for one root app (GET /v1/tools and MCP share it). */
  catalog(app: OpenAPIHono<AppEnv>): readonly ToolDefinition[];
}

export function toolsOf(operations: readonly OperationDefinition[]): Tools {
  const catalogs = new WeakMap<OpenAPIHono<AppEnv>, readonly ToolDefinition[]>();
  return {
    names: toolNamesOf(operations),
    box: toolBox(operations),
    catalog(app) {
      let tools = catalogs.get(app);
      if (!tools) {
        tools = toolDefinitions(operations, openApiDocumentOf(app));
        catalogs.set(app, tools);
      }
      return tools;
    },
  };
}

/** The app's OpenAPI document as the schema readers take it (a plain JSON object). */
export function openApiDocumentOf(app: OpenAPIHono<AppEnv>): OpenApiDocument {
  const doc: unknown = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "tools", version: "0" } });
  return doc as OpenApiDocument;
}
