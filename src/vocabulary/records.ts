/**
 * The persisted shapes of the network (docs/design.md, "The model"), shared by the domain that
 * reasons about them and the storage that keeps them. Each record is declared once, as its stored
 * form (zod): the type is inferred from it, a write intent written by an earlier version of the code
 * is read with it (src/engine/write-table.ts), and a node's D1 row maps to it field by field
 * (src/storage/node-repo.ts). A field with a default is one that records written before it existed
 * lack: they read as the default.
 */
import { z } from "zod";
import { NODE_KINDS } from "./node-kinds";
import { MESSAGE_ROLES } from "./roles";

export const Id = z.number().int();

/** A memory node: a segment of conversation, an entity, an explicit memory or an episode. */
export const NodeSchema = z.object({
  id: Id,
  kind: z.enum(NODE_KINDS),
  /** Normalised entity key; null for every other kind. */
  name: z.string().nullable(),
  content: z.string(),
  /** Code points of the content when the node was created: compression targets are relative to it. */
  originalLength: z.number().int(),
  phrase: z.string(),
  keywords: z.array(z.string()),
  role: z.enum(MESSAGE_ROLES).nullable(),
  speaker: z.string().nullable(),
  /** The client's ids of the messages the node came from (provenance). */
  sourceMessageIds: z.array(z.string()),
  sourceTaskId: z.string().nullable(),
  /** The source messages' own time (ms since the epoch) when the client gave one. Metadata only. */
  messageTime: z.number().int().nullable(),
  createdAt: z.number().int(),
  /** The memory that corrected this one: it is history now, never an answer (docs/design.md, "Memory operations"). */
  supersededBy: Id.nullable().default(null),
  /** Kind-specific facts (an explicit memory's structure, an episode's participants and span). */
  meta: z.record(z.string(), z.unknown()).nullable().default(null),
  /**
   * A standing instruction (docs/design.md, "Pins"): outside forgetting (never compressed, evicted
   * or deleted by cycles; deleted only on purpose), listed first by the context block.
   */
  pinned: z.boolean().default(false),
});

export type MemoryNode = z.output<typeof NodeSchema>;
/** A new node as a task describes it: the fields with a default may be left out. */
export type NodeInput = z.input<typeof NodeSchema>;

/**
 * What a node may have set after it was written (the write patchNodes, src/memory/write-ops.ts): a
 * patch names some of these, the rest stay as they are. Its text changes only by compression
 * (updateText), its name and kind never.
 */
export const NodePatchSchema = z
  .object({ supersededBy: NodeSchema.shape.supersededBy.unwrap(), pinned: NodeSchema.shape.pinned.unwrap() })
  .partial()
  .strict();
export type NodePatch = z.output<typeof NodePatchSchema>;

/** A selection of nodes by the values of their plain fields (`{ kind: "episode" }`): every one given must match. */
export type NodeFilter = {
  [K in keyof MemoryNode as MemoryNode[K] extends string | number | boolean | null ? K : never]?: MemoryNode[K];
};

/** Whether a node has every value the filter names. */
export function matchesFilter(node: MemoryNode, filter: NodeFilter): boolean {
  const fields: Readonly<Record<string, unknown>> = node;
  for (const [key, value] of Object.entries(filter)) if (value !== undefined && fields[key] !== value) return false;
  return true;
}

/** A new node's record, the fields it leaves out at their defaults. */
export function newNode(input: NodeInput): MemoryNode {
  return NodeSchema.parse(input);
}

/** An alias of an entity: another name that leads to it (docs/design.md, "Memory operations", entity resolution). */
export const EntityAliasSchema = z.object({ key: z.string(), name: z.string(), nodeId: Id });
export type EntityAlias = z.output<typeof EntityAliasSchema>;

/** The unique key of a link: one link per (source, target, relation). */
export const LinkKeySchema = z.object({ source: Id, target: Id, relation: z.string() });
export type LinkKey = z.output<typeof LinkKeySchema>;

/**
 * A directed, named link owned by its source. Its strength is held as a log-level against the
 * agent's decay clock (src/memory/strength.ts).
 */
export interface LinkRecord extends LinkKey {
  level: number;
  createdAt: number;
}

/** A link as written: its level and the epoch (task sequence) that wrote it (src/memory/strength.ts). */
export const NewLinkSchema = LinkKeySchema.extend({ level: z.number(), epoch: Id, createdAt: z.number() });
export type NewLink = z.output<typeof NewLinkSchema>;

/** A link as read back: its effective level at the current focus, and whether it is pinned. */
export interface LinkState extends LinkRecord {
  pinned: boolean;
}

/** A node's text after compression: phrase and keywords re-extracted from the shorter content. */
export const TextUpdateSchema = z.object({
  id: Id,
  kind: z.enum(NODE_KINDS),
  speaker: z.string().nullable(),
  /** The node's message time, unchanged: its full-text document keeps its time terms. */
  messageTime: z.number().nullable().optional(),
  content: z.string(),
  phrase: z.string(),
  keywords: z.array(z.string()),
});
export type TextUpdate = z.output<typeof TextUpdateSchema>;
