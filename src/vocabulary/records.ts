/**
 * The persisted shapes of the network (docs/design.md, "The model"), shared by the domain that reasons about them
 * and the storage that keeps them.
 */
import type { NodeKind } from "./node-kinds";
import type { MessageRole } from "./roles";

/** A memory node: a segment of conversation or an entity. */
export interface MemoryNode {
  id: number;
  kind: NodeKind;
  /** Normalised entity key; null for segments. */
  name: string | null;
  content: string;
  /** Code points of the content when the node was created: compression targets are relative to it. */
  originalLength: number;
  phrase: string;
  keywords: string[];
  role: MessageRole | null;
  speaker: string | null;
  /** The client's ids of the messages the node came from (provenance). */
  sourceMessageIds: string[];
  sourceTaskId: string | null;
  /** The source messages' own time (ms since the epoch) when the client gave one. Metadata only. */
  messageTime: number | null;
  createdAt: number;
  /** The memory that corrected this one: it is history now, never an answer (docs/design.md, "Memory operations"). */
  supersededBy: number | null;
  /** Kind-specific facts (an explicit memory's structure, an episode's participants and span). */
  meta: NodeMeta | null;
}

/** A JSON object of kind-specific facts, parsed by the module that owns the kind. */
export type NodeMeta = Readonly<Record<string, unknown>>;

/** An alias of an entity: another name that leads to it (docs/design.md, "Memory operations", entity resolution). */
export interface EntityAlias {
  key: string;
  name: string;
  nodeId: number;
}

/** The unique key of a link: one link per (source, target, relation). */
export interface LinkKey {
  source: number;
  target: number;
  relation: string;
}

/**
 * A directed, named link owned by its source. Its strength is held as a log-level against the
 * agent's decay clock (src/memory/strength.ts).
 */
export interface LinkRecord extends LinkKey {
  level: number;
  createdAt: number;
}

/** A link as written: its level and the epoch (task sequence) that wrote it (src/memory/strength.ts). */
export interface NewLink extends LinkRecord {
  epoch: number;
}

/** A link as read back: its effective level at the current focus, and whether it is pinned. */
export interface LinkState extends LinkRecord {
  pinned: boolean;
}

/** A node's text after compression: phrase and keywords re-extracted from the shorter content. */
export interface TextUpdate {
  id: number;
  kind: NodeKind;
  speaker: string | null;
  /** The node's message time, unchanged: its full-text document keeps its time terms. */
  messageTime?: number | null;
  content: string;
  phrase: string;
  keywords: string[];
}
