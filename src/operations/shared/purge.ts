/**
 * Purge (docs/design.md, "Purge"): the one way a purge is done, for every caller (a memory's
 * `DELETE …?purge=true` now; a session's deletion and a memory's expiry later): a set of nodes and
 * everything derived from them goes in one commit, so that no surface can read back a byte of
 * their text. The nodes may exist or have been forgotten before (their traces remain). Given seeds:
 *
 *  1. their earlier versions (the whole history, one statement);
 *  2. the episodes that contain any of them (a summary may repeat their words);
 *  3. the entities only they named, with those entities' aliases, and the aliases of entities that
 *     stay that no remaining memory mentions (src/memory/purge-closure.ts);
 *  4. every link into any of these (no dangling trace is left), with their outgoing links,
 *     full-text rows and vectors (deleteNodes);
 *  5. the focus without the purged entities; the message ids only they came from (a message sent
 *     again is remembered again);
 *  6. in the object, in the commit's own transaction: the results of the tasks that wrote them and
 *     of those that name them are taken and their Idempotency-Keys retired (a replay answers 409);
 *     the purged names leave other results' name lists (src/engine/stores/purged-results.ts).
 *
 * A caller plans (planPurge) and commits the plan's operations with its own counters and
 * checkpoint: the commit is redone whole after a crash (src/engine/write-path.ts). The reads are
 * proportional to the links of what is purged; a caller with many seeds passes them in chunks.
 */
import type { WriteOp } from "../../memory/write-ops";
import { entitiesToPurge, unmentionedAliases } from "../../memory/purge-closure";
import type { Edge } from "../../memory/bfs";
import type { ForgottenNode } from "../../memory/write-ops";
import type { LinkKey, MemoryNode } from "../../vocabulary/records";
import { RELATION } from "../../vocabulary/relations";
import { networkReader, type NetworkReader } from "../../engine/network-reader";
import type { AgentNetwork, AgentRepos, AgentStores } from "../../engine/runtime";

/** What a purge reads: the object's stores (the focus, the clock, forgotten-node notes) and the network. */
type AgentRuntime = AgentStores & AgentNetwork;

export interface PurgeSummary {
  /** Every node purged: the seeds, their earlier versions, the episodes holding them, the entities only they named. */
  nodes_deleted: number[];
  /** Links into them deleted (their own links go with them). */
  links_deleted: number;
  /** Message ids the agent no longer holds. */
  messages_released: number;
  /** Of nodes_deleted, the entities. */
  entities_deleted: number;
}

export interface PurgePlan {
  ops: WriteOp[];
  summary: PurgeSummary;
}

/** The seeds as they stand: their versions, links and records; undefined when nothing of them is left. */
interface Seeds {
  chain: number[];
  links: Edge[];
  nodes: Map<number, MemoryNode>;
  forgotten: ForgottenNode[];
}

async function seedsOf(rt: AgentRuntime, repos: AgentRepos, reader: NetworkReader, seeds: readonly number[]): Promise<Seeds | undefined> {
  const unique = [...new Set(seeds)];
  const chain = [...unique, ...(await repos.nodes.olderVersions(unique))];
  const [links, nodes] = await Promise.all([reader.expand(chain, [], rt.meta.clock()), reader.load(chain)]);
  const forgotten = rt.forgotten.get(chain);
  if (nodes.size === 0 && links.length === 0 && forgotten.length === 0) return undefined;
  return { chain, links, nodes, forgotten };
}

/** Whether anything of node `id` is left to purge (the node, or a trace of it after it was forgotten). */
export async function purgeable(rt: AgentRuntime, id: number): Promise<boolean> {
  const repos = rt.existingRepos();
  if (!repos) return false;
  return (await seedsOf(rt, repos, await networkReader(rt, repos), [id])) !== undefined;
}

/**
 * The operations that purge `seeds` and everything derived from them, for the task of sequence
 * `epoch`; undefined when nothing of them is left.
 */
export async function planPurge(rt: AgentRuntime, seeds: readonly number[], epoch: number): Promise<PurgePlan | undefined> {
  const repos = rt.existingRepos();
  if (!repos) return undefined;
  const reader = await networkReader(rt, repos);
  const found = await seedsOf(rt, repos, reader, seeds);
  if (!found) return undefined;
  const clock = rt.meta.clock();
  const chain = new Set(found.chain);
  const ends = await reader.load(unique(found.links.flatMap((l) => [l.source, l.target]).filter((id) => !chain.has(id))));
  const kindOf = (id: number) => ends.get(id)?.kind;
  const episodes = unique(
    found.links
      .filter((l) => l.relation === RELATION.contains && chain.has(l.target) && kindOf(l.source) === "episode")
      .map((l) => l.source),
  );
  const memories = new Set([...chain, ...episodes]);
  const candidates = unique(
    found.links
      .filter((l) => l.relation === RELATION.about)
      .flatMap((l) => [l.source, l.target])
      .filter((id) => !chain.has(id) && kindOf(id) === "entity"),
  );
  const entityLinks = candidates.length > 0 ? await reader.expand(candidates, [], clock) : [];
  const farEnds = await reader.load(unique(entityLinks.flatMap((l) => [l.source, l.target]).filter((id) => !ends.has(id))));
  for (const [id, node] of farEnds) ends.set(id, node);
  const entities = new Set([...ends.values()].filter((n) => n.kind === "entity").map((n) => n.id));
  const purgedEntities = entitiesToPurge({ candidates, purged: memories, links: entityLinks, entities });
  const gone = new Set([...memories, ...purgedEntities]);

  // Aliases: a purged entity's go with it (deleteNodes); an entity that stays keeps those still mentioned.
  const kept = new Set(candidates.filter((id) => !gone.has(id)));
  const aliases = await repos.nodes.aliasesOfNodes([...kept, ...purgedEntities]);
  const mentions = new Map<number, string[]>();
  for (const link of entityLinks) {
    if (link.relation !== RELATION.about) continue;
    const [entity, other] = kept.has(link.source) ? [link.source, link.target] : [link.target, link.source];
    const node = ends.get(other);
    if (!kept.has(entity) || gone.has(other) || !node || node.kind === "entity") continue;
    mentions.set(entity, [...(mentions.get(entity) ?? []), node.content]);
  }
  const dropped = new Set(
    unmentionedAliases(
      aliases.filter((a) => kept.has(a.nodeId)),
      mentions,
    ),
  );

  const episodeLinks = episodes.length > 0 ? await reader.expand(episodes, [], clock) : [];
  const incoming = new Map<string, LinkKey>();
  for (const link of [...found.links, ...episodeLinks, ...entityLinks]) {
    if (gone.has(link.target) && !gone.has(link.source)) {
      incoming.set(JSON.stringify([link.source, link.target, link.relation]), {
        source: link.source,
        target: link.target,
        relation: link.relation,
      });
    }
  }
  // The messages of the versions (an episode's other messages belong to memories kept or forgotten).
  const messageIds = unique([
    ...[...found.nodes.values()].flatMap((n) => n.sourceMessageIds),
    ...found.forgotten.flatMap((f) => f.messageIds),
  ]);
  const stillUsed = await repos.nodes.messagesStillUsed(messageIds, [...gone]);
  const released = messageIds.filter((m) => !stillUsed.has(m));
  const writers = [...found.nodes.values(), ...episodes.flatMap((id) => ends.get(id) ?? [])].map((n) => n.sourceTaskId);
  const taskIds = unique([...writers, ...found.forgotten.map((f) => f.taskId)].filter((t): t is string => t !== null));
  const names = [
    ...purgedEntities.flatMap((id) => ends.get(id)?.content ?? []),
    ...aliases.filter((a) => !kept.has(a.nodeId) || dropped.has(a.key)).map((a) => a.name),
  ];

  const ops: WriteOp[] = [];
  const focus = rt.focus.list();
  if (focus.some((f) => gone.has(f.nodeId))) {
    ops.push({ type: "setFocus", focus: focus.filter((f) => !gone.has(f.nodeId)), released: [], clock, epoch });
  }
  if (incoming.size > 0) ops.push({ type: "deleteLinks", keys: [...incoming.values()] });
  if (dropped.size > 0) ops.push({ type: "deleteAliases", keys: [...dropped] });
  const nodesDeleted = [...gone].sort((a, b) => a - b);
  ops.push({ type: "deleteNodes", ids: nodesDeleted });
  if (released.length > 0) ops.push({ type: "forgetMessages", ids: released });
  ops.push({ type: "scrubPurged", nodeIds: nodesDeleted, taskIds, names });
  return {
    ops,
    summary: {
      nodes_deleted: nodesDeleted,
      links_deleted: incoming.size,
      messages_released: released.length,
      entities_deleted: purgedEntities.length,
    },
  };
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
