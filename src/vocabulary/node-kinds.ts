/**
 * The kinds of memory node (docs/design.md, "The model"): a `segment` is a piece of conversation, an
 * `entity` a key entity the memories are about, a `memory` an explicit memory an agent wrote
 * itself (docs/design.md, "Memory operations"), an `episode` the summary of one remembered submission ("Context for prompts"). The
 * one list every layer imports (schemas, storage, vectors).
 */
export const NODE_KINDS = ["segment", "entity", "memory", "episode"] as const;

export type NodeKind = (typeof NODE_KINDS)[number];

/**
 * The kinds that are memories: what listings return. Entities are hubs the network passes
 * through, never a memory of their own.
 */
export const MEMORY_KINDS = ["segment", "memory", "episode"] as const satisfies readonly NodeKind[];
