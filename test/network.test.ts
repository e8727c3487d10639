import { describe, expect, it } from "vitest";
import { RELATION } from "../src/vocabulary/relations";
import { PINNED_LEVEL, strengthAt } from "../src/memory/strength";
import { LocalModel } from "../src/models/local/local-model";
import { CHINESE_DESIGN_REVIEW, ENGLISH_TEAM, messages } from "./fixtures";
import { agentRows, call, freshAgent, json, rememberAndWait, type Msg } from "./helpers";
import { linksAsTheyStand } from "./agent-access";

interface NodeRow {
  id: number;
  kind: string;
  name: string | null;
  content: string;
}
interface LinkRow {
  source: number;
  target: number;
  relation: string;
  level: number;
}

async function network(agentId: string) {
  const { db, key } = await agentRows(agentId);
  const nodes = (await db.prepare("SELECT id, kind, name, content FROM nodes WHERE agent = ? ORDER BY id").bind(key).all<NodeRow>())
    .results;
  // Levels as they stand: pinned while an end is in the focus.
  const links: LinkRow[] = await linksAsTheyStand(agentId);
  const byContent = (content: string) => nodes.find((n) => n.content === content)?.id ?? -1;
  const link = (source: number, target: number) => links.find((l) => l.source === source && l.target === target);
  return { nodes, links, byContent, link };
}

async function focusNames(agentId: string): Promise<string[]> {
  const focus = await json<{ focus: { name: string }[] }>(await call(`/v1/agents/${agentId}/focus`));
  return focus.focus.map((f) => f.name);
}

const english: Msg[] = messages(ENGLISH_TEAM, "e");

const chinese: Msg[] = messages(CHINESE_DESIGN_REVIEW, "z");

describe("the network after a known conversation", () => {
  it("relies on these extractions (the local model is deterministic)", async () => {
    const model = new LocalModel();
    const segments = await model.segment(english.map((m, index) => ({ index, role: m.role, content: m.content })));
    expect(segments.map((s) => s.text)).toEqual(english.map((m) => m.content));
    expect((await model.extract(segments.map((s) => s.text))).map((e) => e.entities)).toEqual([
      // A name heading a compound is an entity of its own: the Phoenix of the project and the roadmap.
      ["Alice", "Phoenix", "Phoenix project"],
      ["Phoenix", "Phoenix project", "Bob"], // "March" is a month: a keyword, never an entity
      ["Carol", "Dave", "budget"],
      ["Frank", "Erin", "Tokyo trip", "Tokyo"],
      ["Grace", "login bug"],
    ]);
    const zh = await model.extract(chinese.map((m) => m.content));
    // jieba tags 前端|组, 第三方 and 需求 as a localiser, a numeral and a verb: the second names nothing.
    expect(zh.map((e) => e.entities)).toEqual([["用户系统", "模块设计", "JWT"], [], ["安全性", "架构评审", "短时效"]]);
  });

  it("has exactly the nodes, links, strengths and relations docs/design.md §4 prescribes", async () => {
    const agent = freshAgent("net");
    // The network as remember writes it: no compression cycle after it (test/forgetting.test.ts).
    await call(`/v1/agents/${agent}/config`, { method: "PUT", body: { auto_compress: false } });
    const task = await rememberAndWait(agent, english);
    const { nodes, links, byContent, link } = await network(agent);
    // 5 segments + 13 distinct entities (Phoenix and the Phoenix project are mentioned twice, one node each).
    expect(nodes.filter((n) => n.kind === "segment")).toHaveLength(5);
    expect(
      nodes
        .filter((n) => n.kind === "entity")
        .map((n) => n.content)
        .sort(),
    ).toEqual(
      [
        "Alice",
        "Bob",
        "Carol",
        "Dave",
        "Erin",
        "Frank",
        "Grace",
        "Phoenix",
        "Phoenix project",
        "Tokyo",
        "Tokyo trip",
        "budget",
        "login bug",
      ].sort(),
    );
    // Focus sizes after each segment: 3, 4, 5, 5, 5 → 2 × 22 focus links; 4 neighbour pairs × 2;
    // the submission's episode (docs/design.md §12) ↔ each of the 5 segments.
    expect(links).toHaveLength(44 + 8 + 10);
    expect(task.result).toMatchObject({ segments: 5, nodes_created: 19, entities_created: 13, links_created: 62 });
    const episode = nodes.find((n) => n.kind === "episode");
    expect(episode).toBeDefined();
    expect(task.result?.episode_id).toBe(episode?.id);

    const [s0, s1, s2, s3, s4] = english.map((m) => byContent(m.content)) as [number, number, number, number, number];
    const entity = (name: string) => byContent(name);
    // Consecutive segments: A → B 下文, B → A 上文, at link_initial_strength 0.5.
    for (const [a, b] of [
      [s0, s1],
      [s1, s2],
      [s2, s3],
      [s3, s4],
    ] as const) {
      expect(link(a, b)?.relation).toBe(RELATION.next);
      expect(link(b, a)?.relation).toBe(RELATION.previous);
      expect(strengthAt(link(a, b)?.level ?? -99, 0)).toBeCloseTo(0.5, 12);
      expect(strengthAt(link(b, a)?.level ?? -99, 0)).toBeCloseTo(0.5, 12);
    }
    // Segment ↔ focus at strength 1, both ways; named 关于 when mentioned, 相关 otherwise.
    expect(link(s0, entity("Alice"))?.relation).toBe(RELATION.about);
    expect(link(entity("Alice"), s0)?.relation).toBe(RELATION.about);
    expect(link(s2, entity("Phoenix project"))?.relation).toBe(RELATION.context);
    expect(link(s4, entity("Tokyo trip"))?.relation).toBe(RELATION.context);
    // Pinned (exempt from decay) while the entity is in focus; plain strength 1 once it left.
    expect(link(s4, entity("Grace"))?.level).toBe(PINNED_LEVEL);
    expect(link(s3, entity("Frank"))?.level).toBe(PINNED_LEVEL);
    expect(link(s2, entity("Dave"))?.level).toBeLessThan(PINNED_LEVEL);
    expect(link(s0, entity("Alice"))?.level).toBeLessThan(PINNED_LEVEL);
    expect(strengthAt(link(s0, entity("Alice"))?.level ?? -99, 0)).toBe(1);
    // The episode contains every segment (包含) and every segment is part of it (属于), at 0.5.
    for (const segment of [s0, s1, s2, s3, s4]) {
      expect(link(episode?.id ?? -1, segment)?.relation).toBe(RELATION.contains);
      expect(link(segment, episode?.id ?? -1)?.relation).toBe(RELATION.partOf);
      expect(strengthAt(link(segment, episode?.id ?? -1)?.level ?? -99, 0)).toBeCloseTo(0.5, 12);
    }
    // No link between a segment and an entity that was not in focus when it was remembered.
    expect(link(s0, entity("Grace"))).toBeUndefined();
    expect(link(s4, entity("Alice"))).toBeUndefined();
    // Focus entities get no links among themselves.
    const entityIds = new Set(nodes.filter((n) => n.kind === "entity").map((n) => n.id));
    expect(links.filter((l) => entityIds.has(l.source) && entityIds.has(l.target))).toEqual([]);

    expect(await focusNames(agent)).toEqual(["Grace", "login bug", "Frank", "Erin", "Tokyo trip"]);
  });

  it("evicts the oldest entity when a sixth enters the focus (Chinese)", async () => {
    const agent = freshAgent("lru");
    await rememberAndWait(agent, chinese);
    expect(await focusNames(agent)).toEqual(["安全性", "架构评审", "短时效", "用户系统", "模块设计"]);
    const { links, byContent, link } = await network(agent);
    const oldest = byContent("JWT");
    expect(oldest).toBeGreaterThan(0);
    // Its links keep their strength (1) but are no longer pinned.
    const incident = links.filter((l) => l.source === oldest || l.target === oldest);
    expect(incident.length).toBeGreaterThan(0);
    expect(incident.every((l) => l.level < PINNED_LEVEL && strengthAt(l.level, 0) === 1)).toBe(true);
    expect(link(byContent(chinese[2]!.content), byContent("用户系统"))?.level).toBe(PINNED_LEVEL);
  });

  it("reuses an entity across remembers and pins its old links again when it re-enters focus", async () => {
    const agent = freshAgent("reuse");
    await rememberAndWait(agent, english);
    await rememberAndWait(agent, [{ role: "user", content: "alice presented the Phoenix roadmap today." }]);
    const { nodes, links, byContent } = await network(agent);
    expect(nodes.filter((n) => n.content === "Alice" || n.name === "alice")).toHaveLength(1);
    const alice = byContent("Alice");
    const fromFirst = links.filter((l) => (l.source === alice || l.target === alice) && l.level === PINNED_LEVEL);
    // Alice's links from the first remember (she was in focus for segments 0 and 1: 2 links
    // each) are pinned again, plus the 2 with the new segment.
    expect(fromFirst).toHaveLength(6);
    expect((await focusNames(agent)).slice(0, 3).sort()).toEqual(["Alice", "Phoenix", "Phoenix roadmap"]);
  });
});
