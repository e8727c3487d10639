import { newNode, type MemoryNode } from "../../src/vocabulary/records";

/** A stored node for the pure tests: a segment with placeholder text unless told otherwise. */
export function memoryNode(id: number, fields: Partial<MemoryNode> = {}): MemoryNode {
  return newNode({
    id,
    kind: "segment",
    name: null,
    content: `node ${id}`,
    originalLength: 6,
    phrase: "",
    keywords: [],
    role: null,
    speaker: null,
    sourceMessageIds: [],
    sourceTaskId: null,
    messageTime: null,
    createdAt: 0,
    ...fields,
  });
}
