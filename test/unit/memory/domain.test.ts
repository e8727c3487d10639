import { describe, expect, it } from "vitest";
import { breadthFirst, type Edge } from "../../../src/memory/bfs";
import { pickEvictions, sampleIds, seededRandom } from "../../../src/memory/capacity";
import { planScan } from "../../../src/memory/compression-plan";
import { touchFocus, type FocusEntry } from "../../../src/memory/focus-lru";
import { formatRecall } from "../../../src/memory/format";
import { importanceOf, retainedShare } from "../../../src/memory/importance";
import { FieldScorer, type FieldWeights } from "../../../src/memory/field-score";
import { fuseScores, normalisedScores } from "../../../src/memory/fusion";
import { asksQuestion, recallMemories, type RecallNetwork } from "../../../src/memory/recall-engine";
import { importanceNeeded, networkPrior, rankMemories, scoreMemories, type RankedMemory } from "../../../src/memory/ranking";
import { bm25Idf, BM25_K1 } from "../../../src/search/bm25-index";
import { documentFields, ftsDocument, timeTerms } from "../../../src/search/fts-text";
import { indexTerms, queryTerms } from "../../../src/text/index-terms";
import { MemoryGraph } from "../../../src/memory/graph";
import type { NetworkOp } from "../../../src/memory/write-ops";
import { writeKind } from "../../../src/engine/write-table";
import { newNode, type MemoryNode } from "../../../src/vocabulary/records";
import { RELATION, resolveRelation } from "../../../src/vocabulary/relations";
import { planFocus, planRemember, relationPairs, rememberOps } from "../../../src/memory/remember-plan";
import { advanceClock, breakLevel, cyclesUntilBreak, levelOf, PINNED_LEVEL, strengthAt } from "../../../src/memory/strength";

/** A committed network write as the graph follows it: its row of the write table (src/engine/write-table.ts). */
function applyToGraph(graph: MemoryGraph, op: NetworkOp): void {
  writeKind(op.type).graph?.(graph, op);
}

describe("strength under decay", () => {
  it("1.0 × 0.97^n first falls below 0.01 at n = 152", () => {
    expect(0.97 ** 151).toBeGreaterThan(0.01);
    expect(0.97 ** 152).toBeLessThan(0.01);
    expect(cyclesUntilBreak(1, 0.97, 0.01)).toBe(152);
  });

  it("a stored level gives strength × decay^n after n clock steps", () => {
    let clock = 0;
    const level = levelOf(0.5, clock);
    for (let n = 1; n <= 40; n++) {
      clock = advanceClock(clock, 0.97);
      expect(strengthAt(level, clock)).toBeCloseTo(0.5 * 0.97 ** n, 12);
    }
  });

  it("follows a changed decay rate from the cycle it changes", () => {
    let clock = 0;
    const level = levelOf(1, clock);
    for (let n = 0; n < 10; n++) clock = advanceClock(clock, 0.97);
    for (let n = 0; n < 10; n++) clock = advanceClock(clock, 0.5);
    expect(strengthAt(level, clock)).toBeCloseTo(0.97 ** 10 * 0.5 ** 10, 14);
  });

  it("a link breaks exactly when its strength is below the threshold", () => {
    let clock = 0;
    const level = levelOf(1, 0);
    for (let n = 0; n < 151; n++) clock = advanceClock(clock, 0.97);
    expect(level < breakLevel(clock, 0.01)).toBe(false);
    clock = advanceClock(clock, 0.97);
    expect(level < breakLevel(clock, 0.01)).toBe(true);
  });

  it("pinned links stay at 1 and never break; decay 1 changes nothing", () => {
    expect(strengthAt(PINNED_LEVEL, 1e6)).toBe(1);
    expect(PINNED_LEVEL < breakLevel(1e6, 0.01)).toBe(false);
    expect(advanceClock(3, 1)).toBe(3);
    expect(() => levelOf(0, 0)).toThrow(RangeError);
    expect(() => advanceClock(0, 0)).toThrow(RangeError);
  });
});

describe("importance", () => {
  it("is the sum of outgoing strengths; the retained share is capped at 1", () => {
    expect(importanceOf([0.5, 0.25, 1])).toBe(1.75);
    expect(importanceOf([])).toBe(0);
    expect(retainedShare(0.4)).toBe(0.4);
    expect(retainedShare(3)).toBe(1);
  });
});

const entry = (nodeId: number, name = `e${nodeId}`): FocusEntry => ({ nodeId, key: name.toLowerCase(), name });

/** A stored node for the in-memory graph's tests: a segment unless told otherwise. */
function memoryNode(id: number, fields: Partial<MemoryNode> = {}): MemoryNode {
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

describe("compression planning (one scan of one node)", () => {
  const scan = (importance: number, originalLength = 40, currentLength = originalLength) =>
    planScan({ importance, originalLength, currentLength, deleteThreshold: 5 });

  it("compresses a node with one outgoing link of 0.5 to half its original length on its first scan", () => {
    expect(scan(0.5, 40)).toEqual({ action: "compress", target: 20 });
    expect(scan(0.5, 41)).toEqual({ action: "compress", target: 20 });
  });

  it("leaves importance ≥ 1 untouched, however short the content", () => {
    expect(scan(1)).toEqual({ action: "protect" });
    expect(scan(3.2, 2)).toEqual({ action: "protect" });
  });

  it("deletes when the target falls below delete_threshold", () => {
    expect(scan(0.12, 40)).toEqual({ action: "delete", target: 4 });
    expect(scan(0.125, 40)).toEqual({ action: "compress", target: 5 });
    expect(scan(0, 40)).toEqual({ action: "delete", target: 0 });
  });

  it("keeps content that is already within its target", () => {
    expect(scan(0.5, 40, 18)).toEqual({ action: "keep", target: 20 });
    expect(scan(0.5, 40, 20)).toEqual({ action: "keep", target: 20 });
  });
});

describe("capacity sampling", () => {
  it("samples distinct ids in range, all of them when the range is small, reproducibly", () => {
    expect(sampleIds(5, 9, 100, seededRandom(1))).toEqual([5, 6, 7, 8, 9]);
    const a = sampleIds(1, 10_000, 50, seededRandom(42));
    expect(new Set(a).size).toBe(50);
    expect(a.every((id) => id >= 1 && id <= 10_000)).toBe(true);
    expect(sampleIds(1, 10_000, 50, seededRandom(42))).toEqual(a);
    expect(sampleIds(1, 10_000, 50, seededRandom(43))).not.toEqual(a);
  });

  it("evicts the least important, the oldest first on ties", () => {
    const nodes = [
      { id: 1, importance: 2 },
      { id: 2, importance: 0.1 },
      { id: 3, importance: 0.5 },
      { id: 4, importance: 0.1 },
    ];
    expect(pickEvictions(nodes, 3)).toEqual([2, 4, 3]);
    expect(pickEvictions(nodes, 0)).toEqual([]);
  });
});

describe("focus LRU", () => {
  it("puts the most salient mention first and evicts the least recently mentioned", () => {
    let focus: FocusEntry[] = [];
    for (const id of [1, 2, 3, 4, 5]) focus = touchFocus(focus, [entry(id)], 5).focus;
    expect(focus.map((f) => f.nodeId)).toEqual([5, 4, 3, 2, 1]);
    const change = touchFocus(focus, [entry(6)], 5);
    expect(change.focus.map((f) => f.nodeId)).toEqual([6, 5, 4, 3, 2]);
    expect(change.entered.map((f) => f.nodeId)).toEqual([6]);
    expect(change.left.map((f) => f.nodeId)).toEqual([1]);
  });

  it("moves a re-mentioned entity to the front without duplicating it", () => {
    const focus = [entry(3), entry(2), entry(1)];
    const change = touchFocus(focus, [entry(1), entry(2)], 5);
    expect(change.focus.map((f) => f.nodeId)).toEqual([1, 2, 3]);
    expect(change.entered).toEqual([]);
    expect(change.left).toEqual([]);
  });
});

describe("remember plan", () => {
  const extraction = (entities: string[]) => ({ phrase: "p", keywords: entities, entities });
  const messages = [
    { role: "user" as const, content: "a", id: "m1", name: "Ann", timestamp: 1000 },
    { role: "assistant" as const, content: "b", id: "m2" },
    { role: "user" as const, content: "c" },
  ];
  const segments = [
    { text: "Alice met Bob.", messageIndexes: [0] },
    { text: "They talked about JWT.", messageIndexes: [1] },
    { text: "Alice liked it.", messageIndexes: [2] },
  ];
  const extractions = [extraction(["Alice", "Bob"]), extraction(["JWT"]), extraction(["alice"])];

  it("allocates ids in order and replays the focus segment by segment", () => {
    const plan = planFocus({ focus: [], focusLimit: 2, nextNodeId: 10, extractions, existingEntities: new Map() });
    expect(plan.segmentIds).toEqual([10, 13, 15]);
    expect(plan.newEntities.map((e) => [e.nodeId, e.key])).toEqual([
      [11, "alice"],
      [12, "bob"],
      [14, "jwt"],
    ]);
    expect(plan.focusAfter.map((f) => f.map((e) => e.key))).toEqual([
      ["alice", "bob"],
      ["jwt", "alice"],
      ["alice", "jwt"],
    ]);
    expect(plan.finalFocus.map((f) => f.key)).toEqual(["alice", "jwt"]);
    expect(plan.nextNodeId).toBe(16);
  });

  it("links segments to the focus at 1 (pinned when still in focus) and neighbours at the initial strength", () => {
    const focusPlan = planFocus({ focus: [], focusLimit: 2, nextNodeId: 10, extractions, existingEntities: new Map() });
    const pairs = relationPairs(focusPlan);
    const plan = planRemember({
      taskId: "tsk_x",
      epoch: 7,
      now: 5,
      clock: 2,
      linkInitialStrength: 0.5,
      messages,
      segments,
      extractions,
      focusPlan,
      relations: pairs.map(() => RELATION.about),
    });
    expect(plan.nodes).toHaveLength(6);
    expect(plan.links).toHaveLength(2 * 2 + 2 * (2 + 2 + 2));
    // Levels as they stand once the plan is applied (the focus pins what is in it at the end).
    const graph = new MemoryGraph();
    for (const op of rememberOps(plan, 7)) applyToGraph(graph, op);
    const link = (s: number, t: number) => graph.allLinks().find((l) => l.source === s && l.target === t);
    expect(link(10, 13)).toMatchObject({ relation: RELATION.next });
    expect(strengthAt(link(10, 13)?.level ?? 0, 2)).toBeCloseTo(0.5, 12);
    expect(link(13, 10)).toMatchObject({ relation: RELATION.previous });
    expect(link(10, 11)?.level).toBe(PINNED_LEVEL);
    expect(link(11, 10)?.level).toBe(PINNED_LEVEL);
    // Bob fell out of focus during the task: his links are plain strength 1, not pinned.
    expect(strengthAt(link(10, 12)?.level ?? 0, 2)).toBe(1);
    expect(link(10, 12)?.level).toBeLessThan(PINNED_LEVEL);
    expect(plan.focus.map((f) => f.nodeId)).toEqual([11, 14]);
    expect(plan.released).toEqual([12]);
    // Every link the task writes carries its epoch and time.
    expect(plan.links.every((l) => l.epoch === 7 && l.createdAt === 5)).toBe(true);
    const first = plan.nodes.find((n) => n.id === 10);
    expect(first).toMatchObject({
      kind: "segment",
      speaker: "Ann",
      role: "user",
      sourceMessageIds: ["m1"],
      messageTime: 1000,
      originalLength: 14,
    });
    expect(plan.nodes.find((n) => n.id === 15)?.sourceMessageIds).toEqual(["tsk_x#2"]);
    expect(plan.nodes.find((n) => n.id === 11)).toMatchObject({ kind: "entity", name: "alice", content: "Alice" });
  });

  it("reuses existing entity nodes and does not create them again", () => {
    const focusPlan = planFocus({
      focus: [],
      focusLimit: 5,
      nextNodeId: 50,
      extractions: [extraction(["ALICE"])],
      existingEntities: new Map([["alice", { nodeId: 7, name: "Alice" }]]),
    });
    expect(focusPlan.newEntities).toEqual([]);
    expect(focusPlan.finalFocus).toEqual([{ nodeId: 7, key: "alice", name: "Alice" }]);
  });
});

describe("breadth-first search", () => {
  // 1 → 2 → 3 → 4, 2 → 9 (9 does not exist: dangling), 5 isolated.
  const links: Edge[] = [
    { source: 1, target: 2, relation: "关于", strength: 1 },
    { source: 2, target: 3, relation: "下文", strength: 0.5 },
    { source: 3, target: 4, relation: "下文", strength: 0.5 },
    { source: 2, target: 9, relation: "下文", strength: 0.25 },
  ];
  const existing = new Set([1, 2, 3, 4, 5]);
  const calls = { expand: 0, load: 0 };
  const source = (relations: string[] = []) => ({
    async expand(frontier: number[]) {
      calls.expand += 1;
      return links.filter(
        (l) => (frontier.includes(l.source) || frontier.includes(l.target)) && (relations.length === 0 || relations.includes(l.relation)),
      );
    },
    async load(ids: number[]) {
      calls.load += 1;
      return new Map(ids.filter((id) => existing.has(id)).map((id) => [id, { id }]));
    },
  });

  it("reaches one more layer per depth, in both directions, with path strengths", async () => {
    const d1 = await breadthFirst(new Map([[2, 1]]), 1, source());
    expect([...d1.reached.keys()].sort()).toEqual([1, 2, 3]);
    const d2 = await breadthFirst(new Map([[2, 1]]), 2, source());
    expect([...d2.reached.keys()].sort()).toEqual([1, 2, 3, 4]);
    expect(d2.reached.get(4)).toMatchObject({ depth: 2, pathStrength: 0.25 });
    expect(d2.reached.get(1)).toMatchObject({ depth: 1, pathStrength: 1 });
  });

  it("reports dangling links as traces and does not follow them", async () => {
    const result = await breadthFirst(new Map([[1, 1]]), 3, source());
    expect(result.dangling).toEqual([{ source: 2, target: 9, relation: "下文", strength: 0.25 }]);
    expect(result.reached.has(9)).toBe(false);
  });

  it("follows only the given relations", async () => {
    const result = await breadthFirst(new Map([[1, 1]]), 3, source(["关于"]));
    expect([...result.reached.keys()].sort()).toEqual([1, 2]);
  });

  it("costs one expand and one load per layer", async () => {
    calls.expand = 0;
    calls.load = 0;
    await breadthFirst(new Map([[1, 1]]), 3, source());
    expect(calls).toEqual({ expand: 3, load: 4 });
  });
});

describe("query and memory terms (one analyzer)", () => {
  it("stems both sides alike and drops only function words", () => {
    expect(queryTerms("paintings")).toEqual(["paint"]);
    expect(indexTerms("She showed me her painting of a sunset")).toEqual(["show", "paint", "sunset"]);
    // Common chat words are content: how much they say is idf's business, not a list's.
    expect(queryTerms("What kind of pets did Caroline's friend feel recently, first?")).toEqual([
      "kind",
      "pet",
      "caroline",
      "friend",
      "feel",
      "recent",
      "first",
    ]);
    expect(queryTerms("How many times did they take it?")).toEqual(["many", "time", "take"]);
  });

  it("matches hyphenated and compound words by their parts", () => {
    expect(queryTerms("self-care")).toEqual(["self", "care", "selfcare"]);
    const doc = new Set(indexTerms("I make time for self care every day"));
    expect(queryTerms("self-care").filter((t) => doc.has(t))).toEqual(["self", "care"]);
    expect(new Set(indexTerms("my selfcare routine")).has("selfcare")).toBe(true);
    expect(indexTerms("it'll be fine")).toEqual(["fine"]);
  });

  it("matches Chinese words however the segmenter cut them", () => {
    const doc = new Set(indexTerms("昨天讨论了用户系统的登录模块设计"));
    for (const q of ["登录模块", "用户", "系统", "模块设计"])
      expect(
        queryTerms(q).every((t) => doc.has(t)),
        q,
      ).toBe(true);
    expect(new Set(indexTerms("获得绘画比赛优胜奖")).has("画")).toBe(true);
    // Function characters make no terms of their own.
    expect(queryTerms("我的")).toEqual([]);
  });

  it("puts a memory's speaker, text and time in its document, each as its own field", () => {
    const node = memoryNode(1, {
      content: "Camping at the lake.",
      phrase: "camping lake",
      keywords: ["camping", "lake"],
      speaker: "Melanie",
      messageTime: Date.UTC(2023, 4, 8, 13, 56),
    });
    expect(timeTerms(node.messageTime)).toEqual(["may", "8", "2023"]);
    const fields = documentFields(node);
    expect([...fields.speaker]).toEqual(["melanie"]);
    expect([...fields.time]).toEqual(["may", "8", "2023"]);
    expect(fields.text.get("camp")).toBe(3);
    expect(ftsDocument(node)).toBe("melanie camp lake camp lake camp lake may 8 2023");
    expect(fields.length).toBe(10);
  });

  it("keeps the in-memory index's term lookups exact as the graph's texts change", () => {
    const random = seededRandom(5);
    const words = ["painting", "paintings", "dog", "support", "group", "Isabella", "the", "登录", "模块", "用户系统", "jwt", "he"];
    const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)] ?? "").join(" ");
    const graph = new MemoryGraph();
    const make = (id: number) =>
      memoryNode(id, {
        content: text(6),
        originalLength: 40,
        phrase: text(1),
        keywords: [text(1)],
        speaker: random() < 0.3 ? "Isabella" : null,
      });
    for (let id = 1; id <= 80; id++) graph.addNode(make(id));
    const terms = queryTerms("paintings support group isabella 登录模块 用户 JWT absent");
    const check = () => {
      const index = graph.textIndex();
      for (const term of terms) {
        const scanned = graph.nodeIds().filter((id) => {
          const node = graph.node(id);
          return node !== undefined && ftsDocument(node).split(" ").includes(term);
        });
        expect(
          [...index.withToken(term)].sort((a, b) => a - b),
          term,
        ).toEqual(scanned.sort((a, b) => a - b));
      }
    };
    check();
    applyToGraph(graph, {
      type: "updateText",
      update: { id: 4, kind: "segment", speaker: null, content: "support group on Friday", phrase: "support", keywords: [] },
    });
    applyToGraph(graph, { type: "deleteNodes", ids: [5, 7] });
    graph.addNode(make(90));
    check();
  });
});

describe("text evidence with the network as context (BM25F)", () => {
  const weights: FieldWeights = { neighbours: 0.4, entities: 0.2, speaker: 1, time: 0.5 };
  const doc = (content: string, extra: Partial<MemoryNode> = {}) => documentFields(memoryNode(0, { content, ...extra }));
  // Ten documents of average length 4 terms; "lake" in two of them.
  const stats = {
    documents: 10,
    tokens: 40,
    documentFrequency: new Map([
      ["lake", 2],
      ["melanie", 5],
    ]),
  };

  it("scores a memory's own words by Okapi BM25 and its neighbours' at a lower weight, below its own", () => {
    const scorer = new FieldScorer(["lake"], stats, weights);
    const idf = bm25Idf(2, 10);
    // One occurrence in a document of average length: tf̃ = 1, score = idf.
    const own = scorer.score(doc("lake trip summer fun"), { neighbours: [], entities: [] });
    expect(own.score).toBeCloseTo(idf, 12);
    expect(own.matched).toBe(1);
    // The same words one turn away: tf̃ = 0.4, score = idf · 0.4 · (k1 + 1) / (k1 + 0.4).
    const next = scorer.score(doc("it was so much fun"), { neighbours: [doc("lake trip summer fun")], entities: [] });
    expect(next.score).toBeCloseTo((idf * 0.4 * (BM25_K1 + 1)) / (BM25_K1 + 0.4), 12);
    expect(next.matched).toBe(1);
    expect(next.score).toBeLessThan(own.score);
    // Both: the fields add before saturation, so more, but not twice as much.
    const both = scorer.score(doc("lake trip summer fun"), { neighbours: [doc("lake trip summer fun")], entities: [] });
    expect(both.score).toBeGreaterThan(own.score);
    expect(both.score).toBeLessThan(2 * own.score);
  });

  it("counts speaker and time for the score, never as a match by themselves", () => {
    const scorer = new FieldScorer(["melanie", "lake"], stats, weights);
    const said = scorer.score(doc("lake trip summer fun", { speaker: "Melanie" }), { neighbours: [], entities: [] });
    const other = scorer.score(doc("lake trip summer fun", { speaker: "Caroline" }), { neighbours: [], entities: [] });
    expect(said.score).toBeGreaterThan(other.score);
    expect(said.matched).toBe(1);
    expect(scorer.score(doc("nothing here at all", { speaker: "Melanie" }), { neighbours: [], entities: [] }).matched).toBe(0);
  });

  it("lends the names of linked entities, and nothing when a field's weight is 0", () => {
    const withEntity = new FieldScorer(["lake"], stats, weights).score(doc("we swam all day"), { neighbours: [], entities: [doc("lake")] });
    expect(withEntity.matched).toBe(1);
    expect(withEntity.score).toBeGreaterThan(0);
    const textOnly = new FieldScorer(["lake"], stats, { neighbours: 0, entities: 0, speaker: 0, time: 0 });
    expect(textOnly.score(doc("we swam all day"), { neighbours: [doc("lake")], entities: [doc("lake")] })).toEqual({
      score: 0,
      matched: 0,
    });
  });

  it("scores an answer with the question it answers as its own words, and a question below its answer", () => {
    const scorer = new FieldScorer(["lake"], stats, weights);
    const question = doc("did you swim in the lake?");
    const answer = doc("yes all day long");
    const asked = scorer.score(question, { neighbours: [answer], entities: [], asks: true });
    const answered = scorer.score(answer, { neighbours: [], entities: [], asked: [question] });
    // The question's words count for the answer at full weight: as if the answer said them.
    expect(answered.score).toBeCloseTo(scorer.score(question, { neighbours: [], entities: [] }).score, 12);
    expect(answered.matched).toBe(1);
    expect(asked.score).toBeLessThan(answered.score);
    expect(asked.score).toBeLessThan(scorer.score(question, { neighbours: [answer], entities: [] }).score);
    // Without neighbours (text only) the question lends nothing.
    const textOnly = new FieldScorer(["lake"], stats, { neighbours: 0, entities: 0, speaker: 0, time: 0 });
    expect(textOnly.score(answer, { neighbours: [], entities: [], asked: [question] }).matched).toBe(0);
  });

  it("takes a segment ending with a question mark for a question, in English and Chinese", () => {
    expect(asksQuestion(memoryNode(0, { content: "That plate is awesome! Did you make it?" }))).toBe(true);
    expect(asksQuestion(memoryNode(0, { content: "你周末去哪儿了？」" }))).toBe(true);
    expect(asksQuestion(memoryNode(0, { content: "Yeah, I made it in pottery class." }))).toBe(false);
    expect(asksQuestion(memoryNode(0, { content: "What do you think? [shares a photo: a bowl]" }))).toBe(false);
  });
});

describe("fusion of keyword and vector lists", () => {
  it("normalises BM25 by its best and cosine over its range", () => {
    expect([
      ...normalisedScores(
        new Map([
          [1, 4],
          [2, 2],
        ]),
        "max",
      ),
    ]).toEqual([
      [1, 1],
      [2, 0.5],
    ]);
    expect(
      [
        ...normalisedScores(
          new Map([
            [1, 0.9],
            [2, 0.5],
            [3, 0.7],
          ]),
          "min-max",
        ),
      ].map(([id, s]) => [id, +s.toFixed(6)]),
    ).toEqual([
      [1, 1],
      [2, 0],
      [3, 0.5],
    ]);
  });

  it("keeps the strong list's order at a small weight and breaks its near-ties with the weak one", () => {
    const keyword = new Map([
      [1, 10],
      [2, 5],
      [3, 4.9],
    ]);
    const vector = new Map([
      [3, 0.9],
      [2, 0.3],
      [4, 0.8],
    ]);
    expect(
      fuseScores([
        { scores: keyword, weight: 0.9, normalise: "max" },
        { scores: vector, weight: 0.1, normalise: "min-max" },
      ]).map((f) => f.id),
    ).toEqual([1, 3, 2, 4]);
    // At an even weight the vector list reorders it.
    expect(
      fuseScores([
        { scores: keyword, weight: 0.5, normalise: "max" },
        { scores: vector, weight: 0.5, normalise: "min-max" },
      ]).map((f) => f.id),
    ).toEqual([3, 1, 4, 2]);
  });
});

const ranked = (id: number, textScore: number, pathStrength = 0, importance = 0, similarity = 0): RankedMemory<number> => ({
  id,
  node: id,
  hits: 1,
  textScore,
  similarity,
  pathStrength,
  importance,
  depth: 1,
  score: 0,
});

describe("ranking and output", () => {
  it("ranks by text relevance, the network only lifting near-ties, the newer node first on a tie", () => {
    const weights = { vector: 0, prior: 0.1 };
    // 2 is clearly better text; 3 and 5 tie on text, 5 is held more firmly; 1 and 4 tie on everything.
    const items = [ranked(1, 5), ranked(2, 8, 0, 0), ranked(3, 5, 0, 0.2), ranked(4, 5), ranked(5, 5, 1, 1)];
    scoreMemories(items, weights, true);
    expect(rankMemories(items, 10).map((r) => r.id)).toEqual([2, 5, 3, 4, 1]);
    // The prior lifts by at most 10%: full path strength and importance never beat clearly better text.
    const strongNetwork = [ranked(1, 10), ranked(2, 9, 1, 5)];
    scoreMemories(strongNetwork, weights, true);
    expect(rankMemories(strongNetwork, 2).map((r) => r.id)).toEqual([1, 2]);
    expect(networkPrior(1, 5)).toBe(1);
    expect(networkPrior(0.5, 0.25)).toBe(0.375);
  });

  it("fuses the vector similarity at its weight, and orders by the network alone without a query", () => {
    const items = [ranked(1, 10, 0, 0, 0), ranked(2, 9.5, 0, 0, 1)];
    scoreMemories(items, { vector: 0.1, prior: 0 }, true);
    expect(rankMemories(items, 2).map((r) => r.id)).toEqual([2, 1]);
    const noQuery = [ranked(1, 0, 0.5, 1), ranked(2, 0, 1, 1), ranked(3, 0, 1, 0.5)];
    scoreMemories(noQuery, { vector: 0.1, prior: 0.1 }, false);
    expect(rankMemories(noQuery, 3).map((r) => r.id)).toEqual([2, 3, 1]);
  });

  it("renders plain text with separators and no internal detail, in both locales", () => {
    const memories = [
      { content: "昨天讨论了登录模块设计。", speaker: null },
      { content: "I adopted a dog.", speaker: "Alice" },
    ];
    expect(formatRecall(memories, [{ sourcePhrase: "登录模块" }], "zh")).toBe(
      "[记忆] 昨天讨论了登录模块设计。\n---\n[记忆] Alice: I adopted a dog.\n---\n[已遗忘] 关于「登录模块」的一段记忆已经遗忘",
    );
    expect(formatRecall([], [{ sourcePhrase: "dogs" }], "en")).toBe('[forgotten] A memory about "dogs" has been forgotten');
    expect(formatRecall([], [], "zh")).toBe("");
  });

  it("accepts relation names in Chinese or as English aliases", () => {
    expect(resolveRelation("next")).toBe("下文");
    expect(resolveRelation("About")).toBe("关于");
    expect(resolveRelation("下文")).toBe("下文");
    expect(resolveRelation("同事")).toBe("同事");
  });
});

describe("recall's vector entry points", () => {
  // 1 holds the query's words; 2 only what a semantic embedder relates to them; 3 is the vector search's weakest hit.
  const nodes = new Map([
    [1, memoryNode(1, { content: "We booked the flight to Lisbon" })],
    [2, memoryNode(2, { content: "Our trip abroad starts on Monday" })],
    [3, memoryNode(3, { content: "The plumber comes at noon" })],
  ]);
  const network = (asked: boolean[]): RecallNetwork => ({
    traverse: async (start) => ({
      reached: new Map(
        [...start].flatMap(([id, s]) =>
          [nodes.get(id)].flatMap((node) => (node ? [[id, { node, depth: 0, pathStrength: s }] as const] : [])),
        ),
      ),
      edges: [],
      dangling: [],
    }),
    expand: async () => [],
    outgoingStrengths: async (ids) => new Map(ids.map((id) => [id, [1]])),
    statistics: async (terms) => ({ documents: 3, tokens: 15, documentFrequency: new Map(terms.map((t) => [t, 1])) }),
    entryPoints: async (_query, _limit, vectors) => {
      asked.push(vectors);
      return {
        keyword: new Map([[1, 2]]),
        vector: vectors
          ? new Map([
              [2, 0.9],
              [1, 0.6],
              [3, 0.1],
            ])
          : new Map<number, number>(),
      };
    },
  });
  const settings = (vector: number) => ({
    depth: 1,
    limit: 10,
    start: "hybrid" as const,
    fields: { neighbours: 0, entities: 0, speaker: 0, time: 0 },
    ranking: { vector, prior: 0 },
    maxTraces: 0,
  });

  it("returns a memory the vector search found though it holds no query word, and none of it at vector weight 0", async () => {
    const asked: boolean[] = [];
    const terms = queryTerms("flight to Lisbon");
    const withVectors = await recallMemories(network(asked), [], terms, "flight to Lisbon", settings(0.5));
    // 3 is the weakest vector hit (similarity 0 after min-max): nothing vouches for it.
    expect(withVectors.memories.map((m) => m.id)).toEqual([1, 2]);
    const without = await recallMemories(network(asked), [], terms, "flight to Lisbon", settings(0));
    expect(without.memories.map((m) => m.id)).toEqual([1]);
    expect(asked).toEqual([true, false]);
  });
});

describe("the in-memory graph", () => {
  const node = (id: number, kind: "segment" | "entity" = "segment") => memoryNode(id, { kind, name: kind === "entity" ? `e${id}` : null });

  it("traverses exactly as the generic BFS does (reach, depth, path strength, dangling)", async () => {
    const random = seededRandom(7);
    for (let round = 0; round < 5; round++) {
      const graph = new MemoryGraph();
      for (let id = 1; id <= 120; id++) graph.addNode(node(id, id % 10 === 0 ? "entity" : "segment"));
      for (let i = 0; i < 400; i++) {
        const source = 1 + Math.floor(random() * 120);
        const target = 1 + Math.floor(random() * 130); // some targets never exist: dangling
        const relation = ["关于", "相关", "下文", "上文"][Math.floor(random() * 4)] ?? "关于";
        graph.addLink({ source, target, relation, level: random() < 0.2 ? PINNED_LEVEL : Math.log(0.05 + random() * 0.95), createdAt: 0 });
      }
      applyToGraph(graph, { type: "deleteNodes", ids: [3, 17] });
      const start = new Map([
        [10, 1],
        [20, 1],
        [33, 0.5],
      ]);
      for (const relations of [[], ["关于", "下文"]]) {
        for (const depth of [1, 2, 3]) {
          const generic = await breadthFirst(start, depth, {
            expand: async (frontier) => graph.incident(frontier, relations, 0),
            load: async (ids) => graph.load(ids),
          });
          applyToGraph(graph, { type: "deleteNodes", ids: [100_000] }); // no such node, but it counts as a change: the next walk uses the lists
          const overLists = graph.traverse(start, depth, relations, 0, "关于");
          const overCopy = graph.traverse(start, depth, relations, 0, "关于");
          for (const fast of [overLists, overCopy]) {
            const view = (r: typeof fast.reached) =>
              [...r].map(([id, x]) => [id, x.depth, x.pathStrength]).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
            expect(view(fast.reached)).toEqual(view(generic.reached));
            const dangling = (d: typeof fast.dangling) => d.map((l) => `${l.source}>${l.target}>${l.relation}`).sort();
            expect(dangling(fast.dangling)).toEqual(dangling(generic.dangling));
          }
        }
      }
    }
  });

  it("traverses the current links after every kind of change (the compact copy is rebuilt)", async () => {
    const random = seededRandom(11);
    const graph = new MemoryGraph();
    for (let id = 1; id <= 60; id++) graph.addNode(node(id, id % 10 === 0 ? "entity" : "segment"));
    const addRandomLinks = (n: number, maxTarget: number) => {
      for (let i = 0; i < n; i++) {
        const source = 1 + Math.floor(random() * 60);
        const target = 1 + Math.floor(random() * maxTarget);
        graph.addLink({
          source,
          target,
          relation: random() < 0.5 ? "关于" : "下文",
          level: Math.log(0.05 + random() * 0.95),
          createdAt: 0,
        });
      }
    };
    addRandomLinks(150, 70); // targets 61–70 do not exist yet
    const start = new Map([
      [10, 1],
      [20, 1],
    ]);
    const compare = async (clock: number) => {
      const generic = await breadthFirst(start, 3, {
        expand: async (frontier) => graph.incident(frontier, [], clock),
        load: async (ids) => graph.load(ids),
      });
      // The first traversal after a change walks the link lists, the next ones the compact copy.
      for (const fast of [graph.traverse(start, 3, [], clock, "关于"), graph.traverse(start, 3, [], clock, "关于")]) {
        const view = (r: typeof fast.reached) =>
          [...r].map(([id, x]) => [id, x.depth, x.pathStrength]).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
        expect(view(fast.reached)).toEqual(view(generic.reached));
        expect(fast.dangling.length).toBe(generic.dangling.length);
      }
    };
    await compare(0);
    for (let id = 61; id <= 65; id++) graph.addNode(node(id)); // links named them before they existed
    await compare(0);
    addRandomLinks(40, 65);
    await compare(0.3); // the clock moved: strengths decay
    const focus = (ids: number[]) => ids.map((id) => ({ nodeId: id, key: `e${id}`, name: `e${id}` }));
    applyToGraph(graph, { type: "setFocus", focus: focus([10, 33]), released: [], clock: 0.3, epoch: 1 });
    await compare(0.3);
    applyToGraph(graph, { type: "setFocus", focus: focus([10]), released: [33], clock: 0.3, epoch: 2 });
    await compare(0.6);
    applyToGraph(graph, { type: "deleteLinks", keys: graph.linksBelow(Math.log(0.3)) });
    await compare(0.6);
    applyToGraph(graph, { type: "deleteNodes", ids: [5, 20, 62] });
    graph.addNode(node(66)); // takes a freed slot
    addRandomLinks(20, 66);
    await compare(0.6);
  });

  it("mirrors deletes and breaks: outgoing links go, incoming ones stay dangling", () => {
    const graph = new MemoryGraph();
    for (const id of [1, 2, 3]) graph.addNode(node(id));
    graph.addLink({ source: 1, target: 2, relation: "下文", level: 0, createdAt: 0 });
    graph.addLink({ source: 2, target: 1, relation: "上文", level: 0, createdAt: 0 });
    graph.addLink({ source: 2, target: 3, relation: "下文", level: -10, createdAt: 0 });
    graph.addLink({ source: 1, target: 2, relation: "下文", level: -1, createdAt: 0 }); // ignored: same key
    expect(graph.linkCount).toBe(3);
    applyToGraph(graph, { type: "deleteLinks", keys: graph.linksBelow(-5) });
    expect(
      graph
        .allLinks()
        .map((l) => `${l.source}>${l.target}`)
        .sort(),
    ).toEqual(["1>2", "2>1"]);
    applyToGraph(graph, { type: "deleteNodes", ids: [2] });
    expect(graph.allLinks().map((l) => `${l.source}>${l.target}`)).toEqual(["1>2"]);
    expect(graph.node(2)).toBeUndefined();
  });
});

describe("importance only where it can decide", () => {
  it("asks for the items that the largest prior could lift into the top", () => {
    const weights = { vector: 0, prior: 0.1 };
    const items = [ranked(1, 10), ranked(2, 8), ranked(3, 7.5), ranked(4, 7.2), ranked(5, 6), ranked(6, 7.3)];
    // Third best relevance 0.75 (item 3): 4 (0.72 · 1.1 = 0.79) and 6 (0.73 · 1.1) can reach it, 5 cannot.
    expect(importanceNeeded(items, 3, weights, true).sort()).toEqual([1, 2, 3, 4, 6]);
    expect(importanceNeeded(items, 1, weights, true)).toEqual([1]);
    expect(importanceNeeded([], 5, weights, true)).toEqual([]);
    // Without a query the network is the whole score: every item needs it.
    expect(importanceNeeded(items, 1, weights, false)).toHaveLength(6);
  });
});
