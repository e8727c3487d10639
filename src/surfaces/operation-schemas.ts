/**
 * JSON Schemas of an operation's arguments and answer, read from the API's own OpenAPI document
 * (so the tools describe their arguments with the document's descriptions and constraints, and
 * cannot disagree with it). Path and query arguments come from their zod schemas (src/surfaces/operation.ts).
 *
 * `inline: true` resolves every `$ref` and keeps only plain JSON Schema keywords: what LLM tool
 * formats and MCP take. `inline: false` keeps references to the document's components: what the
 * SDK generator turns into named types.
 */
import { z } from "zod";
import type { ToolDefinition } from "../../sdk/src/tools";
import { bodySchemaOf, isTool, type OperationDefinition } from "./operation";

export type JsonSchema = { [key: string]: unknown };

/** The parts of an OpenAPI 3.1 document read here. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown> | undefined> | undefined;
  components?: { schemas?: Record<string, unknown> | undefined } | undefined;
}

/** JSON Schema keywords kept in inlined schemas (OpenAI's and Anthropic's tool schemas take these). */
export const PLAIN_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "description",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
]);

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function component(doc: OpenApiDocument, ref: string): JsonSchema {
  const name = ref.replace("#/components/schemas/", "");
  const schema = doc.components?.schemas?.[name];
  if (!isRecord(schema)) throw new Error(`unresolved reference ${ref}`);
  return schema;
}

/** A schema with its references resolved and only plain keywords kept (oneOf read as anyOf). */
export function inlineSchema(schema: unknown, doc: OpenApiDocument): JsonSchema {
  if (!isRecord(schema)) return {};
  if (typeof schema.$ref === "string") return inlineSchema(component(doc, schema.$ref), doc);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const keyword = key === "oneOf" ? "anyOf" : key;
    if (!PLAIN_KEYWORDS.has(keyword)) continue;
    if (keyword === "properties" && isRecord(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inlineSchema(v, doc)]));
    } else if (keyword === "items" || (keyword === "additionalProperties" && isRecord(value))) {
      out[keyword] = inlineSchema(value, doc);
    } else if (keyword === "anyOf" && Array.isArray(value)) {
      out.anyOf = value.map((v) => inlineSchema(v, doc));
    } else out[keyword] = value;
  }
  return out;
}

function operationObject(definition: OperationDefinition, doc: OpenApiDocument): JsonSchema {
  const operation = doc.paths?.[definition.route.path]?.[definition.route.method];
  if (!isRecord(operation)) throw new Error(`${definition.name}: not in the OpenAPI document`);
  return operation;
}

function jsonContentSchema(holder: unknown): unknown {
  if (!isRecord(holder) || !isRecord(holder.content)) return undefined;
  const json = holder.content["application/json"];
  return isRecord(json) ? json.schema : undefined;
}

/** A zod schema of a path or query argument as JSON Schema (its `.describe()` text included). */
function argumentJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

/** The operation's arguments as one JSON Schema object (see argumentsSchemaOf for their validation). */
export function inputSchemaOf(definition: OperationDefinition, doc: OpenApiDocument, options: { inline: boolean }): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [arg, p] of Object.entries(definition.pathArgs)) {
    properties[arg] = argumentJsonSchema(p.schema);
    required.push(arg);
  }
  for (const [arg, schema] of Object.entries(definition.queryArgs)) {
    properties[arg] = argumentJsonSchema(schema);
    if (!schema.safeParse(undefined).success) required.push(arg);
  }
  if (bodySchemaOf(definition.route)) {
    const requestBody = operationObject(definition, doc).requestBody;
    const declared = jsonContentSchema(requestBody);
    const body = isRecord(declared) && typeof declared.$ref === "string" ? component(doc, declared.$ref) : declared;
    if (!isRecord(body) || !isRecord(body.properties)) throw new Error(`${definition.name}: the body is not an object schema`);
    for (const [field, schema] of Object.entries(body.properties)) {
      if (field in definition.fixedBody) continue;
      properties[field] = options.inline ? inlineSchema(schema, doc) : schema;
    }
    const bodyRequired = Array.isArray(body.required) ? body.required.filter((f): f is string => typeof f === "string") : [];
    required.push(...bodyRequired.filter((f) => !(f in definition.fixedBody)));
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** The JSON answers of the operation's success statuses: one schema, or `anyOf` of several. */
export function outputSchemaOf(definition: OperationDefinition, doc: OpenApiDocument, options: { inline: boolean }): JsonSchema {
  const responses = operationObject(definition, doc).responses;
  const schemas: unknown[] = [];
  if (isRecord(responses)) {
    for (const [status, response] of Object.entries(responses)) {
      const schema = /^2\d\d$/.test(status) ? jsonContentSchema(response) : undefined;
      if (schema !== undefined) schemas.push(schema);
    }
  }
  const resolve = (s: unknown): JsonSchema => (options.inline ? inlineSchema(s, doc) : isRecord(s) ? s : {});
  const [only] = schemas;
  if (schemas.length <= 1) return only === undefined ? {} : resolve(only);
  return { type: "object", anyOf: schemas.map(resolve) };
}

/** The tools among the operations, with inlined schemas (GET /v1/tools, MCP, the SDK's TOOLS). */
export function toolDefinitions(definitions: readonly OperationDefinition[], doc: OpenApiDocument): ToolDefinition[] {
  return definitions.filter(isTool).map((d) => ({
    name: d.tool.name,
    title: d.tool.title,
    description: d.tool.description,
    operation: d.name,
    inputSchema: inputSchemaOf(d, doc, { inline: true }),
    outputSchema: outputSchemaOf(d, doc, { inline: true }),
    annotations: d.tool.annotations,
  }));
}
