/**
 * A node's record as the API shows it (docs/design.md, "Memory operations"): every field of
 * NodeSchema (src/vocabulary/records.ts) under its snake_case name (`sourceTaskId` →
 * `source_task_id`). The node view, the memory listing and the export's node line are this, with
 * what each adds, so a field added to the record is shown, exported and imported with nothing
 * changed here or there.
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
export const NODE_FIELDS = fieldsShape(false);
/** The fields as a file of an earlier version may hold them: a field added since takes its default. */
export const STORED_NODE_FIELDS = fieldsShape(true);

export type NodeFields = z.output<z.ZodObject<typeof NODE_FIELDS>>;

/** A record under its API names (its meta a copy: an answer never shares the graph's object). */
export function nodeFields(node: MemoryNode): NodeFields {
  const fields: Record<string, unknown> = {};
  for (const key of NodeSchema.keyof().options) fields[snakeCase(key)] = node[key];
  fields.meta = node.meta === null ? null : { ...node.meta };
  // Every field of the record, renamed as SnakeCase renames it: what NodeFields says.
  return fields as NodeFields;
}

/** The record back from its API names (an imported node line), parsed with the record's schema. */
export function nodeOfFields(fields: NodeFields): MemoryNode {
  const named: Record<string, unknown> = fields;
  return NodeSchema.parse(Object.fromEntries(NodeSchema.keyof().options.map((key) => [key, named[snakeCase(key)]])));
}

/** What a view computes beside the record (docs/design.md, "The model"). */
const DERIVED_FIELDS = {
  /** The sum of its outgoing link strengths (docs/design.md, "The model"). */
  importance: z.number(),
  /** Memories this one contradicts (a 矛盾 link to a memory that still holds: docs/design.md, "Memory operations"). */
  conflicts_with: z.array(z.number().int()),
};

const { id: ID_FIELD, ...RECORD_FIELDS } = NODE_FIELDS;
const VIEW_FIELDS = { node_id: ID_FIELD, ...RECORD_FIELDS, ...DERIVED_FIELDS };
type ViewFields = typeof VIEW_FIELDS;

/**
 * The named fields of a node, in the order given, for a view that shows some of them (a search hit,
 * a recalled memory, a context memory, a version): the record's (its id as `node_id`) and the derived ones.
 */
export function viewFields<K extends keyof ViewFields>(...names: K[]): Pick<ViewFields, K> {
  const picked: Partial<Pick<ViewFields, K>> = {};
  for (const name of names) Object.assign(picked, { [name]: VIEW_FIELDS[name] });
  // Each name given, with its schema: what Pick says.
  return picked as Pick<ViewFields, K>;
}
