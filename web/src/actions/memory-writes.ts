/**
 * Corrections (DESIGN §11, §14): add a memory, edit one (a new version supersedes it), link two,
 * delete or purge one — each through the public API, then the graph follows: the nodes written and
 * their neighbours on screen are re-read (not the whole network: one request per node), a new or
 * edited memory is shown and selected, a deleted one turns into a ghost, a purged one leaves.
 */
import type { ApiClient, LinkParams } from "../api/client";
import type { LinkCreated, MemoryCreated, MemoryDeleted, MemoryUpdated } from "../api/schemas";
import type { GraphModel } from "../graph/model";
import type { NetworkLoader } from "../graph/network";
import { relationName } from "../graph/relations";

export interface WriteTarget {
  client: ApiClient;
  agent: string;
  loader: NetworkLoader;
}

export interface WriteDeps {
  model: GraphModel;
  current(): WriteTarget;
  /** Selects a node (null: none). */
  select(id: number | null): void;
  status(text: string): void;
}

export class MemoryWrites {
  constructor(private readonly deps: WriteDeps) {}

  /** A new explicit memory: shown with its entities, and selected. */
  async add(content: string): Promise<MemoryCreated> {
    const { client, agent, loader } = this.deps.current();
    const created = await client.addMemory(agent, content);
    await loader.expand(created.node_id);
    await this.reloadAround([created.node_id]);
    this.deps.select(created.node_id);
    const conflicts = created.conflicts;
    const notes = [
      created.entities.length > 0 ? `entities ${created.entities.join(", ")}` : null,
      conflicts && conflicts.updates > 0 ? `it supersedes ${conflicts.updates} earlier memory(ies)` : null,
      conflicts && conflicts.contradictions > 0 ? `it contradicts ${conflicts.contradictions} memory(ies)` : null,
    ].filter((n): n is string => n !== null);
    this.deps.status(`Added memory #${created.node_id}${notes.length > 0 ? `: ${notes.join("; ")}` : ""}.`);
    return created;
  }

  /** The new version is shown and selected; the old one stays, marked superseded (history). */
  async edit(nodeId: number, content: string): Promise<MemoryUpdated> {
    const { client, agent } = this.deps.current();
    const updated = await client.updateMemory(agent, nodeId, content);
    await this.reloadAround([updated.node_id, updated.supersedes]);
    this.deps.select(updated.node_id);
    this.deps.status(
      `Memory #${updated.supersedes} is superseded by its new version #${updated.node_id} (${updated.links_moved} links moved to it).`,
    );
    return updated;
  }

  async link(params: LinkParams): Promise<LinkCreated> {
    const { client, agent, loader } = this.deps.current();
    const link = await client.link(agent, params);
    await loader.reload([link.source, link.target]);
    this.deps.select(link.source);
    this.deps.status(`Linked #${link.source} → #${link.target} (${relationName(link.relation)}, strength ${link.strength}).`);
    return link;
  }

  /** Forgotten: a ghost stays where it was, the links into it dangling. Purged: it leaves with every trace. */
  async remove(nodeId: number, purge: boolean): Promise<MemoryDeleted> {
    const { client, agent, loader } = this.deps.current();
    const deleted = await client.deleteMemory(agent, nodeId, purge);
    const { model } = this.deps;
    const neighbours = new Set<number>();
    for (const id of deleted.nodes_deleted) for (const n of model.neighbours(id)) neighbours.add(n);
    for (const id of deleted.nodes_deleted) {
      if (purge) model.remove(id);
      else model.markForgotten(id);
    }
    for (const id of deleted.nodes_deleted) neighbours.delete(id);
    await loader.reload([...neighbours].filter((id) => model.get(id)?.status !== "ghost"));
    this.deps.select(purge ? null : nodeId);
    this.deps.status(
      purge
        ? `Purged memory #${nodeId}: ${deleted.nodes_deleted.length} node(s) and ${deleted.links_deleted} link(s) into them removed, no trace left.`
        : `Deleted memory #${nodeId}: the links into it stay as traces of what was forgotten.`,
    );
    return deleted;
  }

  /** Re-reads the nodes written, then their neighbours on screen (importance, link strengths, supersession). */
  private async reloadAround(ids: number[]): Promise<void> {
    const { loader } = this.deps.current();
    await loader.reload(ids);
    const around = new Set<number>();
    for (const id of ids) for (const n of this.deps.model.neighbours(id)) if (!ids.includes(n)) around.add(n);
    await loader.reload([...around].filter((id) => this.deps.model.get(id)?.status !== "ghost"));
  }
}
