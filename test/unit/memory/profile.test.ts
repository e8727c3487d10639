import { describe, expect, it } from "vitest";
import { assembleContext } from "../../../src/memory/context-block";
import { buildProfile } from "../../../src/memory/profile";
import type { MemoryNode } from "../../../src/vocabulary/records";
import { RELATION } from "../../../src/vocabulary/relations";

const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);

describe("the pure pieces", () => {
  it("a profile entity shows the memories that name it before those it was only in focus for; lists stay one item per line", () => {
    const node = (id: number, kind: MemoryNode["kind"], content: string): MemoryNode => ({
      id,
      kind,
      name: kind === "entity" ? content.toLowerCase() : null,
      content,
      originalLength: content.length,
      phrase: content,
      keywords: [],
      speaker: null,
      role: "user",
      sourceMessageIds: [`m${id}`],
      sourceTaskId: null,
      messageTime: null,
      createdAt: T0,
      supersededBy: null,
      meta: null,
    });
    const jwt = node(10, "entity", "JWT");
    const profile = buildProfile({
      memories: [
        node(1, "segment", "We chose JWT."),
        node(2, "segment", "Frontend wants SSO.\nLater."),
        node(3, "segment", "Short tokens."),
      ],
      entities: [
        {
          node: jwt,
          links: [
            { target: 2, relation: RELATION.context, strength: 1 },
            { target: 3, relation: RELATION.context, strength: 1 },
            { target: 1, relation: RELATION.about, strength: 0.97 },
          ],
        },
      ],
      focus: [],
      limits: { participants: 5, entities: 5, memoriesPerEntity: 2 },
    });
    expect(profile.entities[0]?.memories.map((m) => m.node_id)).toEqual([1, 3]);
    const block = assembleContext(
      {
        memories: [],
        episodes: [
          { node_id: 20, summary: "Alice: one\nBob: two", participants: ["Alice", "Bob"], from: null, to: null, remembered_at: T0 },
        ],
        profile: {
          ...profile,
          entities: [
            {
              node_id: 10,
              name: "JWT",
              importance: 3,
              memories: [
                { node_id: 2, content: "Frontend wants SSO.\nLater.", strength: 1 },
                { node_id: 1, content: "We chose JWT", strength: 1 },
              ],
            },
          ],
        },
        traces: [],
        pastFirst: true,
      },
      1000,
      "en",
    );
    expect(block.text).toContain("- JWT: Frontend wants SSO. Later. We chose JWT");
    expect(block.text).toContain(`- Alice: one\n  Bob: two (Alice, Bob; ${new Date(T0).toISOString().slice(0, 10)})`);
  });
});
