/** A memory node as the domain sees it (storage rows are parsed into this shape). */
import type { MessageRole } from "../models/types";

export type NodeKind = "segment" | "entity";

export interface MemoryNode {
  id: number;
  kind: NodeKind;
  /** Normalised entity key; null for segments. */
  name: string | null;
  content: string;
  originalLength: number;
  phrase: string;
  keywords: string[];
  role: MessageRole | null;
  speaker: string | null;
  sourceMessageIds: string[];
  sourceTaskId: string | null;
  messageTime: number | null;
  createdAt: number;
  scanCount: number;
  /** The last compression cycle that scanned the node (0: none yet). */
  scannedCycle: number;
}
