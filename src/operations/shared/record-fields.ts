/**
 * A node's whole record as the API carries it (docs/design.md, "Memory operations"): every field of
 * NodeSchema (src/vocabulary/records.ts) under its snake_case name (`sourceTaskId` →
 * `source_task_id`). The export's node line and the import are this, and the node view and the
 * memory listing fill their fields from it, so a field added to the record is exported and imported
 * with nothing changed here or there. The views' schemas pick their fields from node-fields.ts.
 */
import { z } from "zod";
import { snakeCase, type SnakeCase } from "../../text/snake-case";
import { NodeSchema, type MemoryNode } from "../../vocabulary/records";

type RecordShape = typeof NodeSchema.shape;
type WithoutDefault<S> = S extends z.ZodDefault<infer Inner> ? Inner : S;

/** The record's fields under their API names; `defaults`: kept (an import reads a file of an earlier version) or not (an answer's schema). */
type FieldsShape<Defaults extends boolean> = {
  [K in keyof RecordShape & string as SnakeCase<K>]: Defaults extends true ? RecordShape[K] : WithoutDefault<RecordShape[K]>;
};

function fieldsShape<D extends boolean>(defaults: D): FieldsShape<D> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(NodeSchema.shape))
    shape[snakeCase(key)] = !defaults && schema instanceof z.ZodDefault ? schema.unwrap() : schema;
  // The keys are the record's, renamed as SnakeCase renames them: the mapped type says the same.
  return shape as FieldsShape<D>;
}

/** The fields as an answer shows them (every one present: no defaults). */
export const RECORD_FIELDS = fieldsShape(false);
/** The fields as a file of an earlier version may hold them: a field added since takes its default. */
export const STORED_RECORD_FIELDS = fieldsShape(true);

export type RecordFields = z.output<z.ZodObject<typeof RECORD_FIELDS>>;

/** A record under its API names (its meta a copy: an answer never shares the graph's object). */
export function recordFields(node: MemoryNode): RecordFields {
  const fields: Record<string, unknown> = {};
  for (const key of NodeSchema.keyof().options) fields[snakeCase(key)] = node[key];
  fields.meta = node.meta === null ? null : { ...node.meta };
  // Every field of the record, renamed as SnakeCase renames it: what RecordFields says.
  return fields as RecordFields;
}

/** The record back from its API names (an imported node line), parsed with the record's schema. */
export function nodeOfRecordFields(fields: RecordFields): MemoryNode {
  const named: Record<string, unknown> = fields;
  return NodeSchema.parse(Object.fromEntries(NodeSchema.keyof().options.map((key) => [key, named[snakeCase(key)]])));
}
