/** The network snapshot read from an export written by the server's own format module (src/operations/shared/export-format.ts). */
import { describe, expect, it } from "vitest";
import { exportLines, type ExportSnapshot } from "../../../src/operations/shared/export-format";
import { DEFAULT_PARAMS } from "../../../src/config/params";
import { NetworkSnapshot, SnapshotError } from "../../src/api/snapshot";

const T = 1_790_000_000_000;

function node(id: number, kind: "segment" | "entity", content: string, pinned = false): ExportSnapshot["nodes"][number] {
  return {
    type: "node",
    id,
    kind,
    name: kind === "entity" ? content.toLowerCase() : null,
    content,
    original_length: content.length,
    phrase: content,
    keywords: [],
    role: kind === "entity" ? null : "user",
    speaker: null,
    source_message_ids: kind === "entity" ? [] : [`m${id}`],
    source_task_id: null,
    message_time: null,
    created_at: T,
    superseded_by: null,
    meta: null,
    pinned,
    scan_count: 2,
    reinforced_cycle: null,
  };
}

function link(source: number, target: number, relation: string, strength: number, pinned = false): ExportSnapshot["links"][number] {
  return { type: "link", source, target, relation, level: 0, strength, pinned, created_at: T };
}

const SNAPSHOT: ExportSnapshot = {
  header: {
    type: "header",
    format: "agent-memory-export",
    version: 1,
    exported_at: T,
    agent_id: "a",
    config: DEFAULT_PARAMS,
    clock: 0,
    cycle: 3,
    scan_cycles: 3,
    next_node_id: 10,
    counters: {},
  },
  focus: { type: "focus", entries: [{ node_id: 2, key: "alice", name: "Alice" }] },
  // Node 3 (Bob) was deleted: the link into it stays, dangling.
  nodes: [node(1, "segment", "Alice met Bob.", true), node(2, "entity", "Alice")],
  links: [link(1, 2, "关于", 0.25), link(1, 3, "关于", 0.125), link(2, 1, "关于", 1, true)],
  aliases: [],
  messages: ["m1"],
};

const text = () => [...exportLines(SNAPSHOT)].join("\n") + "\n";

describe("network snapshot from an export", () => {
  it("builds the node views GET nodes/:id gives: links both ways, dangling ends, importance, focus, the pin", () => {
    const snapshot = NetworkSnapshot.parse(text());
    expect(snapshot.size).toBe(2);
    expect(snapshot.has(3)).toBe(false);
    expect(snapshot.view(3)).toBeNull();
    const memory = snapshot.view(1);
    expect(memory).toMatchObject({
      node_id: 1,
      kind: "segment",
      content: "Alice met Bob.",
      in_focus: false,
      pinned: true,
      scan_count: 2,
      importance: 0.375,
    });
    expect(memory?.links.outgoing.map((l) => [l.target, l.dangling])).toEqual([
      [2, false],
      [3, true],
    ]);
    expect(memory?.links.incoming).toEqual([
      { source: 2, target: 1, relation: "关于", strength: 1, pinned: true, dangling: false, created_at: T },
    ]);
    expect(snapshot.view(2)).toMatchObject({ kind: "entity", name: "alice", in_focus: true, pinned: false, importance: 1 });
  });

  it("refuses another format or version, and a file cut short", () => {
    const lines = text().trim().split("\n");
    expect(() => NetworkSnapshot.parse(lines.slice(0, -1).join("\n"))).toThrow(SnapshotError);
    expect(() => NetworkSnapshot.parse(lines.slice(1).join("\n"))).toThrow(/not agent-memory-export version 1/);
    const v2 = [JSON.stringify({ ...SNAPSHOT.header, version: 2 }), ...lines.slice(1)].join("\n");
    expect(() => NetworkSnapshot.parse(v2)).toThrow(SnapshotError);
    expect(() => NetworkSnapshot.parse(`${lines.slice(0, 2).join("\n")}\n{oops\n`)).toThrow(/line 3/);
  });
});
