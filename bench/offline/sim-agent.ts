/**
 * An agent simulated in process, for fast iteration on retrieval quality: the same pure modules the
 * Durable Object runs (local model, remember plan, in-memory graph, compression plan), without
 * D1, the queue or HTTP. Remember and compression passes follow src/operations/remember.ts and
 * compress.ts step for step; the graph holds effective levels exactly as the object's cache does.
 */
import { EPISODE_SUMMARY_MAX, planEpisode } from "../../src/memory/episode";
import { planScan } from "../../src/memory/compression-plan";
import type { FocusEntry } from "../../src/memory/focus-lru";
import { MemoryGraph } from "../../src/memory/graph";
import { importanceOf } from "../../src/memory/importance";
import { reinforceLinks } from "../../src/memory/link-moves";
import type { NewLink } from "../../src/vocabulary/records";
import { mentionedEntityKeys, planFocus, planRemember, relationPairs, rememberOps } from "../../src/memory/remember-plan";
import { advanceClock, breakLevel, strengthAt } from "../../src/memory/strength";
import type { WriteOp } from "../../src/memory/write-ops";
import { LocalEmbedder, LocalModel } from "../../src/models/local/local-model";
import { EMBEDDING_DIMENSIONS, embedText } from "../../src/models/local/local-embedder";
import { DEFAULT_PARAMS, type AgentParams } from "../../src/config/params";
import { codePointLength } from "../../src/text/code-points";
import type { MemoryNode } from "../../src/vocabulary/records";
import type { MessageRole } from "../../src/vocabulary/roles";

export interface SimMessage {
  role: MessageRole;
  content: string;
  name?: string;
  timestamp?: number;
  id?: string;
}

const model = new LocalModel();

/** What embeds a simulated agent's memories and queries: the hashed local embedder unless given. */
export interface SimEmbedder {
  name: string;
  embed(texts: readonly string[]): Float32Array[];
}

const localEmbedder = new LocalEmbedder();
export const LOCAL_SIM_EMBEDDER: SimEmbedder = {
  name: localEmbedder.name,
  embed: (texts) => texts.map((t) => embedText(t, EMBEDDING_DIMENSIONS)),
};

export class SimAgent {
  readonly graph = new MemoryGraph();
  focus: FocusEntry[] = [];
  clock = 0;
  nextNodeId = 1;
  seq = 0;
  now = 1_700_000_000_000;
  readonly vectors = new Map<number, { kind: MemoryNode["kind"]; vector: Float32Array }>();
  charactersRemembered = 0;
  compressed = 0;
  deleted = 0;
  cycles = 0;

  constructor(
    readonly params: AgentParams = DEFAULT_PARAMS,
    readonly embedder: SimEmbedder = LOCAL_SIM_EMBEDDER,
  ) {
    this.graph.setInitialFocus([]);
  }

  async remember(messages: readonly SimMessage[]): Promise<void> {
    this.seq += 1;
    this.now += 1000;
    const taskId = `t${this.seq}`;
    const withIds = messages.map((m, i) => ({ ...m, id: m.id ?? `${taskId}#${i}` }));
    const modelMessages = withIds.map((m, index) => ({ index, role: m.role, content: m.content, ...(m.name ? { name: m.name } : {}) }));
    const segments = await model.segment(modelMessages);
    const extractions = await model.extract(segments.map((s) => s.text));
    const existing = new Map<string, { nodeId: number; name: string }>();
    for (const key of mentionedEntityKeys(extractions)) {
      const id = this.graph.entityId(key);
      const node = id === undefined ? undefined : this.graph.node(id);
      if (node) existing.set(key, { nodeId: node.id, name: node.content });
    }
    const focusPlan = planFocus({
      focus: this.focus,
      focusLimit: this.params.focus_limit,
      nextNodeId: this.nextNodeId,
      extractions,
      existingEntities: existing,
    });
    const pairs = relationPairs(focusPlan);
    const relations = await model.nameRelations(
      pairs.map((p) => ({ segment: segments[p.segmentIndex]?.text ?? "", entity: p.entity.name })),
    );
    const plan = planRemember({
      taskId,
      epoch: this.seq,
      now: this.now,
      clock: this.clock,
      linkInitialStrength: this.params.link_initial_strength,
      messages: withIds,
      segments,
      extractions,
      focusPlan,
      relations,
    });
    // The submission's episode, as src/operations/remember.ts adds it (docs/design.md §12).
    const segmentNodes = plan.nodes.filter((n) => n.kind === "segment");
    if (segmentNodes.length > 0) {
      const summary = (
        await model.summarize(
          segmentNodes.map((n) => n.content),
          EPISODE_SUMMARY_MAX,
        )
      ).trim();
      if (summary !== "") {
        const episode = planEpisode({
          id: plan.nextNodeId,
          taskId,
          epoch: this.seq,
          now: this.now,
          clock: plan.clock,
          linkInitialStrength: this.params.link_initial_strength,
          summary,
          messages: withIds,
          segments: segmentNodes,
        });
        plan.nodes.push(episode.node);
        plan.links.push(...episode.links);
        plan.nextNodeId += 1;
      }
    }
    this.nextNodeId = plan.nextNodeId;
    this.focus = plan.focus;
    await this.applyAll(rememberOps(plan, this.seq));
    this.charactersRemembered += plan.nodes.filter((n) => n.kind === "segment").reduce((s, n) => s + n.originalLength, 0);
    if (this.params.auto_compress) await this.compress(1);
  }

  private readonly reinforcedAt = new Map<number, number>();

  /** Memories reported as used (report-feedback.ts): each outgoing link gains reinforce_step, once per cycle. */
  reinforce(ids: readonly number[]): number {
    const links: NewLink[] = [];
    let done = 0;
    for (const id of new Set(ids)) {
      const node = this.graph.node(id);
      if (!node || node.kind === "entity" || node.supersededBy !== null || this.reinforcedAt.get(id) === this.cycles) continue;
      const own = this.graph.outgoingOf(id).map((l) => ({ ...l, pinned: false }));
      links.push(...reinforceLinks(own, this.params.reinforce_step, this.clock, this.seq, (l) => strengthAt(l.level, this.clock)).links);
      this.reinforcedAt.set(id, this.cycles);
      done += 1;
    }
    if (links.length > 0) this.graph.apply({ type: "setLinks", links });
    return done;
  }

  /** One pass of `cycles` cycles (compress.ts). */
  async compress(cycles: number): Promise<void> {
    if (cycles <= 0) return;
    this.seq += 1;
    this.cycles += cycles;
    for (let i = 0; i < cycles; i++) this.clock = advanceClock(this.clock, this.params.decay_rate);
    const floor = breakLevel(this.clock, this.params.link_break_threshold);
    const broken = this.graph.linksBelow(floor);
    if (broken.length > 0) this.graph.apply({ type: "deleteLinks", keys: broken });
    const focus = new Set(this.focus.map((f) => f.nodeId));
    const ops: WriteOp[] = [];
    for (const id of this.graph.nodeIds().sort((a, b) => b - a)) {
      if (focus.has(id)) continue;
      const node = this.graph.node(id);
      if (!node) continue;
      const importance = importanceOf(
        this.graph
          .outgoingOf(id)
          .filter((l) => l.level >= floor)
          .map((l) => strengthAt(l.level, this.clock)),
      );
      const plan = planScan({
        importance,
        originalLength: node.originalLength,
        currentLength: codePointLength(node.content),
        deleteThreshold: this.params.delete_threshold,
      });
      if (plan.action === "delete") {
        this.deleted += 1;
        ops.push({ type: "deleteNodes", ids: [id] });
      } else if (plan.action === "compress") {
        const content =
          node.kind === "episode" ? await model.summarize([node.content], plan.target) : await model.compress(node.content, plan.target);
        this.compressed += 1;
        if (node.kind === "entity") {
          ops.push({ type: "updateText", update: { id, kind: node.kind, speaker: null, content, phrase: content, keywords: [content] } });
        } else {
          const [e] = await model.extract([content]);
          ops.push({
            type: "updateText",
            update: { id, kind: node.kind, speaker: node.speaker, content, phrase: e?.phrase ?? "", keywords: e?.keywords ?? [] },
          });
        }
      }
    }
    await this.applyAll(ops);
  }

  private async applyAll(ops: readonly WriteOp[]): Promise<void> {
    for (const op of ops) {
      this.graph.apply(op);
      if (op.type === "createNodes") await this.embed(op.nodes);
      else if (op.type === "updateText") {
        const node = this.graph.node(op.update.id);
        if (node) await this.embed([node]);
      } else if (op.type === "deleteNodes") for (const id of op.ids) this.vectors.delete(id);
    }
  }

  private async embed(nodes: readonly MemoryNode[]): Promise<void> {
    const texts = nodes.map((n) => (n.kind === "segment" && n.speaker ? `${n.speaker}: ${n.content}` : n.content));
    const vectors = this.embedder.embed(texts);
    nodes.forEach((n, i) => {
      const v = vectors[i];
      if (v) this.vectors.set(n.id, { kind: n.kind, vector: v });
    });
  }

  /** Exact cosine top-k among the kinds given (the local vector index's answer). */
  vectorSearch(query: string, topK: number, kinds: readonly string[]): Map<number, number> {
    const [q = new Float32Array(0)] = this.embedder.embed([query]);
    const scored: { id: number; score: number }[] = [];
    for (const [id, { kind, vector }] of this.vectors) {
      if (!kinds.includes(kind)) continue;
      let dot = 0;
      for (let i = 0; i < q.length; i++) dot += (q[i] ?? 0) * (vector[i] ?? 0);
      scored.push({ id, score: dot });
    }
    scored.sort((a, b) => b.score - a.score || b.id - a.id);
    return new Map(scored.slice(0, topK).map((s) => [s.id, s.score]));
  }

  charactersHeld(): number {
    let n = 0;
    for (const id of this.graph.nodeIds()) {
      const node = this.graph.node(id);
      if (node?.kind === "segment") n += codePointLength(node.content);
    }
    return n;
  }
}
