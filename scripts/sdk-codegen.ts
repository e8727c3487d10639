/**
 * Writes the SDK's generated module (sdk/src/generated/operations.ts) from the server's operation
 * list and its OpenAPI document: the error codes, a TypeScript type per schema of the document,
 * each operation's input and output types and HTTP binding, the tools, one method per
 * operation, and how each tool operation's Workers RPC method takes its arguments. A pure function of its inputs: `npm run generate:sdk` writes its output, and
 * test-e2e/generated.test.ts (and .ci/run) fail when the committed file differs from it.
 */
import { inputSchemaOf, outputSchemaOf, toolDefinitions, type JsonSchema, type OpenApiDocument } from "../src/surfaces/operation-schemas";
import { httpSpecOf, isTool, onSdk, type OperationDefinition, type SdkSpec } from "../src/surfaces/operation";

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function docComment(text: unknown, indent: string): string {
  if (typeof text !== "string" || text.trim() === "") return "";
  const lines = text.replaceAll("*/", "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

/** A TypeScript type for a JSON Schema (the subset the document uses). */
export function tsType(schema: unknown, indent = ""): string {
  if (!isRecord(schema)) return "unknown";
  if (typeof schema.$ref === "string") return schema.$ref.replace("#/components/schemas/", "");
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union) {
    const rest = { ...schema, anyOf: undefined, oneOf: undefined };
    const base = schema.type === undefined && schema.properties === undefined ? undefined : tsType(rest, indent);
    const alternatives = [...new Set(union.map((s) => wrap(tsType(s, indent))))].join(" | ");
    return base && base !== "Record<string, unknown>" ? `${wrap(base)} & (${alternatives})` : alternatives;
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => wrap(tsType(s, indent))).join(" & ");
  if (Array.isArray(schema.type)) return schema.type.map((t) => wrap(tsType({ ...schema, type: t }, indent))).join(" | ");
  switch (schema.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `${wrap(tsType(schema.items, indent))}[]`;
    case "object":
      return objectType(schema, indent);
    default:
      return schema.properties ? objectType(schema, indent) : "unknown";
  }
}

function wrap(type: string): string {
  return /^[\w.$"'[\]<>, ]+$/.test(type) && !type.includes(" | ") ? type : `(${type})`;
}

function objectType(schema: JsonSchema, indent: string): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const extra = schema.additionalProperties;
  const inner = `${indent}  `;
  const members = Object.entries(properties).map(([name, s]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    const description = isRecord(s) ? s.description : undefined;
    return `${docComment(description, inner)}${inner}${key}${required.has(name) ? "" : "?"}: ${tsType(s, inner)};\n`;
  });
  if (extra !== undefined && extra !== false)
    members.push(`${inner}[key: string]: ${extra === true ? "unknown" : tsType(extra, inner)};\n`);
  if (members.length === 0) return "Record<string, unknown>";
  return `{\n${members.join("")}${indent}}`;
}

/**
 * An answer's schema as the client receives it: a field with a default is always there (the
 * server fills it in), though the schema, shared with requests in zod, lists it as optional.
 */
export function withDefaultsRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withDefaultsRequired);
  if (!isRecord(schema)) return schema;
  const out: JsonSchema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === "properties" ? v : withDefaultsRequired(v)]));
  if (isRecord(schema.properties)) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, withDefaultsRequired(v)]));
    const defaulted = Object.entries(schema.properties)
      .filter(([, v]) => isRecord(v) && "default" in v)
      .map(([k]) => k);
    const required = new Set([...(Array.isArray(schema.required) ? schema.required : []), ...defaulted]);
    if (required.size > 0) out.required = [...required];
  }
  return out;
}

/** Names of the components a request body uses (directly or through other components). */
function requestComponents(doc: OpenApiDocument): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isRecord(value)) return;
    if (typeof value.$ref === "string") {
      const name = value.$ref.replace("#/components/schemas/", "");
      if (found.has(name)) return;
      found.add(name);
      visit(doc.components?.schemas?.[name]);
      return;
    }
    Object.values(value).forEach(visit);
  };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) if (isRecord(operation)) visit(operation.requestBody);
  }
  return found;
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function typeDeclaration(name: string, schema: unknown): string {
  const type = tsType(schema);
  const comment = docComment(isRecord(schema) ? schema.description : undefined, "");
  return type.startsWith("{\n") ? `${comment}export interface ${name} ${type}\n` : `${comment}export type ${name} = ${type};\n`;
}

function hasRequired(schema: JsonSchema): boolean {
  return Array.isArray(schema.required) && schema.required.length > 0;
}

function isEmptyObject(schema: JsonSchema): boolean {
  return !isRecord(schema.properties) || Object.keys(schema.properties).length === 0;
}

function method(definition: OperationDefinition & { sdk: SdkSpec }, input: JsonSchema): string {
  const name = definition.name;
  const route = definition.route;
  const lines = [route.summary, route.description].filter((t): t is string => typeof t === "string" && t !== "");
  const example = `@example\n\`\`\`ts\n${definition.sdk.example.trim()}\n\`\`\``;
  const comment = docComment(`${lines.join("\n\n")}\n\n\`${route.method.toUpperCase()} ${route.path}\`\n\n${example}`, "  ");
  const output = `${pascal(name)}Output`;
  if (isEmptyObject(input)) {
    return `${comment}  ${name}(options?: RequestOptions): Promise<${output}> {\n    return this.invoke("${name}", undefined, options) as Promise<${output}>;\n  }\n`;
  }
  const optional = hasRequired(input) ? "" : "?";
  return `${comment}  ${name}(input${optional}: ${pascal(name)}Input, options?: RequestOptions): Promise<${output}> {\n    return this.invoke("${name}", input, options) as Promise<${output}>;\n  }\n`;
}

const HEADER = `// Generated by \`npm run generate:sdk\` (scripts/generate-sdk.ts) from the server's operation list
// (src/routes/index.ts, OPERATIONS) and its OpenAPI document. Do not edit: the tests fail when it is stale.
`;

export function generateSdkModule(
  doc: OpenApiDocument,
  definitions: readonly OperationDefinition[],
  errorStatus: Readonly<Record<string, number>>,
): string {
  const sdkMethods = definitions.filter(onSdk);
  const out: string[] = [HEADER];
  out.push(
    `import type { OperationSpec } from "../binding.js";\nimport type { RequestOptions } from "../options.js";\nimport type { ToolDefinition } from "../tools.js";\n\n`,
  );
  out.push(
    `/** Every error code of the API and its one HTTP status. */\nexport const ERROR_STATUS = ${JSON.stringify(errorStatus, null, 2)} as const;\n\nexport type ErrorCode = keyof typeof ERROR_STATUS;\n\n`,
  );
  out.push(`// Schemas of the API's OpenAPI document.\n\n`);
  const inRequests = requestComponents(doc);
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    out.push(`${typeDeclaration(name, inRequests.has(name) ? schema : withDefaultsRequired(schema))}\n`);
  }
  out.push(`// Each operation's arguments (one flat object: path, query and body fields) and answer.\n\n`);
  const inputs = new Map<string, JsonSchema>();
  for (const d of sdkMethods) {
    const input = inputSchemaOf(d, doc, { inline: false });
    inputs.set(d.name, input);
    if (!isEmptyObject(input)) out.push(typeDeclaration(`${pascal(d.name)}Input`, input));
    out.push(`${typeDeclaration(`${pascal(d.name)}Output`, withDefaultsRequired(outputSchemaOf(d, doc, { inline: false })))}\n`);
  }
  const specs = Object.fromEntries(sdkMethods.map((d) => [d.name, httpSpecOf(d)]));
  out.push(
    `/** How each operation's arguments travel over HTTP (sdk/src/binding.ts). */\nexport const OPERATIONS = ${JSON.stringify(specs, null, 2)} as const satisfies Record<string, OperationSpec>;\n\n`,
  );
  out.push(`export type OperationName = keyof typeof OPERATIONS;\n\n`);
  const io = sdkMethods.map(
    (d) =>
      `  ${d.name}: { input: ${isEmptyObject(inputs.get(d.name) ?? {}) ? "undefined" : `${pascal(d.name)}Input`}; output: ${pascal(d.name)}Output };\n`,
  );
  out.push(`/** Input and output types by operation. */\nexport interface OperationTypes {\n${io.join("")}}\n\n`);
  const rpc = sdkMethods.filter(isTool).map((d) => {
    const input = inputs.get(d.name) ?? {};
    const args = { input: isEmptyObject(input) ? "none" : hasRequired(input) ? "required" : "optional", write: httpSpecOf(d).write };
    if (d.sdk.binding === undefined) throw new Error(`${d.name}: a Workers RPC method needs sdk.binding, its example through env.MEMORY`);
    const example = docComment(`@example\n\`\`\`ts\n${d.sdk.binding.trim()}\n\`\`\``, "  ");
    return `${example}  ${JSON.stringify(d.name)}: ${JSON.stringify(args, null, 2).replaceAll("\n", "\n  ")},\n`;
  });
  out.push(
    `/**\n * The Workers RPC entrypoint's methods (sdk/src/rpc-binding.ts): one per tool operation, the agent id\n * first, then its input (none, optional or required) and, for a write, the Idempotency-Key; each\n * with its call through a service binding as its \`@example\` (what MemoryBinding's method shows).\n */\nexport const RPC_METHODS = {\n${rpc.join("")}} as const;\n\n`,
  );
  out.push(
    `/** The function-calling and MCP tools (GET /v1/tools serves the same). */\nexport const TOOLS: readonly ToolDefinition[] = ${JSON.stringify(toolDefinitions(definitions, doc), null, 2)};\n\n`,
  );
  for (const scope of ["agent", "service"] as const) {
    const members = sdkMethods.filter((d) => httpSpecOf(d).scope === scope);
    const className = scope === "agent" ? "AgentOperations" : "ServiceOperations";
    const what = scope === "agent" ? "one agent's operations (the agent of the path)" : "the operations of the API itself";
    out.push(`/** Methods for ${what}: one per operation. */\nexport abstract class ${className} {\n`);
    out.push(
      `  protected abstract invoke(name: OperationName, input: object | undefined, options: RequestOptions | undefined): Promise<unknown>;\n\n`,
    );
    out.push(members.map((d) => method(d, inputs.get(d.name) ?? {})).join("\n"));
    out.push(`}\n\n`);
  }
  return `${out.join("").trimEnd()}\n`;
}
