/**
 * The names that lead to an agent's entities (docs/design.md, "Memory operations", entity
 * resolution): each entity's own normalised key, and the alias keys of names it absorbed. The
 * in-memory graph keeps one, in step with D1's `nodes.name` and `entity_aliases`.
 */
export class EntityNames {
  private readonly entities = new Map<string, number>();
  private readonly aliases = new Map<string, number>();

  /** The entity stored under `key`, or the one an alias `key` leads to. */
  lookup(key: string): number | undefined {
    return this.entities.get(key) ?? this.aliases.get(key);
  }

  /** Whether an entity is stored under `key` itself (an alias does not count). */
  hasEntity(key: string): boolean {
    return this.entities.has(key);
  }

  addEntity(key: string, nodeId: number): void {
    this.entities.set(key, nodeId);
  }

  addAlias(key: string, nodeId: number): void {
    this.aliases.set(key, nodeId);
  }

  deleteAliases(keys: readonly string[]): void {
    for (const key of keys) this.aliases.delete(key);
  }

  /** Every alias and the node it leads to (the graph's snapshot stores them). */
  aliasEntries(): [string, number][] {
    return [...this.aliases];
  }

  /** Nodes deleted: their entity keys and every alias leading to them go (as NodeRepo.deleteAliasesOfStatement). */
  deleteNodes(deleted: ReadonlyMap<number, string | null>): void {
    for (const [id, key] of deleted) if (key !== null && this.entities.get(key) === id) this.entities.delete(key);
    for (const [alias, id] of this.aliases) if (deleted.has(id)) this.aliases.delete(alias);
  }
}
