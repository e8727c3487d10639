/**
 * The meaning benchmarks of bench:quality (docs/design.md §16, "Meaning"), through the API:
 *
 * - entities: each annotated text (bench/quality/annotations) is remembered as one message by its
 *   speaker into a fresh agent; the entities linked to its segments (GET /nodes) are scored against
 *   the annotation (entity-score.ts). A fresh agent per text: every entity it holds came from that text;
 * - conflict marks: after a LoCoMo conversation, the memories that carry a contradiction or were
 *   superseded by an update, per 1,000 memories (the conversations hold almost no real ones);
 * - summaries: whether each episode summary is made of its conversation's clauses (clausal below),
 *   never a bag of its words.
 */
import { AgentApi, type Message } from "../driver/agent-api";
import type { HttpClient } from "../driver/http";
import { refKey, type ResolvedItem } from "./annotations";
import { agentId } from "./batches";
import { poolEntityScores, scoreText, type EntityGroupScores, type TextVerdict } from "./entity-score";

/** How an annotated text is remembered: one message, said by its speaker. */
export function entityMessage(item: Pick<ResolvedItem, "speaker" | "text" | "ref">): Message {
  const role = item.speaker.toLowerCase() === "assistant" ? "assistant" : "user";
  return { role, name: item.speaker, content: item.text };
}

export interface EntityRun {
  groups: EntityGroupScores[];
  texts: { ref: string; split: string; returned: string[]; junk: string[]; missed: string[] }[];
}

/** Relations that link a segment to an entity (docs/design.md §4: 关于 when it names it, else 相关). */
const ENTITY_RELATIONS: ReadonlySet<string> = new Set(["关于", "相关"]);

/** The entities linked to the agent's segments, by name. */
async function linkedEntities(agent: AgentApi): Promise<string[]> {
  const names = new Set<string>();
  for (const segment of await agent.memories("segment")) {
    const node = await agent.node(segment.node_id);
    for (const link of node.links.outgoing) {
      if (!ENTITY_RELATIONS.has(link.relation)) continue;
      const target = await agent.node(link.target);
      if (target.kind === "entity") names.add(target.content);
    }
  }
  return [...names];
}

/** The entity benchmark over `items`, `parallel` texts at a time. */
export async function runEntityBenchmark(
  http: HttpClient,
  lane: string,
  items: readonly ResolvedItem[],
  step: (text: string) => void,
  parallel = 4,
): Promise<EntityRun> {
  const results: { item: ResolvedItem; verdict: TextVerdict; returned: string[] }[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) {
      const item = items[i];
      if (!item) continue;
      const agent = new AgentApi(http, agentId(lane, "entities", String(i)));
      // Extraction only: no compression cycle may forget an entity before it is read.
      await agent.configure({ auto_compress: false });
      const ack = await agent.remember([entityMessage(item)]);
      const task = await agent.finishedTask(ack.value);
      if (task.status !== "done") throw new Error(`${agent.agentId}: remember ${task.status}`);
      await agent.idleStats();
      const returned = await linkedEntities(agent);
      results.push({ item, verdict: scoreText(item, returned), returned });
      step(`entities ${results.length}/${items.length}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  results.sort((a, b) => items.indexOf(a.item) - items.indexOf(b.item));
  return {
    groups: poolEntityScores(results),
    texts: results.map(({ item, verdict, returned }) => ({
      ref: refKey(item.ref),
      split: item.split,
      returned,
      junk: verdict.junk,
      missed: verdict.missed,
    })),
  };
}

export interface ConflictMarks {
  memories: number;
  /** Memories linked as contradicting another one, or superseded by an update. */
  marked: number;
}

/** Counts an agent's memories and those that carry a conflict mark (superseded versions included). */
export async function conflictMarks(agent: AgentApi): Promise<ConflictMarks> {
  const items = await agent.memories("segment", true);
  return { memories: items.length, marked: items.filter((m) => m.superseded_by !== null || m.conflicts_with.length > 0).length };
}

export interface SummaryCheck {
  episodes: number;
  /** Summaries not made of the conversation's clauses. */
  wordBags: number;
  examples: string[];
}

const CLAUSE_MARKS = /[，。！？；：、,.!?;:\n]+/u;
/** The shortest stretch of a summary that must come whole from the text (code points). */
const MIN_STRETCH = { cjk: 6, latin: 12 } as const;
const CJK = /\p{Script=Han}/u;

const squash = (s: string): string => s.normalize("NFKC").replace(/\s+/gu, " ").trim();

/**
 * Whether `summary` is made of clauses of `source`: every piece between clause marks is covered,
 * left to right, by stretches of the source of at least MIN_STRETCH code points (or the piece's
 * whole rest). Extractive summaries (whole clauses, clauses cut at a word boundary, clauses joined)
 * pass; a list of words picked from all over the text ("家猫叫豆豆岁橘猫喜欢…") does not.
 */
export function clausal(summary: string, source: string): boolean {
  const text = squash(source);
  for (const raw of squash(summary).split(CLAUSE_MARKS)) {
    const piece = raw.trim();
    if (piece === "") continue;
    const min = CJK.test(piece) ? MIN_STRETCH.cjk : MIN_STRETCH.latin;
    const points = Array.from(piece);
    let at = 0;
    while (at < points.length) {
      let end = points.length;
      while (end > at && !text.includes(points.slice(at, end).join("").trim())) end--;
      const covered = end - at;
      if (covered === 0 || (covered < min && end < points.length)) return false;
      at = end;
    }
  }
  return true;
}

/** Checks every episode summary of `agent` against the texts it was told. */
export async function checkSummaries(agent: AgentApi, told: readonly Message[]): Promise<SummaryCheck> {
  const source = told.map((m) => `${m.name ?? m.role}: ${m.content}`).join("\n");
  const episodes = await agent.memories("episode");
  const bags = episodes.filter((e) => !clausal(e.content, source));
  return { episodes: episodes.length, wordBags: bags.length, examples: bags.slice(0, 3).map((e) => e.content.slice(0, 120)) };
}
