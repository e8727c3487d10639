import { describe, expect, it } from "vitest";
import { z } from "zod";
import { NODE_FIELDS, nodeFields, nodeOfFields, STORED_NODE_FIELDS } from "../../../src/operations/shared/node-fields";
import { snakeCase } from "../../../src/text/snake-case";
import { newNode, NodeSchema } from "../../../src/vocabulary/records";

const node = newNode({
  id: 7,
  kind: "memory",
  name: null,
  content: "Ann prefers tea",
  originalLength: 15,
  phrase: "Ann prefers tea",
  keywords: ["Ann", "tea"],
  role: "user",
  speaker: "Ann",
  sourceMessageIds: ["m1"],
  sourceTaskId: "tsk_1",
  messageTime: 1_700_000_000_000,
  createdAt: 1_700_000_000_500,
  meta: { memory_type: "opinion" },
});

describe("a node's fields as the API shows them", () => {
  it("are every field of the record under its snake_case name", () => {
    expect(Object.keys(NODE_FIELDS)).toEqual(NodeSchema.keyof().options.map(snakeCase));
    expect(nodeFields(node)).toMatchObject({ id: 7, source_message_ids: ["m1"], source_task_id: "tsk_1", superseded_by: null });
    expect(z.object(NODE_FIELDS).strict().parse(nodeFields(node))).toEqual(nodeFields(node));
  });

  it("go back to the same record, and copy the meta object rather than share it", () => {
    const fields = nodeFields(node);
    expect(nodeOfFields(fields)).toEqual(node);
    expect(fields.meta).not.toBe(node.meta);
  });

  it("as stored, let a field added since a file was written take its default; as answered, every field is required", () => {
    const { superseded_by: _s, meta: _m, ...older } = nodeFields(node);
    expect(z.object(STORED_NODE_FIELDS).parse(older)).toMatchObject({ superseded_by: null, meta: null });
    expect(z.object(NODE_FIELDS).safeParse(older).success).toBe(false);
  });
});
