/**
 * The tools with their JSON Schemas, read once per app from its own OpenAPI document (the
 * document needs every route registered, so it is read on first use, not at registration).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ToolDefinition } from "../../sdk/src/tools";
import { toolDefinitions, type OpenApiDocument } from "./operation-schemas";
import type { AppEnv } from "../http/app-env";
import type { OperationDefinition } from "./operation";

export type ToolCatalog = () => readonly ToolDefinition[];

export function toolCatalog(app: OpenAPIHono<AppEnv>, operations: readonly OperationDefinition[]): ToolCatalog {
  let tools: readonly ToolDefinition[] | undefined;
  return () => {
    tools ??= toolDefinitions(operations, openApiDocumentOf(app));
    return tools;
  };
}

/** The app's OpenAPI document as the schema readers take it (a plain JSON object). */
export function openApiDocumentOf(app: OpenAPIHono<AppEnv>): OpenApiDocument {
  const doc: unknown = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "tools", version: "0" } });
  return doc as OpenApiDocument;
}
