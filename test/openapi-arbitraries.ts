/**
 * fast-check arbitraries derived from the API's own OpenAPI document (/v1/openapi.json): its
 * operations, values that fit their parameter and body schemas, and mutations of those values.
 * The property tests (test/properties.test.ts) list the endpoints from the document, so an endpoint
 * added to the API is exercised without touching them.
 */
import fc from "fast-check";
import { z } from "zod";

/** The subset of JSON Schema (OpenAPI 3.1) that the document uses. */
export interface JsonSchema {
  $ref?: string | undefined;
  /** A type, or several (["string", "null"] for a nullable string). */
  type?: string | string[] | undefined;
  enum?: unknown[] | undefined;
  properties?: Record<string, JsonSchema> | undefined;
  required?: string[] | undefined;
  items?: JsonSchema | undefined;
  anyOf?: JsonSchema[] | undefined;
  oneOf?: JsonSchema[] | undefined;
  minItems?: number | undefined;
  maxItems?: number | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  pattern?: string | undefined;
  format?: string | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  exclusiveMinimum?: number | undefined;
  exclusiveMaximum?: number | undefined;
}

const JsonSchemaSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.object({
    $ref: z.string().optional(),
    type: z.union([z.string(), z.array(z.string())]).optional(),
    enum: z.array(z.unknown()).optional(),
    properties: z.record(z.string(), JsonSchemaSchema).optional(),
    required: z.array(z.string()).optional(),
    items: JsonSchemaSchema.optional(),
    anyOf: z.array(JsonSchemaSchema).optional(),
    oneOf: z.array(JsonSchemaSchema).optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    pattern: z.string().optional(),
    format: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
  }),
);

const ParameterSchema = z.object({
  name: z.string(),
  in: z.enum(["path", "query", "header", "cookie"]),
  required: z.boolean().optional(),
  schema: JsonSchemaSchema,
});

const OperationSchema = z.object({
  parameters: z.array(ParameterSchema).optional(),
  requestBody: z
    .object({ required: z.boolean().optional(), content: z.record(z.string(), z.object({ schema: JsonSchemaSchema })) })
    .optional(),
  responses: z.record(z.string(), z.unknown()),
});

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const DocumentSchema = z.object({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.object({ schemas: z.record(z.string(), JsonSchemaSchema) }),
});

export type Parameter = z.infer<typeof ParameterSchema>;

export interface Operation {
  method: string;
  /** The path template, `/v1/agents/{agentId}/remember`. */
  template: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body: { schema: JsonSchema; required: boolean } | undefined;
  /** The statuses the document declares. */
  statuses: Set<number>;
}

export interface ApiDescription {
  operations: Operation[];
  components: Record<string, JsonSchema>;
}

/** Parses the document (outside data: parsed, never cast) into its operations. */
export function describeApi(document: unknown): ApiDescription {
  const doc = DocumentSchema.parse(document);
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      if (item[method] === undefined) continue;
      const op = OperationSchema.parse(item[method]);
      const json = op.requestBody?.content["application/json"];
      operations.push({
        method: method.toUpperCase(),
        template,
        parameters: op.parameters ?? [],
        body: json ? { schema: json.schema, required: op.requestBody?.required ?? false } : undefined,
        statuses: new Set(Object.keys(op.responses).map(Number)),
      });
    }
  }
  return { operations, components: doc.components.schemas };
}

/** Longest string, array and number magnitudes generated for "valid" values: small keeps agents cheap. */
const MAX_STRING = 40;
const MAX_ITEMS = 3;

const words = fc
  .array(fc.constantFrom("Alice", "Bob", "Berlin", "budget", "login", "JWT", "用户", "登录", "设计", "the", "moved", "on", "Friday", "."), {
    minLength: 1,
    maxLength: 8,
  })
  .map((w) => w.join(" "));

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern));
  if (schema.format === "date-time") {
    return fc
      .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2200-01-01T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
  return fc
    .oneof({ arbitrary: words, weight: 4 }, { arbitrary: fc.string({ unit: "grapheme", maxLength }), weight: 1 })
    .filter((s) => [...s].length >= minLength && [...s].length <= maxLength);
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? schema.exclusiveMinimum ?? (integer ? -1000 : -2e12);
  const high = schema.maximum ?? schema.exclusiveMaximum ?? (integer ? 1000 : 2e12);
  const base = integer ? fc.integer({ min: Math.ceil(low), max: Math.floor(high) }) : fc.double({ min: low, max: high, noNaN: true });
  return base.filter((n) => n !== schema.exclusiveMinimum && n !== schema.exclusiveMaximum);
}

/**
 * Values that fit `schema` (as far as JSON Schema says: a refinement such as "not blank" may still
 * refuse some, which the properties accept as long as the answer is a 4xx that wrote nothing).
 */
export function valueFor(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = components[name];
    if (target === undefined) throw new Error(`unresolved $ref ${schema.$ref}`);
    return valueFor(target, components, depth);
  }
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return fc.oneof(...alternatives.map((s) => valueFor(s, components, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const properties = schema.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(properties)) model[key] = valueFor(property, components, depth + 1);
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    case "array": {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS));
      return fc.array(schema.items ? valueFor(schema.items, components, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength,
        maxLength,
      });
    }
    case "string":
      return stringFor(schema);
    case "integer":
      return numberFor(schema, true);
    case "number":
      return numberFor(schema, false);
    case "boolean":
      return fc.boolean();
    default:
      return fc.jsonValue({ maxDepth: Math.max(0, 2 - depth) });
  }
}

/** A place inside a JSON value: the container and the key (or index) in it. */
type Place = { container: Record<string, unknown> | unknown[]; key: string | number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function placesIn(value: unknown, out: Place[] = []): Place[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push({ container: value, key: i });
      placesIn(item, out);
    });
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      out.push({ container: value, key });
      placesIn(item, out);
    }
  }
  return out;
}

function containersIn(value: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (Array.isArray(value)) {
    out.push(value);
    for (const item of value) containersIn(item, out);
  } else if (isRecord(value)) {
    out.push(value);
    for (const item of Object.values(value)) containersIn(item, out);
  }
  return out;
}

/** A 40 000-character string: beyond every per-field limit, well under the body limit. */
const LONG_TEXT = "长".repeat(40_000);

export type Mutation =
  | { op: "remove"; at: number }
  | { op: "add"; at: number; key: string; value: unknown }
  | { op: "retype"; at: number; value: unknown }
  | { op: "huge"; at: number }
  | { op: "surrogate"; at: number }
  | { op: "replace"; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("remove" as const), at: fc.nat() }),
  fc.record({
    op: fc.constant("add" as const),
    at: fc.nat(),
    key: fc.oneof(fc.constantFrom("agentId", "tenant", "extra", "__proto__", "constructor", ""), fc.string({ maxLength: 8 })),
    value: fc.jsonValue({ maxDepth: 1 }),
  }),
  fc.record({ op: fc.constant("retype" as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ op: fc.constant("huge" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("surrogate" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("replace" as const), value: fc.jsonValue({ maxDepth: 2 }) }),
);

/** Applies a mutation to a copy of `value` (a pure function of both, so a failure reproduces). */
export function mutate(value: unknown, m: Mutation): unknown {
  if (m.op === "replace") return m.value;
  const copy: unknown = structuredClone(value);
  if (m.op === "add") {
    const containers = containersIn(copy);
    const target = containers[m.at % Math.max(1, containers.length)];
    if (target === undefined) return copy;
    if (Array.isArray(target)) target.push(m.value);
    // defineProperty, so "__proto__" becomes an own key of the JSON text, as a client could send it.
    else Object.defineProperty(target, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
    return copy;
  }
  const places = placesIn(copy);
  const place = places[m.at % Math.max(1, places.length)];
  if (place === undefined) return copy;
  const { container, key } = place;
  const current = Array.isArray(container) ? container[Number(key)] : container[String(key)];
  const set = (v: unknown) => (Array.isArray(container) ? (container[Number(key)] = v) : (container[String(key)] = v));
  switch (m.op) {
    case "remove":
      if (Array.isArray(container)) container.splice(Number(key), 1);
      else delete container[String(key)];
      break;
    case "retype":
      set(m.value);
      break;
    case "huge":
      set(typeof current === "number" ? 1e308 : Array.isArray(current) ? Array.from({ length: 600 }, () => current[0] ?? 1) : LONG_TEXT);
      break;
    case "surrogate":
      set(typeof current === "string" ? `${current}\ud800` : "\udc00");
      break;
  }
  return copy;
}
